"""The guide's networking advice as findings, the archetype advisor and clean templates."""

from __future__ import annotations

import json

import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import History, SetSetting
from planner.report.evaluate import Evaluator
from planner.plan.model import Plan
from planner.settings import FabricSettings, field_meta
from planner.design.templates import build_template, template_names

CAT = default_catalog()


def findings(plan):
    return {f.code: f for f in Evaluator(plan, CAT).evaluate().findings}


@pytest.mark.parametrize("name", ["medium", "massive", "inference"])
def test_templates_carry_no_errors_or_warnings(name):
    # laid out on nameplate; on the typical basis the GPU racks' nameplate over the cap is a warning
    report = Evaluator(build_template(name, power_basis="nameplate"), CAT).evaluate()
    assert [(f.code, f.message) for f in report.findings if f.severity in ("error", "warning")] == []


def test_single_node_templates_only_warning_is_the_impossible_claim():
    report = Evaluator(build_template("single-node"), CAT).evaluate()
    assert [f.code for f in report.findings if f.severity in ("error", "warning")] == ["workload.claim.impossible"]


def test_every_template_is_listed():
    assert {"single-node", "medium", "massive", "inference"} <= set(template_names())


def test_medium_is_the_guides_70b_case():
    plan = build_template("medium")
    w, f = plan.settings.workload, plan.settings.fabric
    assert (w.model_params_b, w.tp, w.pp, w.dp) == (70, 8, 4, 4)
    assert (f.technology, f.topology) == ("ib400", "rail_optimized")
    assert Evaluator(plan, CAT).evaluate().totals.gpus == 128


def test_oversubscribed_training_fabric_warns():
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "topology", "leaf_spine"))
    step = Evaluator(plan, CAT).evaluate().sections["workload"]["step_time_s"]
    h.apply(SetSetting("fabric", "oversubscription", 2.0))
    found = findings(plan)["network.oversubscribed"]
    assert found.severity == "warning"
    # the warning says what the step time charges for it, and the figure agrees: nothing
    assert "The step time does not charge it" in found.message and "1/2 of the line rate" in found.message
    assert Evaluator(plan, CAT).evaluate().sections["workload"]["step_time_s"] == step


def test_ethernet_for_a_70b_model_on_128_gpus_warns_with_the_faq():
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "technology", "eth400_roce"))
    h.apply(SetSetting("fabric", "switch_device", "sn5600-400"))
    f = findings(plan)["network.ethernet.training"]
    assert f.severity == "warning" and "128 GPUs" in f.message and "70B" in f.message


def test_storage_on_the_compute_fabric_warns():
    plan = build_template("medium")
    History(plan, CAT).apply(SetSetting("fabric", "storage_fabric", "shared"))
    assert findings(plan)["network.storage.shared"].severity == "warning"


def gpu_plan(node: str, count: int, **workload) -> Plan:
    plan = Plan()
    h = History(plan, CAT)
    AutoPlace(node, count, new_rack_prefix="R", new_rack_fields={"power_cap_kw": 100}).do(plan, CAT)
    for k, v in workload.items():
        h.apply(SetSetting("workload", k, v))
    return plan


def test_consumer_gpus_and_shared_nics_warn():
    # 2 nodes of 8 x RTX 4090 with 2 NICs each: no ECC, no NVLink, 4 GPUs per NIC.
    plan = gpu_plan("rtx4090x8", 2, model_params_b=7, layers=32, hidden_size=4096, tp=8, pp=1, dp=2)
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "technology", "eth100_tcp"))
    h.apply(SetSetting("fabric", "switch_device", "sn4600c"))
    found = findings(plan)
    assert found["network.gpu.consumer"].severity == "warning"
    assert "ECC" in found["network.gpu.consumer"].message
    assert found["network.nic.shared"].severity == "warning"
    assert "own NIC" in found["network.nic.shared"].message


def test_tp_across_nodes_warns():
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("workload", "tp", 16))
    h.apply(SetSetting("workload", "dp", 2))
    assert findings(plan)["workload.tp.spans_nodes"].severity == "warning"


@pytest.mark.parametrize("name,expect", [("single-node", "Type 1"), ("medium", "Type 2"), ("massive", "Type 3"),
                                         ("inference", "Inference cluster")])
def test_archetype_advisor(name, expect):
    f = findings(build_template(name))["workload.archetype"]
    assert f.severity == "info" and expect in f.message


def test_a_rack_scale_plan_is_not_measured_against_the_8_gpu_archetypes():
    # 8 GB200 NVL72 racks, 576 GPUs: not "more than [Type 2's] 128: check that the workload
    # scales", but beyond the guide's 8-GPU archetypes, its type by model size named
    f = findings(build_template("gb200-nvl72-su"))["workload.archetype"]
    assert "rack-scale systems (72 GPUs an NVLink domain) are beyond them" in f.message
    assert "Type 2" in f.message and "check that the workload scales" not in f.message


def test_every_new_fabric_setting_has_title_unit_and_source():
    for name in FabricSettings.model_fields:
        meta = field_meta(FabricSettings, name)
        assert meta["title"] and meta["source"], name
        if name.startswith(("efficiency_", "latency_")) and name != "efficiency_profile":
            assert meta["unit"], name


def test_cli_fabrics_text_and_json(tmp_path, capsys):
    plan_file = tmp_path / "m.json"
    main(["new", "-t", "medium", "-o", str(plan_file)])
    capsys.readouterr()
    assert main(["fabrics", str(plan_file)]) == 0
    text = capsys.readouterr().out
    assert "100GbE (TCP)" in text and "400G InfiniBand (NDR) + SHARP" in text
    assert main(["fabrics", str(plan_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["fabric"] for r in data["fabrics"]] == ["eth100_tcp", "eth200_roce", "eth400_roce", "ib200", "ib400",
                                                      "ib800", "spx400", "spx800"]


def test_cli_fabrics_without_workload_says_so_and_exits_0(tmp_path, capsys):
    # A usable plan with nothing to compare is not unusable input (2) nor a plan error (1).
    plan_file = tmp_path / "i.json"
    main(["new", "-t", "inference", "-o", str(plan_file)])
    capsys.readouterr()
    assert main(["fabrics", str(plan_file)]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == "no fabric comparison: the plan has no training workload on GPUs to compare"
    assert out.err == ""
    assert main(["fabrics", str(plan_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fabrics"] == [] and data["note"].startswith("no fabric comparison")


def test_check_text_shows_the_new_figures(tmp_path, capsys):
    plan_file = tmp_path / "m.json"
    main(["new", "-t", "medium", "-o", str(plan_file)])
    capsys.readouterr()
    main(["check", str(plan_file)])
    out = capsys.readouterr().out
    for label in ("Leaf switches", "Gradient all-reduce per step", "Throughput at 100% of peak (limit)",
                  "Checkpoint size", "Cables per tier"):
        assert label in out


def test_storage_switches_of_the_fabric_model_are_not_fabric_ports():
    # 512 B200 on Spectrum-X 400G: SN5600 split, 128 ports: 2 tiers of 8 leaves (64 down, 64 up)
    # and 4 spines = 12 switches, 1,536 ports, all needed. The storage network is separate on
    # the same model: 64 x 2 storage NICs + 26 appliances x 4 = 232 ports, past one switch's
    # 128, so a leaf-spine at 3:1 (96 ports down a leaf): 3 leaves and 1 spine of its own. They
    # are not compute ports placed, none is spare.
    from planner.design.templates import design_from
    from planner.hardware.catalog import default_catalog
    from planner.report.evaluate import evaluate

    catalog = default_catalog()
    plan = design_from(None, catalog, system="dgx-b200", gpus=512, fabric="spx400", model="llama3-70b").plan
    fabric = plan.settings.fabric
    assert fabric.switch_device == fabric.storage_switch_device and fabric.storage_fabric == "separate"
    assert sum(p.device == fabric.switch_device for p in plan.placements) == 12 + 4
    report = evaluate(plan, catalog)
    net = report.sections["network"]
    assert (net["leaf_switches"], net["spine_switches"]) == (8, 4)
    assert net["switch_ports_placed"] == net["switch_ports_needed"] == 1536
    assert not [f for f in report.findings if f.code.startswith("network.ports.")]

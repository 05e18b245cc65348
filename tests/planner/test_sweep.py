"""sweep: every row equals check --json of the same plan laid out by hand.

Why it is long: one command with many axes (systems, nodes, fabrics, rack caps and types,
power basis, reliability), each laid out as new lays it out, and each checked here against
a plan built by hand."""

from __future__ import annotations

import csv
import json

import pytest

from planner.cli import main
from planner.design.templates import build_template, liquid_load, set_rows
from planner.facility.cooling import cdus_needed
from planner.findings import Remedy
from planner.network.fabric import plan_fabric
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import History, RemoveDevices, RemoveRack, SetSetting
from planner.plan.fileio import save_plan
from planner.remedies.commands import remedy_command
from planner.sweep import SweepError, parse_grid, pareto_front, rack_choice_text

SYSTEMS = ["hgx-h100-8", "hgx-b300-8"]
NODES = [8, 16, 24]
FABRICS = [("ib400", "qm9700"), ("spx400", "sn5600-400")]
# medium trains with TP 8 x PP 4 x DP 4 on 128 GPUs; at 8 GPUs a node, n nodes give n replicas of TP 8:
# PP stays 4 (it divides 8, 16 and 24) and DP = n / 4. At 24 nodes DP 6 does not divide medium's
# 1,024 sequences into whole micro-batches, so that layout does not hold: the point takes the
# design's, as the parallelism fix chooses it (None).
PP_DP = {8: (4, 2), 16: (4, 4), 24: None}


def by_hand(catalog, system: str, nodes: int, technology: str, switch: str):
    """medium, re-laid out step by step with the editing commands: take out its 16 H100
    nodes, its 10 QM9700 fabric switches and its 2 CDUs (and the racks they leave empty),
    place the nodes in 30 kW liquid-cooled GPU racks, set TP x PP x DP to the GPUs, then the
    switches the fabric needs into the network rack and the CDUs into the CDU rack."""
    plan = build_template("medium", catalog=catalog)
    h = History(plan, catalog)
    h.apply(SetSetting("fabric", "technology", technology))
    h.apply(SetSetting("fabric", "switch_device", switch))
    out = [p for p in plan.placements if p.device in ("hgx-h100-8", "qm9700", "cdu-inrack-250")]
    assert len(out) == 16 + 10 + 2
    racks = {p.rack for p in out}
    net = next(p.rack for p in out if p.device == "qm9700")
    cdu_rack = next(p.rack for p in out if p.device == "cdu-inrack-250")
    h.apply(RemoveDevices([p.id for p in out]))
    for rid in sorted(racks, key=plan.rack_index):
        if not plan.rack_members(rid):
            h.apply(RemoveRack(rid))
    h.apply(AutoPlace(system, nodes, new_rack_prefix="GPU", label_prefix="node-",
                      new_rack_fields={"height_u": 42, "power_cap_kw": 30.0, "cooling": "liquid",
                                       "max_weight_kg": 1360.0, "rack_type": "", "width_mm": 600,
                                       "depth_mm": 1200, "rear_door_hx": False}))
    if PP_DP[nodes] is None:
        h.apply(remedy_command(Remedy("set_parallelism", "Choose a parallelism", (("gpus", nodes * 8),))))
        w = plan.settings.workload
        assert w.tp * w.cp * w.pp * w.dp == nodes * 8 and (1024 // w.dp) % w.micro_batch_size == 0 == 1024 % w.dp
    else:
        pp, dp = PP_DP[nodes]
        h.apply(SetSetting("workload", "pp", pp))
        h.apply(SetSetting("workload", "dp", dp))
    size = plan_fabric({system: nodes}, catalog, plan.settings.fabric)
    label = "ib-" if technology.startswith("ib") else "eth-"
    h.apply(AutoPlace(switch, size.switches, racks=[net] if plan.rack(net) else [], new_rack_prefix="NET",
                      new_rack_fields={"cooling": "air"}, label_prefix=label))
    need = cdus_needed(*liquid_load(plan, catalog), plan.settings.facility, catalog)
    h.apply(AutoPlace("cdu-inrack-250", need, racks=[cdu_rack] if plan.rack(cdu_rack) else [],
                      new_rack_prefix="CDU", new_rack_fields={"cooling": "liquid"}, label_prefix="cdu-"))
    set_rows(plan)
    return plan


def cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    return code, capsys.readouterr()


def test_a_2x3x2_sweep_gives_12_rows_equal_to_check_json_of_the_plans_built_by_hand(capsys, tmp_path, catalog):
    assert main(["new", "-t", "medium", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text(json.dumps({
        "gpu_system": SYSTEMS, "nodes": NODES,
        "fabric": [{"technology": t, "switch_device": s} for t, s in FABRICS]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "base.json"), "--grid", str(tmp_path / "grid.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "2")
    assert code == 0, out.err
    assert out.out.startswith(f"wrote {tmp_path / 'r.csv'}: 12 points")
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert len(rows) == 12
    i = 0
    for system in SYSTEMS:
        for nodes in NODES:
            for technology, switch in FABRICS:
                row = rows[i]
                i += 1
                assert (row["gpu_system"], row["nodes"], row["fabric"], row["switch_device"]) == (
                    system, str(nodes), technology, switch)
                # the point that asks for what medium is (16 H100 nodes on NDR400) is medium as laid
                # out, so its row is check of the base; the others are laid out anew
                base = (system, nodes, technology) == ("hgx-h100-8", 16, "ib400")
                if not base:
                    save_plan(by_hand(catalog, system, nodes, technology, switch), tmp_path / "hand.json")
                _, got = cli(capsys, "check", str(tmp_path / ("base.json" if base else "hand.json")), "--json")
                r = json.loads(got.out)
                assert r["totals"]["gpus"] == nodes * 8
                expect = {
                    "gpus": r["totals"]["gpus"], "racks": r["totals"]["racks"], "cdus": r["totals"]["cdus"],
                    "it_power_kw": r["totals"]["it_power_kw"],
                    "facility_power_kw": r["totals"]["facility_power_kw"],
                    "capex_usd": r["cost"]["capex_usd"], "opex_usd_per_month": r["cost"]["opex_usd_per_month"],
                    "tco_usd": r["cost"]["tco_usd"], "tokens_per_s": r["workload"]["tokens_per_s"],
                    "time_to_train_days": r["workload"]["time_to_train_days"],
                    "break_even_months": r["cost"]["break_even_months"]["on_demand"],
                    "errors": sum(f["severity"] == "error" for f in r["findings"]),
                    "warnings": sum(f["severity"] == "warning" for f in r["findings"]),
                }
                got_row = {k: (None if row[k] == "" else float(row[k])) for k in expect}
                assert got_row == expect, (system, nodes, technology)
    assert rows[2]["gpus"] == "128"  # the base point: medium's 16 x 8 GPUs


def test_pareto_front_keeps_only_the_rows_nothing_beats_on_both():
    rows = [{"capex_usd": 1.0, "time_to_train_days": 10.0}, {"capex_usd": 2.0, "time_to_train_days": 5.0},
            {"capex_usd": 3.0, "time_to_train_days": 6.0}, {"capex_usd": 1.5, "time_to_train_days": 10.0},
            {"capex_usd": None, "time_to_train_days": 1.0}, {"capex_usd": 4.0, "time_to_train_days": 1.0}]
    # row 2 loses to row 1 on both, row 3 to row 0 (same time, more capex); row 4 has no capex.
    assert pareto_front(rows, "capex_usd", "time_to_train_days") == [0, 1, 5]
    # More tokens/s is better: against capex, the front runs the other way.
    rows = [{"capex_usd": 1.0, "tokens_per_s": 10.0}, {"capex_usd": 2.0, "tokens_per_s": 5.0},
            {"capex_usd": 3.0, "tokens_per_s": 20.0}]
    assert pareto_front(rows, "capex_usd", "tokens_per_s") == [0, 2]
    # A point whose plan has errors is no design one could build: off the front, however cheap.
    rows[0]["errors"], rows[2]["errors"] = 2, 0
    assert pareto_front(rows, "capex_usd", "tokens_per_s") == [1, 2]


def test_a_point_with_errors_names_them_and_stays_off_the_front(capsys, tmp_path):
    # An 800G Ethernet switch named for a 400G InfiniBand fabric: the point's plan has the
    # switch-mismatch error; its row counts it, names its code, and the front has no point.
    assert main(["new", "--system", "dgx-h100", "--gpus", "128", "-o", str(tmp_path / "a.json")]) == 0
    (tmp_path / "g.json").write_text(json.dumps({"fabric": [{"technology": "ib400", "switch_device": "sn5600"}]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 0 and "0 on the Pareto front" in out.out
    row = next(csv.DictReader((tmp_path / "r.csv").open()))
    assert (row["errors"], row["error_codes"], row["pareto"]) == ("1", "network.switch.mismatch", "")


def test_a_sweep_whose_points_cannot_be_laid_out_says_so_and_exits_1(capsys, tmp_path):
    # a DGX H100 draws 7 kW typical: no GPU rack capped at 1 or 2 kW holds one
    assert main(["new", "--system", "dgx-h100", "--gpus", "64", "-o", str(tmp_path / "a.json")]) == 0
    (tmp_path / "g.json").write_text(json.dumps({"rack": [{"power_cap_kw": 1}, {"power_cap_kw": 2}]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 1
    assert out.out.strip() == f"wrote {tmp_path / 'r.csv'}: none of the 2 points could be laid out (see the problem column)"
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert len(rows) == 2 and all(r["problem"] for r in rows)
    (tmp_path / "g.json").write_text(json.dumps({"rack": [{"power_cap_kw": 1}]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 1 and "the one point could not be laid out" in out.out
    # points that can be: the axes by their names
    (tmp_path / "g.json").write_text(json.dumps({"nodes": [8, 16]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 0 and "on the Pareto front of Capex and Time to train with failures" in out.out


def test_a_point_on_the_nameplate_basis_lays_the_storage_out_again(capsys, tmp_path):
    # 1,024 H100 for Llama 3 70B: the design fills its storage racks to the 25 kW cap at
    # typical draw; on the nameplate basis those racks would draw more than their cap, so the
    # point lays the storage out again in racks that hold it: no error.
    assert main(["new", "--system", "dgx-h100", "--gpus", "1024", "--model", "llama3-70b",
                 "-o", str(tmp_path / "b.json")]) == 0
    (tmp_path / "g.json").write_text(json.dumps({"power_basis": ["nameplate"]}))
    code, out = cli(capsys, "sweep", str(tmp_path / "b.json"), "--grid", str(tmp_path / "g.json"),
                    "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 0
    row = next(csv.DictReader((tmp_path / "r.csv").open()))
    assert (row["errors"], row["error_codes"], row["pareto"]) == ("0", "", "yes")
    base = json.loads(cli(capsys, "check", "--json", str(tmp_path / "b.json"))[1].out)
    assert int(row["racks"]) > base["totals"]["racks"]  # racks filled to the cap at nameplate: more of them


@pytest.mark.parametrize("grid, message", [
    ([1, 2], "a grid is a JSON object"),
    ({"gpu_system": ["qm9700"]}, "gpu_system 'qm9700' is not a GPU system"),
    ({"nodes": [0]}, "nodes takes 1 to 100,000"),
    ({"nodes": ["8"]}, "nodes"),
    ({"fabric": ["ib999"]}, "fabric \"ib999\""),
    ({"rack": [{"rack_type": "nope"}]}, "no rack type 'nope'"),
    ({"rack": [{"rack_type": []}]}, r"a rack's rack_type is a catalog rack type's id, not \[\]"),
    ({"colour": ["red"]}, "colour"),
    ({"nodes": []}, "the axis nodes has no values: give them, or leave the axis out"),
    ({"nodes": [8], "fabric": []}, "the axis fabric has no values"),
    ({"nodes": list(range(1, 1001)), "gpu_system": ["hgx-h100-8"] * 100, "power_basis": ["typical", "nameplate"]},
     "more than a sweep takes"),
])
def test_bad_grids_are_refused_in_one_line(catalog, grid, message):
    with pytest.raises(SweepError, match=message) as info:
        parse_grid(grid, catalog, "g.json")
    assert "\n" not in str(info.value)


def test_a_malformed_grid_file_is_one_line_exit_2_and_nothing_written(capsys, tmp_path):
    assert main(["new", "-t", "medium", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text('{"nodes": [8, 16,]}')
    code, out = cli(capsys, "sweep", str(tmp_path / "base.json"), "--grid", str(tmp_path / "grid.json"),
                    "-o", str(tmp_path / "r.csv"))
    assert code == 2 and out.err.count("\n") == 1 and "grid.json" in out.err
    code, out = cli(capsys, "sweep", str(tmp_path / "base.json"), "--grid", str(tmp_path / "grid.json"),
                    "--variant", "Ghost", "-o", str(tmp_path / "r.csv"))
    assert code == 2 and "no variant 'Ghost'" in out.err
    assert not (tmp_path / "r.csv").exists()


def test_a_fabric_given_by_technology_takes_a_switch_that_speaks_it(catalog):
    from planner.sweep import switch_for

    assert switch_for("ib400", catalog, "qm9700") == "qm9700"  # the base's switch, NDR at 400G
    # Spectrum-X 400GbE: an Ethernet switch at 400G; the SN5600 split to 128 x 400GbE is the one.
    assert switch_for("spx400", catalog, "qm9700") == "sn5600-400"
    # XDR InfiniBand at 800G: the Quantum-X800 Q3400 (144 ports) has more ports than the Q3200 (36).
    assert switch_for("ib800", catalog, "qm9700") == "q3400"


def test_a_fabric_point_slower_than_the_nics_runs_them_at_its_rate(tmp_path, catalog):
    # DGX H100's 400G ConnectX-7 on a 100GbE point: as new designs it, one link a NIC at 100
    # Gb/s (no NIC faster than its switch port); back on 400G InfiniBand, the NICs' own rate.
    from planner.plan.fileio import load_plan
    from planner.report.evaluate import evaluate
    from planner.sweep import build_point

    assert main(["new", "--system", "dgx-h100", "--gpus", "128", "-o", str(tmp_path / "a.json")]) == 0
    base = load_plan(tmp_path / "a.json")
    slow = build_point(base, {"fabric": {"technology": "eth100_tcp"}}, catalog)
    assert slow.settings.fabric.nic_link_gbps == 100
    assert evaluate(slow, catalog).counts_by_severity()["error"] == 0
    back = build_point(slow, {"fabric": {"technology": "ib400"}}, catalog)
    assert back.settings.fabric.nic_link_gbps is None


def test_a_point_on_hdr_nodes_takes_a_switch_whose_ports_run_their_lanes(tmp_path, catalog):
    # 256 HGX H100 on 200G InfiniBand stand on the 128-port NDR200 split; a point of DGX A100
    # (HDR ConnectX-6, 4 x 50G lanes) cannot link to it: the point takes the QM9700 at HDR.
    from planner.plan.fileio import load_plan
    from planner.report.evaluate import evaluate
    from planner.sweep import build_point

    assert main(["new", "--system", "hgx-h100-8", "--gpus", "256", "--fabric", "ib200", "-o",
                 str(tmp_path / "a.json")]) == 0
    base = load_plan(tmp_path / "a.json")
    assert base.settings.fabric.switch_device == "qm9700-ndr200"
    a100 = build_point(base, {"gpu_system": "dgx-a100"}, catalog)
    assert a100.settings.fabric.switch_device == "qm9700-hdr"
    assert "network.nic.lanes" not in {f.code for f in evaluate(a100, catalog).findings}


def test_the_base_point_is_the_plan_as_it_is_and_other_points_say_their_layout(tmp_path, catalog):
    # medium set by hand to TP 1 x PP 1 x DP 128 for its 70B model only fits with more sharding
    # and recompute than asked (the layout does not hold). The point that asks for medium's own
    # choices is the plan as it is, its layout included, so its row is what check says of the
    # plan; a point of 24 nodes would run that layout by DP (TP 1 x PP 1 x DP 192), which does
    # not hold either, so the design's search lays it out, and its row says so.
    from planner.design.layout import job_summary
    from planner.design.parallelism import why_not_held
    from planner.report.evaluate import evaluate
    from planner.sweep import build_point, evaluate_point

    plan = build_template("medium", catalog=catalog)
    plan.settings.workload = plan.settings.workload.model_copy(update=dict(tp=1, pp=1, dp=128))
    assert why_not_held(plan.settings.workload, plan.settings.fabric, job_summary(plan, catalog)) is not None
    same = build_point(plan, {"nodes": 16}, catalog)
    assert same.settings.workload == plan.settings.workload and same.placements == plan.placements
    row = evaluate_point(plan, {"nodes": 16}, catalog)
    assert row["tokens_per_s"] == pytest.approx(evaluate(plan, catalog).network.tokens_per_s, rel=1e-9)
    assert row["layout"].startswith("TP 1 x PP 1 x DP 128, mb ") and row["layout"].endswith("(the plan's)")
    grown = evaluate_point(plan, {"nodes": 24}, catalog)
    assert grown["layout"].endswith("(designed)") and not grown["layout"].startswith("TP 1 x PP 1 x DP 192,")
    # the template's own layout (TP 8 x PP 4 x DP 4) holds at 32 nodes by DP: kept, resized
    base = build_template("medium", catalog=catalog)
    assert evaluate_point(base, {"nodes": 32}, catalog)["layout"] == (
        f"TP 8 x PP 4 x DP 8, mb {base.settings.workload.micro_batch_size} (the plan's, resized by DP)")


def test_the_csv_gives_each_points_gpu_rack_cap_and_cooling_in_columns(capsys, tmp_path):
    """A spreadsheet reads the GPU racks as laid out, in numbers, beside the choice's JSON."""
    assert main(["new", "--system", "dgx-h100", "--gpus", "64", "-o", str(tmp_path / "a.json")]) == 0
    (tmp_path / "g.json").write_text(json.dumps({"nodes": [8], "rack": [{"power_cap_kw": 40}]}))
    code, _ = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                  "-o", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 0
    row = next(csv.DictReader((tmp_path / "r.csv").open()))
    # a DGX H100 is air-cooled: its racks hold no more than the 25 kW air-cooling limit, which
    # the column shows and the rack's words say beside the 40 kW asked
    assert (row["gpu_rack_kw"], row["gpu_rack_cooling"]) == ("25.0", "air")
    assert rack_choice_text(row["rack"], None, row["gpu_rack_kw"], row["gpu_rack_cooling"]) == (
        "40 kW cap, laid out at 25 kW (the air-cooling limit)")
    assert rack_choice_text(row["rack"], None, row["gpu_rack_kw"], "liquid") == "40 kW cap, laid out at 25 kW"
    assert rack_choice_text(row["rack"]) == "40 kW cap"
    (tmp_path / "g.json").write_text(json.dumps({"nodes": [8]}))
    code, _ = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                  "-o", str(tmp_path / "r.csv"), "--workers", "1")
    row = next(csv.DictReader((tmp_path / "r.csv").open()))
    assert (row["rack"], row["gpu_rack_kw"], row["gpu_rack_cooling"]) == ("", "25.0", "air")  # the plan's racks
    # a liquid-cooled rack holds the cap asked (the air limit is not its bound)
    (tmp_path / "g.json").write_text(json.dumps({"rack": [{"power_cap_kw": 60, "cooling": "liquid"}]}))
    code, _ = cli(capsys, "sweep", str(tmp_path / "a.json"), "--grid", str(tmp_path / "g.json"),
                  "-o", str(tmp_path / "r.csv"), "--workers", "1")
    row = next(csv.DictReader((tmp_path / "r.csv").open()))
    assert (row["gpu_rack_kw"], row["gpu_rack_cooling"]) == ("60.0", "liquid")
    assert rack_choice_text(row["rack"], None, row["gpu_rack_kw"]) == "liquid-cooled, 60 kW cap"

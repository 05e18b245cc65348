"""File format versions: every released version loads; newer ones are refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.plan.fileio import PlanLoadError, load_plan, plan_from_json
from planner.plan.migrations import MIGRATIONS, MigrationError, migrate
from planner.plan.model import SCHEMA_VERSION

DATA = Path(__file__).resolve().parents[1] / "data"


def test_every_older_version_has_a_migration_and_a_sample_file():
    # One migration per step 1 -> 2 -> ... -> SCHEMA_VERSION, and a saved file of each version.
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION))
    for version in range(1, SCHEMA_VERSION + 1):
        assert (DATA / f"plan_v{version}.json").is_file(), f"tests/data/plan_v{version}.json is missing"


def test_version_1_sample_loads_with_its_figures():
    """plan_v1.json is the `medium` template as saved by format 1 (the guide's 16-node cluster)."""
    raw = (DATA / "plan_v1.json").read_bytes()
    assert json.loads(raw)["schema_version"] == 1
    plan = load_plan(DATA / "plan_v1.json")
    report = evaluate(plan, default_catalog())
    # Guide: 16 nodes x 8 H100 = 128 GPUs; 4 nodes per 30 kW rack -> 4 GPU racks; one CDU per 8 nodes -> 2.
    assert (report.totals.nodes, report.totals.gpus, report.totals.gpu_racks, report.totals.cdus) == (16, 128, 4, 2)
    assert (DATA / "plan_v1.json").read_bytes() == raw  # loading never writes


def test_newer_version_is_refused_naming_both_versions():
    text = (DATA / "plan_v1.json").read_text().replace('"schema_version": 1', f'"schema_version": {SCHEMA_VERSION + 1}', 1)
    with pytest.raises(PlanLoadError) as info:
        plan_from_json(text, "p.json")
    msg = str(info.value)
    assert f"file format {SCHEMA_VERSION + 1}" in msg and f"formats up to {SCHEMA_VERSION}" in msg


@pytest.mark.parametrize("bad", [0, -1, "1", 1.5, True, None, [1]])
def test_nonsense_versions_are_refused(bad):
    with pytest.raises(MigrationError, match="schema_version must be a whole number"):
        migrate({"schema_version": bad})


# -- the mechanism, with a synthetic history: format 1 -> 2 renamed "title" to "name",
#    format 2 -> 3 moved "racks" under "layout" (made up for this test only).

def _v1_to_v2(d: dict) -> dict:
    d["name"] = d.pop("title")
    return d


def _v2_to_v3(d: dict) -> dict:
    d["layout"] = {"racks": d.pop("racks")}
    return d


SYNTHETIC = {1: _v1_to_v2, 2: _v2_to_v3}


def test_migrations_run_in_order_up_to_the_current_version():
    old = {"schema_version": 1, "title": "Old", "racks": [{"id": "r1"}]}
    new = migrate(old, SYNTHETIC, current=3)
    assert new == {"schema_version": 3, "name": "Old", "layout": {"racks": [{"id": "r1"}]}}
    # A version-2 file runs only the second step.
    assert migrate({"schema_version": 2, "name": "Mid", "racks": []}, SYNTHETIC, current=3) == {
        "schema_version": 3, "name": "Mid", "layout": {"racks": []}}


def test_a_failing_migration_is_a_clean_error_and_leaves_the_input_untouched():
    old = {"schema_version": 1, "racks": []}  # no "title": step 1 -> 2 fails with KeyError
    snapshot = json.dumps(old)
    with pytest.raises(MigrationError, match="cannot convert file format 1 to 2: KeyError"):
        migrate(old, SYNTHETIC, current=3)
    assert json.dumps(old) == snapshot


def test_a_missing_step_is_refused():
    with pytest.raises(MigrationError, match="no conversion from file format 2 to 3"):
        migrate({"schema_version": 2}, {1: _v1_to_v2}, current=3)


def test_unknown_keys_are_refused_everywhere():
    base = json.loads((DATA / "plan_v1.json").read_text())
    for where in (base, base["racks"][0], base["placements"][0], base["settings"]["facility"]):
        where["colour"] = "red"
        with pytest.raises(PlanLoadError, match="colour"):
            plan_from_json(json.dumps(base))
        del where["colour"]
    plan_from_json(json.dumps(base))  # and without them it loads


def test_version_1_rack_pdu_settings_move_to_the_power_settings():
    """Format 2 moved 'Rack PDU model' and 'A+B redundant power feeds' from the cost settings
    to the power settings; A+B (true) is 2N, one feed (false) is N."""
    data = json.loads((DATA / "plan_v1.json").read_text())
    data["settings"]["costs"].update(pdu_device="pdu-415v-3ph-32a", redundant_feeds=False)
    plan = plan_from_json(json.dumps(data), "old.json")
    assert (plan.settings.power.pdu_device, plan.settings.power.feed_redundancy) == ("pdu-415v-3ph-32a", "N")
    assert "pdu_device" not in plan.settings.costs.model_dump()
    data["settings"]["costs"]["redundant_feeds"] = True
    assert plan_from_json(json.dumps(data), "old.json").settings.power.feed_redundancy == "2N"


def test_version_2_flat_facility_power_becomes_a_rate_per_kw():
    """Format 3 prices power distribution per kW: format 2's default flat $75,000 becomes the
    default $670/kW (the guide's $75K over its 112 kW), 0 stays 0 (left out), and another
    sum scales the rate: $150,000 -> $1,340/kW."""
    data = json.loads((DATA / "plan_v2.json").read_text())
    assert data["schema_version"] == 2 and data["settings"]["costs"]["facility_power_usd"] == 75_000
    for flat, rate in ((75_000, 670.0), (0, 0.0), (150_000, 1_340.0)):
        data["settings"]["costs"]["facility_power_usd"] = flat
        plan = plan_from_json(json.dumps(data), "p.json")
        assert plan.settings.costs.facility_power_usd_per_kw == rate


def test_version_5_default_kernel_efficiency_opens_as_derived_from_the_shapes():
    """Format 6 derives the kernel efficiency from the shapes when it is empty: format 5's
    default 0.55 becomes empty (in the base and in a variant's overrides); 0.45, set by the
    user, stays as the user's override."""
    data = json.loads((DATA / "plan_v5.json").read_text())
    assert data["schema_version"] == 5 and data["settings"]["workload"]["mfu"] == 0.55
    plan = plan_from_json(json.dumps(data), "p.json")
    assert plan.settings.workload.mfu is None
    data["settings"]["workload"]["mfu"] = 0.45
    assert plan_from_json(json.dumps(data), "p.json").settings.workload.mfu == 0.45
    data["variants"][0]["settings"]["workload"] = {"mfu": 0.55}
    assert migrate(data)["variants"][0]["settings"]["workload"]["mfu"] is None


def test_format_10_sample_keeps_its_nvme_and_ramp_settings_and_format_9_opens_with_them_off():
    # plan_v10.json: one GB200 NVL72 scalable unit (576 GPUs) with NVMe checkpoints, ramped
    # stops of 120 s and a site battery; plan_v9.json was saved before those settings
    v10, v9 = load_plan(DATA / "plan_v10.json"), load_plan(DATA / "plan_v9.json")
    assert (v10.settings.reliability.nvme_checkpoint, v10.settings.facility.job_ramps,
            v10.settings.facility.job_ramp_s, v10.settings.facility.power_smoothing) == (
        True, True, 120.0, "site_battery")
    assert (v9.settings.reliability.nvme_checkpoint, v9.settings.facility.job_ramps) == (False, False)
    report = evaluate(v10, default_catalog())
    tiers = [t["name"] for t in report.sections["goodput"]["recovery"]["tiers"]]
    assert "local NVMe" in tiers and report.sections["power_dynamics"]["job_ramps"] is True


def test_format_10_default_overlap_opens_empty_and_the_format_11_sample_keeps_its_settings():
    """Format 11 hides data-parallel traffic layer by layer and lets ``workload.overlap`` be
    empty (the frameworks' default): format 10's default 0.0 becomes empty, in the base and in
    a variant's overrides; 0.5, set by the user, stays. Under DDP (the format 10 sample) empty
    hides none of the gradient reduction, as 0.0 did: the same step."""
    data = json.loads((DATA / "plan_v10.json").read_text())
    assert data["schema_version"] == 10 and data["settings"]["workload"]["overlap"] == 0.0
    plan = plan_from_json(json.dumps(data), "p.json")
    assert plan.settings.workload.overlap is None
    before = dict(data, schema_version=11)  # the same file read as format 11: 0.0 kept
    step = evaluate(plan_from_json(json.dumps(before), "p.json"), default_catalog()).sections["workload"]["step_time_s"]
    assert evaluate(plan, default_catalog()).sections["workload"]["step_time_s"] == step
    data["settings"]["workload"]["overlap"] = 0.5
    assert plan_from_json(json.dumps(data), "p.json").settings.workload.overlap == 0.5
    data["variants"] = [{"name": "v", "settings": {"workload": {"overlap": 0.0}}}]
    assert migrate(data)["variants"][0]["settings"]["workload"]["overlap"] is None
    v11 = load_plan(DATA / "plan_v11.json")
    w = v11.settings.workload
    assert (w.sharding, w.overlap, w.overlap_slowdown, w.gathered_layers) == ("fsdp_full", None, 0.25, 3)


def test_a_file_without_a_version_is_said_to_be_no_plan():
    with pytest.raises(MigrationError, match=r"^the file has no schema_version \(a plan file carries its format, "
                                             r"1 to \d+\): it is not a plan saved by GPU Cluster Planner$"):
        migrate({"name": "x"})


def test_format_11_keeps_a_new_plant_and_format_12_follows_the_operating_mode():
    """Format 12's facility plant is automatic: in place in colocation (the provider's plant,
    in its $/kW/month), new when owned. A format 11 file stored none and meant a new plant: it
    keeps "new", so its 128-week transformer still gates it (128 + 8 weeks of commissioning
    and the racks: month 32). The format 12 sample, in colocation, waits for its CDUs and
    chillers (33 weeks) only; owned, for the transformer again."""
    v11, v12 = load_plan(DATA / "plan_v11.json"), load_plan(DATA / "plan_v12.json")
    assert (v11.settings.schedule.plant, v12.settings.schedule.plant) == ("new", "auto")
    assert v12.settings.costs.opex_mode == "colocation"
    old, new = (evaluate(p, default_catalog()).sections["schedule"] for p in (v11, v12))
    assert (old["critical_part"], old["energized_month"]) == ("transformer", 32)
    assert new["critical_part"] == "cooling" and new["energized_month"] < 12
    bare = json.loads((DATA / "plan_v11.json").read_text())
    del bare["settings"]  # a format 11 file without settings meant a new plant too
    assert migrate(bare)["settings"]["schedule"]["plant"] == "new"
    v12.settings.costs.opex_mode = "owned"
    assert evaluate(v12, default_catalog()).sections["schedule"]["critical_part"] == "transformer"

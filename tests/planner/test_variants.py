"""Variants of a plan: stored as overrides of the base, reopened identical, undoable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.plan.autoplace import AutoPlace
from planner.plan.commands import CommandError, EditRack, History, RemoveDevices, SetSetting
from planner.plan.fileio import PlanLoadError, load_plan, plan_from_json, plan_to_json, save_plan
from planner.plan.variants import CreateVariant, DeleteVariant, RenameVariant, SwitchVariant, resolve_variant
from planner.plan.model import SCHEMA_VERSION
from planner.design.templates import build_template
from planner.report.evaluate import evaluate

DATA = Path(__file__).resolve().parents[1] / "data"


def _full(plan) -> dict:
    """What a variant is: its settings, racks and devices."""
    return {"settings": plan.settings.model_dump(), "racks": [r.model_dump() for r in plan.racks],
            "placements": [p.model_dump() for p in plan.placements]}


@pytest.fixture
def two_variants(medium, catalog):
    """medium as the base; 'Nameplate 45 kW' (PUE 1.3, nameplate basis, GPU-01 capped at 45 kW);
    'Half' (two GPU nodes fewer, one 30 kW rack added with a node auto-placed into it), active."""
    h = History(medium, catalog)
    h.apply(CreateVariant("Nameplate 45 kW"))
    h.apply(SetSetting("facility", "pue", 1.3))
    h.apply(SetSetting("facility", "power_basis", "nameplate"))
    gpu01 = next(r for r in medium.racks if r.name == "GPU-01")
    h.apply(EditRack(gpu01.id, power_cap_kw=45.0))
    h.apply(SwitchVariant("Base"))
    h.apply(CreateVariant("Half"))
    nodes = [p.id for p in medium.placements if p.device == "hgx-h100-8"]
    h.apply(RemoveDevices(nodes[:2]))
    h.apply(AutoPlace("hgx-h100-8", 1, new_rack_prefix="EXTRA"))
    return medium, h, nodes[:2]


def test_two_variants_save_only_their_overrides(two_variants, tmp_path):
    plan, _, removed = two_variants
    save_plan(plan, tmp_path / "p.json")
    data = json.loads((tmp_path / "p.json").read_text())
    assert data["schema_version"] == SCHEMA_VERSION == 13 and data["active_variant"] == "Half"
    # The file's top level is the base: medium as the template builds it (16 nodes, 7 racks).
    assert len(data["racks"]) == 7 and sum(p["device"] == "hgx-h100-8" for p in data["placements"]) == 16
    assert data["settings"]["facility"]["pue"] == 1.56 and data["settings"]["facility"]["power_basis"] == "typical"
    nameplate, half = data["variants"]
    assert nameplate["name"] == "Nameplate 45 kW"
    assert nameplate["settings"] == {"facility": {"pue": 1.3, "power_basis": "nameplate"}}
    assert [(r["name"], r["power_cap_kw"]) for r in nameplate["racks"]] == [("GPU-01", 45.0)]
    assert nameplate["placements"] == [] and nameplate["removed_racks"] == [] and nameplate["removed_placements"] == []
    assert half["settings"] == {}
    assert sorted(half["removed_placements"]) == sorted(removed)
    assert [r["name"] for r in half["racks"]] == ["EXTRA-01"]  # the one rack it adds
    assert [p["device"] for p in half["placements"]] == ["hgx-h100-8"]  # the one node it adds
    assert half["rack_order"] is None and half["placement_order"] is None  # order follows from the base


def test_two_variants_reopen_identical(two_variants, tmp_path, catalog):
    plan, _, _ = two_variants
    before = {name: _full(resolve_variant(plan, name)) for name in plan.variant_names}
    save_plan(plan, tmp_path / "p.json")
    text = (tmp_path / "p.json").read_text()
    again = load_plan(tmp_path / "p.json")
    assert again.variant_names == ["Base", "Nameplate 45 kW", "Half"] and again.current_variant == "Half"
    assert _full(again) == before["Half"]  # opens on the variant it was saved on
    assert {name: _full(resolve_variant(again, name)) for name in again.variant_names} == before
    assert plan_to_json(again) == text  # and saves the same bytes
    # The figures follow: Half has 15 nodes (16 - 2 + 1) = 120 GPUs in 8 racks.
    t = evaluate(again, catalog).totals
    assert (t.nodes, t.gpus, t.racks) == (15, 120, 8)
    nameplate = evaluate(resolve_variant(again, "Nameplate 45 kW"), catalog)
    assert nameplate.power_basis == "nameplate" and nameplate.totals.pue == 1.3


def test_todays_files_open_unchanged_as_a_plan_of_one_variant(tmp_path, catalog):
    raw = json.loads((DATA / "plan_v2.json").read_text())
    plan = load_plan(DATA / "plan_v2.json")
    assert plan.variant_names == ["Base"] and plan.current_variant == "Base" and plan.variants == []
    # Every rack and device as the file gives it (fields added since format 2 take their defaults).
    assert [{k: r.model_dump()[k] for k in raw_r} for r, raw_r in zip(plan.racks, raw["racks"])] == raw["racks"]
    assert [p.model_dump() for p in plan.placements] == raw["placements"]
    t = evaluate(plan, catalog).totals
    assert (t.nodes, t.gpus, t.racks) == (16, 128, 7)  # the guide's 16 x 8 H100
    save_plan(plan, tmp_path / "p.json")
    saved = json.loads((tmp_path / "p.json").read_text())
    assert saved["schema_version"] == SCHEMA_VERSION and saved["variants"] == [] and saved["active_variant"] == ""
    assert saved["placements"] == raw["placements"] and saved["name"] == raw["name"]
    assert [r["id"] for r in saved["racks"]] == [r["id"] for r in raw["racks"]]


def test_format_5_sample_opens_on_its_active_variant():
    plan = load_plan(DATA / "plan_v5.json")
    assert plan.variant_names == ["Base", "Nameplate"] and plan.current_variant == "Nameplate"
    assert plan.settings.facility.power_basis == "nameplate"
    assert resolve_variant(plan, "Base").settings.facility.power_basis == "typical"


def test_undo_covers_create_switch_rename_and_delete(two_variants, catalog):
    plan, h, _ = two_variants
    h.apply(RenameVariant("Half", "Fifteen nodes"))
    h.apply(RenameVariant("Base", "Reference"))
    h.apply(SwitchVariant("Nameplate 45 kW"))
    assert plan.settings.facility.power_basis == "nameplate"
    h.apply(DeleteVariant("Nameplate 45 kW"))  # the active one: back on the base first
    assert plan.variant_names == ["Reference", "Fifteen nodes"] and plan.current_variant == "Reference"
    assert plan.settings.facility.power_basis == "typical" and len(plan.racks) == 7
    while h.done:
        h.undo()
    assert plan.variant_names == ["Base"] and plan.current_variant == "Base"
    assert len(plan.racks) == 7 and len(plan.placements) == 37 and plan.settings.facility.pue == 1.56
    while h.undone:
        h.redo()
    assert plan.variant_names == ["Reference", "Fifteen nodes"] and plan.current_variant == "Reference"
    h.apply(SwitchVariant("Fifteen nodes"))
    assert sum(p.device == "hgx-h100-8" for p in plan.placements) == 15


def test_an_edit_of_the_base_reaches_the_variants_that_do_not_override_it(two_variants, catalog):
    plan, h, _ = two_variants
    h.apply(SwitchVariant("Base"))
    h.apply(SetSetting("costs", "utilisation", 0.8))
    gpu01 = next(r for r in plan.racks if r.name == "GPU-01")
    h.apply(EditRack(gpu01.id, power_cap_kw=35.0))
    nameplate = resolve_variant(plan, "Nameplate 45 kW")
    assert nameplate.settings.costs.utilisation == 0.8  # inherited
    assert nameplate.rack(gpu01.id).power_cap_kw == 45.0  # its own override wins


def test_new_ids_never_take_one_another_variant_uses(two_variants, catalog):
    plan, h, _ = two_variants
    half_ids = {p.id for p in plan.placements} | {r.id for r in plan.racks}
    h.apply(SwitchVariant("Base"))
    base_before = {p.id for p in plan.placements} | {r.id for r in plan.racks}
    h.apply(AutoPlace("hgx-h100-8", 2, new_rack_prefix="MORE"))
    new = ({p.id for p in plan.placements} | {r.id for r in plan.racks}) - base_before
    assert len(new) == 3 and not new & half_ids  # a rack and two nodes, none reusing Half's ids
    half = resolve_variant(plan, "Half")
    assert sum(p.device == "hgx-h100-8" for p in half.placements) == 17  # 15 of its own + the base's 2 new


@pytest.mark.parametrize("command, message", [
    (lambda: SwitchVariant("Nope"), "no variant 'Nope' (variants: Base, Nameplate 45 kW, Half)"),
    (lambda: RenameVariant("Half", "Base"), "already has a variant 'Base'"),
    (lambda: CreateVariant("   "), "1 to 100 characters"),
    (lambda: DeleteVariant("Base"), "base variant"),
])
def test_bad_variant_edits_are_refused_and_change_nothing(two_variants, command, message):
    plan, h, _ = two_variants
    before = plan_to_json(plan)
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        h.apply(command())
    assert plan_to_json(plan) == before


def test_a_file_naming_an_unknown_active_variant_is_refused_in_one_line():
    data = json.loads((DATA / "plan_v5.json").read_text())
    data["active_variant"] = "Ghost"
    with pytest.raises(PlanLoadError, match="p.json: .*active variant 'Ghost'"):
        plan_from_json(json.dumps(data), "p.json")
    data["active_variant"] = ""
    data["variants"][0]["settings"] = {"facility": {"pue": "high"}}
    with pytest.raises(PlanLoadError, match="p.json: variant 'Nameplate'"):
        plan_from_json(json.dumps(data), "p.json")


def test_a_variant_made_from_another_plan_takes_its_state_and_undo_restores(medium, catalog):
    other = build_template("massive", catalog=catalog)
    before = plan_to_json(medium)
    h = History(medium, catalog)
    h.apply(CreateVariant("Massive", source=other))
    assert medium.current_variant == "Massive" and len(medium.racks) == 18  # massive's racks
    assert _full(medium) == _full(other)
    h.undo()
    assert plan_to_json(medium) == before
    h.redo()
    assert resolve_variant(medium, "Base").name == medium.name and len(resolve_variant(medium, "Base").racks) == 7


def test_a_copy_keeps_every_variant(two_variants):
    plan, _, _ = two_variants
    copy = plan.copy_plan()
    assert plan_to_json(copy) == plan_to_json(plan)
    assert _full(resolve_variant(copy, "Base")) == _full(resolve_variant(plan, "Base"))


def test_a_variants_workbook_says_which_variant_it_holds(two_variants, catalog, tmp_path):
    # the deliverable of variant 'Half' is headed by the plan's name and the variant's, so a
    # vendor reading the workbook knows it is not the base; the base's keeps the name alone
    import openpyxl

    from planner.export.xlsx import write_workbook

    plan, h, _ = two_variants
    assert plan.current_variant == "Half" and plan.title == f"{plan.name}, variant Half"
    write_workbook(plan, catalog, tmp_path / "half.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "half.xlsx")["Summary"]
    rows = {ws.cell(r, 1).value: ws.cell(r, 2).value for r in range(1, ws.max_row + 1)}
    assert rows["Plan"] == f"{plan.name}, variant Half"
    h.apply(SwitchVariant("Base"))
    assert plan.title == plan.name
    assert resolve_variant(plan, "Half").title == f"{plan.name}, variant Half"  # as the CLI exports a variant


def test_a_variant_laid_out_elsewhere_keeps_its_layout_whatever_the_base_does(medium, catalog, tmp_path):
    # A sweep's point opened as a variant is laid out on its own, and its ids are the ids its
    # design gave: where its records match the base's (the storage rack and its appliances,
    # laid out alike), they were inherited, so a base edit reached them. Here the point is
    # medium without GPU-04. Moving two appliances in the base, one into GPU-02 (which the
    # point has) and one into GPU-04 (which it has not), took the first into the point's
    # GPU-02 and dropped the second from it, silently; adding a rack to the base added it there.
    from planner.plan.commands import AddRack, MoveDevice, RemoveRack

    other = build_template("medium", catalog=catalog)
    gpu04 = next(r for r in other.racks if r.name == "GPU-04")
    History(other, catalog).apply(RemoveRack(gpu04.id))
    pfs6, pfs7 = (next(p for p in medium.placements if p.label == label) for label in ("pfs-6", "pfs-7"))
    assert other.placement(pfs6.id) == pfs6 and other.placement(pfs7.id) == pfs7  # alike in both
    h = History(medium, catalog)
    h.apply(CreateVariant("Without GPU-04", source=other))
    assert medium.variants[-1].own_layout
    h.apply(SwitchVariant("Base"))
    gpu02 = next(r for r in medium.racks if r.name == "GPU-02")
    h.apply(MoveDevice(pfs6.id, gpu04.id, 33))
    h.apply(MoveDevice(pfs7.id, gpu02.id, 33))
    h.apply(AddRack("GPU-09"))
    h.apply(SwitchVariant("Without GPU-04"))
    assert _full(medium) == _full(other)  # every rack and device as laid out, none moved, added or dropped
    # saved and reopened, and copied from ("New variant from current"), it keeps its own layout
    path = tmp_path / "p.json"
    save_plan(medium, path)
    again = load_plan(path)
    assert _full(resolve_variant(again, "Without GPU-04")) == _full(other)
    h.apply(CreateVariant("Copy"))
    assert medium.variants[-1].own_layout


def test_a_variant_of_format_12_holds_overrides_of_the_base():
    v12 = json.loads((DATA / "plan_v12.json").read_text())
    v12["variants"] = [{"name": "Cooler", "settings": {"facility": {"pue": 1.2}}}]
    plan = plan_from_json(json.dumps(v12))
    assert plan.schema_version == SCHEMA_VERSION and not plan.variants[0].own_layout

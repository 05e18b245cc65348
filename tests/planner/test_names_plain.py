"""Names hold no control characters or text-direction overrides: refused where they are typed,
escaped in plans of format 7 and in NetBox sites, so none reaches a NetBox CSV raw.

The characters (planner.text.name_problem): C0 controls such as NUL, DEL and C1 controls,
and U+202A-U+202E, U+2066-U+2069, which show a name in another order than it is stored
("GPU-\u202e10" reads "GPU-01" on screen)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from planner.cli import main
from planner.design.templates import build_template
from planner.export.netbox import write_netbox
from planner.hardware.catalog import default_catalog
from planner.importers.netbox import import_netbox
from planner.plan.commands import AddDevice, AddRack, CommandError, EditDevice, EditRack, History, RenamePlan
from planner.plan.fileio import PlanLoadError, load_plan, plan_to_json
from planner.plan.model import Rack
from planner.plan.variants import CreateVariant, RenameVariant

CAT = default_catalog()
SAMPLES = Path(__file__).resolve().parents[1] / "data" / "netbox_samples"
RLO, NUL = "\u202e", "\x00"
UNSAFE = [chr(c) for c in range(0x20)] + ["\x7f", "\x85", "\x9b"] + [chr(c) for c in range(0x202A, 0x202F)] + \
    [chr(c) for c in range(0x2066, 0x206A)]


@pytest.fixture
def medium():
    plan = build_template("medium", catalog=CAT)
    return plan, History(plan, CAT)


@pytest.mark.parametrize("ch", UNSAFE, ids=[f"U+{ord(c):04X}" for c in UNSAFE])
def test_every_such_character_is_refused_in_a_rack_name(ch):
    with pytest.raises(ValidationError, match=f"U\\+{ord(ch):04X}"):
        Rack(id="r1", name=f"GPU{ch}01")


def test_a_right_to_left_mark_and_other_scripts_stay_names():
    """The marks that only set a direction (U+200E, U+200F) and any script are names."""
    for name in ("GPU-01\u200f", "שרת-01", "サーバー 1", "Rack – A"):
        assert Rack(id="r1", name=name).name == name


@pytest.mark.parametrize("command, field", [
    (lambda p: EditRack(p.racks[0].id, name=f"GPU-{RLO}10"), "name"),
    (lambda p: EditRack(p.racks[0].id, row=f"A{NUL}"), "row"),
    (lambda p: AddRack(name=f"NEW{RLO}"), "name"),
    (lambda p: EditDevice(p.placements[0].id, f"node-{RLO}1"), "label"),
    (lambda p: AddDevice("qm9700", p.racks[-1].id, 40, label=f"ib{NUL}9"), "label"),
    (lambda p: RenamePlan(f"Lab{NUL}"), "plan name"),
    (lambda p: CreateVariant(f"Half{RLO}"), "variant name"),
    (lambda p: RenameVariant(p.current_variant, f"Base{RLO}"), "variant name"),
], ids=["rack name", "rack row", "new rack", "device label", "new device", "plan", "new variant", "variant"])
def test_every_rename_is_refused_naming_the_field_and_the_character(medium, command, field):
    plan, history = medium
    before = plan_to_json(plan)
    with pytest.raises(CommandError) as refused:
        history.apply(command(plan))
    message = str(refused.value)
    assert message.startswith(f"{field}: it holds U+")
    assert "(right-to-left override)" in message or "(a control character)" in message
    assert "may not hold control characters or text-direction overrides" in message
    assert plan_to_json(plan) == before  # nothing changed


def _as_format_7(plan, tmp_path) -> Path:
    """The plan as a file of format 7 (which let such names through), with a rack and a device
    named with a right-to-left override and a NUL."""
    data = json.loads(plan_to_json(plan))
    data["schema_version"] = 7
    data["racks"][0]["name"] = f"GPU-{RLO}10"
    data["placements"][0]["label"] = f"node{NUL}1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_format_7_plan_opens_with_the_characters_escaped(medium, tmp_path):
    path = _as_format_7(medium[0], tmp_path)
    plan = load_plan(path)
    assert plan.racks[0].name == "GPU-\\u202e10" and plan.placements[0].label == "node\\x001"


def test_a_format_7_variant_keeps_being_the_one_shown(medium, tmp_path):
    plan, history = medium
    history.apply(CreateVariant("Half"))  # and shown
    data = json.loads(plan_to_json(plan))
    assert data["active_variant"] == "Half"
    data["schema_version"] = 7
    data["active_variant"] = data["variants"][0]["name"] = f"Half{RLO}"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_plan(path)
    assert loaded.current_variant == "Half\\u202e" and loaded.variant_names == [plan.base_variant, "Half\\u202e"]


def test_a_format_8_file_holding_one_is_refused_in_one_line(medium, tmp_path, capsys):
    data = json.loads(plan_to_json(medium[0]))
    data["racks"][0]["name"] = f"GPU-{RLO}10"
    path = tmp_path / "new.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlanLoadError, match=r"racks\[0\].*name: it holds U\+202E \(right-to-left override\)"):
        load_plan(path)
    capsys.readouterr()
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and RLO not in err and "Traceback" not in err


def _cells(folder: Path, stem: str) -> list[str]:
    out = []
    for path in sorted(folder.glob(f"*-{stem}*.csv")):
        with open(path, newline="", encoding="utf-8") as f:
            out += [c for row in csv.reader(f) for c in row]
    return out


def test_the_netbox_csvs_of_an_old_plan_hold_the_escapes_not_the_characters(medium, tmp_path):
    plan = load_plan(_as_format_7(medium[0], tmp_path))
    write_netbox(plan, CAT, tmp_path / "nb")
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "nb").glob("*.csv"))
    assert not [ch for ch in UNSAFE if ch not in "\n" and ch in text]  # newlines: only the site's settings block
    assert "GPU-\\u202e10" in _cells(tmp_path / "nb", "racks")
    assert "node\\x001" in _cells(tmp_path / "nb", "devices")


def test_a_netbox_site_holding_one_is_imported_with_it_escaped(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SAMPLES / "16-node-llm-cluster-128-x-h100-ndr400", site)
    for f in site.iterdir():
        f.chmod(0o644)
    for name in ("racks.csv", "devices.csv"):  # the rack, and the devices naming it
        (site / name).write_text((site / name).read_text(encoding="utf-8").replace("GPU-01", f"GPU-{RLO}01"),
                                 encoding="utf-8")
    imported = import_netbox(site, CAT)
    assert "GPU-\\u202e01" in {r.name for r in imported.plan.racks}
    assert not any(RLO in r.name for r in imported.plan.racks)

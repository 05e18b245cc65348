"""The plan's properties (customer, site, contact, revision, dates): kept in the plan file,
edited as one undoable command, bad dates refused in one line, older files read."""

import json
from pathlib import Path

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import CommandError, History, SetPlanInfo
from planner.plan.fileio import load_plan, plan_from_json, save_plan
from planner.plan.model import Plan

DATA = Path(__file__).resolve().parents[1] / "data"
CAT = default_catalog()
FILLED = {"customer": "Acme AI Labs", "site": "DC-3 Hall B, Ashburn", "contact": "J. Doe, +1 555 0100",
          "revision": "C", "date": "2026-11-30", "go_live": "2027-03-01"}


def test_properties_are_saved_with_the_plan_and_read_back(tmp_path):
    plan = Plan(name="P")
    SetPlanInfo(**FILLED).do(plan, CAT)
    save_plan(plan, tmp_path / "p.json")
    saved = json.loads((tmp_path / "p.json").read_text())
    assert saved["info"] == FILLED
    assert load_plan(tmp_path / "p.json").info.model_dump() == FILLED
    # the cover lists the filled-in ones in order, with their titles
    assert plan.info.rows()[0] == ("Customer", "Acme AI Labs") and plan.info.rows()[-1] == ("Requested go-live",
                                                                                             "2027-03-01")


def test_edit_is_one_undo_step_and_keeps_the_other_fields():
    plan = Plan(name="P")
    history = History(plan, CAT)
    history.apply(SetPlanInfo(**FILLED))
    history.apply(SetPlanInfo(revision="D"))
    assert plan.info.revision == "D" and plan.info.customer == "Acme AI Labs"
    history.undo()
    assert plan.info.model_dump() == FILLED
    history.undo()
    assert plan.info.model_dump() == dict.fromkeys(FILLED, "")


@pytest.mark.parametrize("field, bad", [("date", "30/11/2026"), ("go_live", "2027-02-30"), ("revision", "x" * 41)])
def test_bad_entries_are_refused_in_one_line_and_change_nothing(field, bad):
    plan = Plan(name="P")
    SetPlanInfo(**FILLED).do(plan, CAT)
    with pytest.raises(CommandError) as info:
        SetPlanInfo(**{field: bad}).do(plan, CAT)
    assert len(str(info.value).splitlines()) == 1 and "Traceback" not in str(info.value)
    assert plan.info.model_dump() == FILLED


def test_a_format_3_file_opens_with_empty_properties():
    data = json.loads((DATA / "plan_v3.json").read_text())
    assert data["schema_version"] == 3 and "info" not in data
    plan = plan_from_json(json.dumps(data), "p.json")
    assert plan.info.rows() == []
    assert json.loads((DATA / "plan_v4.json").read_text())["schema_version"] == 4

"""Wrong types are refused, as the README says: nothing is coerced but a whole number
where a decimal is expected, and a key given twice is an error, not "the last one wins"."""

from __future__ import annotations

import json

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import CatalogError, read_catalog_file
from planner.plan.fileio import PlanLoadError, plan_from_json, plan_to_json


def single_node() -> dict:
    return json.loads(plan_to_json(build_template("single-node")))


@pytest.mark.parametrize("value", [True, "5", 5.0, 5.5, None], ids=["bool", "string", "float", "fraction", "null"])
def test_a_rack_unit_must_be_a_whole_number(value):
    data = single_node()
    data["placements"][0]["u"] = value
    with pytest.raises(PlanLoadError, match=r"placements\[0\] \(id '[a-z0-9]+'\)\.u: Input should be a valid integer"):
        plan_from_json(json.dumps(data))


@pytest.mark.parametrize("where, value", [
    (("settings", "facility", "pue"), "1.3"),
    (("settings", "fabric", "sharp"), "yes"),
    (("settings", "fabric", "sharp"), 1),
    (("racks", 0, "power_cap_kw"), True),
    (("racks", 0, "name"), 42),
])
def test_other_wrong_types_are_refused(where, value):
    data = single_node()
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(PlanLoadError, match="Input should be a valid"):
        plan_from_json(json.dumps(data))


def test_a_whole_number_where_a_decimal_is_expected_is_fine():
    data = single_node()
    data["racks"][0]["power_cap_kw"] = 30
    data["settings"]["facility"]["pue"] = 2
    plan = plan_from_json(json.dumps(data))
    assert plan.racks[0].power_cap_kw == 30.0 and plan.settings.facility.pue == 2.0


def test_a_key_given_twice_is_refused():
    text = plan_to_json(build_template("single-node"))
    doubled = text.replace('"name":', '"name": "first", "name":', 1)
    with pytest.raises(PlanLoadError, match="the key 'name' appears twice in one object"):
        plan_from_json(doubled)


def test_catalog_types_are_strict_and_keys_unique(tmp_path):
    from pathlib import Path

    builtin = Path(__file__).resolve().parents[2] / "resources" / "catalog" / "builtin.json"
    node = next(d for d in json.loads(builtin.read_text())["devices"] if d["id"] == "hgx-h100-8")
    bad = dict(node, u_height="8")
    (tmp_path / "c.json").write_text(json.dumps({"schema_version": 1, "devices": [bad]}))
    with pytest.raises(CatalogError, match="u_height: Input should be a valid integer"):
        read_catalog_file(tmp_path / "c.json")
    (tmp_path / "d.json").write_text('{"schema_version": 1, "devices": [], "devices": []}')
    with pytest.raises(CatalogError, match="the key 'devices' appears twice"):
        read_catalog_file(tmp_path / "d.json")

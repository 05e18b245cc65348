"""``check --json`` and ``fabrics --json`` keys are a contract: fields may be added, never renamed,
dropped or changed in value. The fixtures were written by ``tests/data/make_check_fixtures.py``;
a change to a template's figures that is intended regenerates them in the same commit."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
_spec = importlib.util.spec_from_file_location("make_check_fixtures", DATA / "make_check_fixtures.py")
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)

TEMPLATES = sorted(p.name.split(".")[0] for p in (DATA / "check_json").glob("*.check.json"))


def differences(old, new, where="$") -> list[str]:
    """Where ``new`` departs from ``old`` other than by added keys."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: was an object, now {type(new).__name__}"]
        out = []
        for key, value in old.items():
            if key not in new:
                out.append(f"{where}.{key}: dropped")
            else:
                out += differences(value, new[key], f"{where}.{key}")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            return [f"{where}: list of {len(old)} became {new if not isinstance(new, list) else len(new)}"]
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in differences(a, b, f"{where}[{i}]")]
    if isinstance(old, float) and isinstance(new, (int, float)) and not isinstance(new, bool):
        return [] if math.isclose(old, new, rel_tol=1e-9, abs_tol=1e-12) else [f"{where}: {old} -> {new}"]
    if old != new or type(old) is not type(new):
        return [f"{where}: {old!r} -> {new!r}"]
    return []


def test_the_comparison_catches_drops_renames_and_changed_values():
    old = {"totals": {"gpus": 8, "kw": 10.2}, "racks": [{"id": "r1"}]}
    assert differences(old, {"totals": {"gpus": 8, "kw": 10.2, "new": 1}, "racks": [{"id": "r1", "x": 2}]}) == []
    assert differences(old, {"totals": {"gpu_count": 8, "kw": 10.2}, "racks": [{"id": "r1"}]}) == ["$.totals.gpus: dropped"]
    assert differences(old, {"totals": {"gpus": 8, "kw": 10.3}, "racks": [{"id": "r1"}]}) == ["$.totals.kw: 10.2 -> 10.3"]
    assert differences(old, {"totals": {"gpus": "8", "kw": 10.2}, "racks": []})


def test_every_template_has_fixtures():
    from planner.design.templates import template_names

    assert TEMPLATES == sorted(template_names())


@pytest.mark.parametrize("name", TEMPLATES)
def test_check_and_fabrics_json_keep_every_key_and_value(name):
    for kind, now in fixtures.outputs(name).items():
        before = json.loads((DATA / "check_json" / f"{name}.{kind}.json").read_text())
        problems = differences(before, now)
        assert not problems, f"{name} {kind} --json changed:\n" + "\n".join(problems[:20])

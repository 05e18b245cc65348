"""Size limits: a plan over them is refused with one line before any work.

A 100,000-rack plan file (3.6 MB) used to take minutes and gigabytes to export; now
``check`` and ``export`` refuse it as soon as it is parsed, in a child whose peak memory
is measured.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from planner.plan.fileio import PlanLoadError, PlanSaveError, plan_from_json, save_plan
from planner.plan.model import MAX_DEVICES, MAX_RACKS, SCHEMA_VERSION, Plan, Rack, size_problem

ROOT = Path(__file__).resolve().parents[2]


def plan_text(racks: int, devices: int = 0) -> str:
    return json.dumps({
        "schema_version": SCHEMA_VERSION, "name": "huge",
        "racks": [{"id": f"r{i}", "name": f"R{i}"} for i in range(racks)],
        "placements": [{"id": f"d{i}", "device": "blank-1u", "rack": "r0", "u": 1} for i in range(devices)],
    })


@pytest.mark.parametrize("args", [["check", "huge.json"], ["export", "huge.json", "-o", "huge.svg"],
                                  ["export", "huge.json", "-o", "huge.xlsx"], ["export", "huge.json", "-o", "huge.pdf"]],
                         ids=["check", "svg", "xlsx", "pdf"])
def test_a_hundred_thousand_rack_plan_is_refused_with_one_line_in_little_memory(tmp_path, args):
    (tmp_path / "huge.json").write_text(plan_text(100_000))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([sys.executable, "-m", "cluster_planner", *args], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "cluster-planner: huge.json: 100,000 racks are more than a plan may have (25,000)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.json"]
    # Refused after parsing 3.6 MB of JSON, before validating or drawing anything: far under
    # the 18.9 GB an SVG of it took (the largest child so far, when this one was not it).
    assert peak_kb < 1_000_000 or before >= peak_kb, peak_kb


def test_the_refusal_names_the_limits_the_model_enforces():
    # One limit each, from the code's own constants: the loader's size check refuses one
    # over them and says the limit, and the model's field limits are the same numbers, so a
    # plan the size check lets through is not refused later at another count.
    assert size_problem(MAX_RACKS, MAX_DEVICES) is None
    assert size_problem(MAX_RACKS + 1, 0) == f"{MAX_RACKS + 1:,} racks are more than a plan may have ({MAX_RACKS:,})"
    assert size_problem(0, MAX_DEVICES + 1) == (
        f"{MAX_DEVICES + 1:,} devices are more than a plan may have ({MAX_DEVICES:,})")
    for field, limit in (("racks", MAX_RACKS), ("placements", MAX_DEVICES)):
        assert [m.max_length for m in Plan.model_fields[field].metadata if hasattr(m, "max_length")] == [limit]


def test_one_over_the_limit_is_refused_and_the_limit_itself_loads():
    with pytest.raises(PlanLoadError, match=r"^plan: 25,001 racks are more than a plan may have \(25,000\)$"):
        plan_from_json(plan_text(MAX_RACKS + 1))
    with pytest.raises(PlanLoadError, match=r"200,001 devices are more than a plan may have \(200,000\)$"):
        plan_from_json(plan_text(1, MAX_DEVICES + 1))
    assert len(plan_from_json(plan_text(MAX_RACKS)).racks) == MAX_RACKS


def test_a_plan_over_the_limit_is_not_saved(tmp_path):
    plan = Plan(name="grown")
    plan.racks.extend(Rack(id=f"r{i}", name=f"R{i}") for i in range(MAX_RACKS + 1))  # grown by edits
    with pytest.raises(PlanSaveError, match=r"^cannot save p\.json: 25,001 racks are more than a plan may have"):
        save_plan(plan, tmp_path / "p.json")
    assert list(tmp_path.iterdir()) == []

"""Fuzzing the loader: random JSON and random mutations of a valid plan.

Whatever the bytes, loading either gives a plan that can be evaluated or raises
PlanLoadError (one line); never another exception. (How fast a file loads is measured in
benchmarks/, not asserted here.)
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.plan.fileio import PlanLoadError, plan_from_json, unknown_device_problem

SAMPLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "plan_v1.json").read_text())
# Keep the mutation base small so each example is quick: two racks and their devices.
SMALL = copy.deepcopy(SAMPLE)
SMALL["racks"] = SAMPLE["racks"][:2]
SMALL["placements"] = [p for p in SAMPLE["placements"] if p["rack"] in {r["id"] for r in SMALL["racks"]}]

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=30) | st.sampled_from(["", "r1", "d2", "hgx-h100-8", "air", "liquid", "typical", "nameplate"]))
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=10), c, max_size=5),
                           max_leaves=25)
extreme = st.sampled_from([0, -1, 1, 60, 61, 1000, 10**30, -(10**30), 1e308, -0.0, 0.5, "", "x" * 5000, [], {}, None, True])


def load_or_refuse(text: str | bytes) -> None:
    """The contract: a usable plan (it evaluates) or PlanLoadError."""
    try:
        plan = plan_from_json(text)
    except PlanLoadError as exc:
        assert "\n" not in str(exc)
    else:
        catalog = default_catalog()
        if unknown_device_problem(plan, catalog) is None:
            evaluate(plan, catalog)  # a plan that loads must evaluate without raising


@FUZZ
@given(json_values)
def test_random_json(value):
    load_or_refuse(json.dumps(value))


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes(data):
    load_or_refuse(data)


@FUZZ
@given(st.dictionaries(st.sampled_from(list(SAMPLE) + ["extra"]), json_values, max_size=6))
def test_random_top_level_objects(obj):
    obj.setdefault("schema_version", 1)
    load_or_refuse(json.dumps(obj))


def _containers(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _containers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _containers(v, path + (i,))


@FUZZ
@given(st.data())
def test_mutations_of_a_valid_plan(data):
    plan = copy.deepcopy(SMALL)
    for _ in range(data.draw(st.integers(1, 4))):
        spots = [(p, n) for p, n in _containers(plan) if p]
        path, _node = data.draw(st.sampled_from(spots))
        parent = plan
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = data.draw(st.sampled_from(["replace", "extreme", "delete", "add_key", "duplicate"]))
        if action == "replace":
            parent[key] = data.draw(json_values)
        elif action == "extreme":
            parent[key] = data.draw(extreme)
        elif action == "delete":
            del parent[key]
        elif action == "add_key" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8))] = data.draw(scalars)
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    load_or_refuse(json.dumps(plan))


@FUZZ
@given(st.data())
def test_byte_level_damage_of_a_valid_file(data):
    raw = bytearray(json.dumps(SMALL, indent=1).encode())
    for _ in range(data.draw(st.integers(1, 5))):
        i = data.draw(st.integers(0, len(raw) - 1))
        if data.draw(st.booleans()):
            raw[i] = data.draw(st.integers(0, 255))
        else:
            del raw[i: i + data.draw(st.integers(1, 50))]
    load_or_refuse(bytes(raw))

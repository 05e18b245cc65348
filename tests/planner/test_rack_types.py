"""Identical racks grouped into rack types for documents about large plans."""

from __future__ import annotations

from planner.plan.model import Placement, Plan, Rack
from planner.plan.rack_types import rack_types, type_letter


def test_identical_racks_form_one_type_named_by_runs_of_neighbours():
    racks = [Rack(id=f"g{i}", name=f"GPU-{i:02d}", cooling="liquid") for i in range(1, 6)]
    racks.insert(3, Rack(id="n1", name="NET-01"))  # breaks the GPU racks into two runs
    placements = [Placement(id=f"p{i}", device="hgx-h100-8", rack=f"g{i}", u=1, label=f"node-{i}")
                  for i in range(1, 6)]
    placements[4] = Placement(id="p5", device="hgx-h100-8", rack="g5", u=9, label="node-5")  # another position
    types = rack_types(Plan(name="t", racks=racks, placements=placements))
    assert [(t.letter, [r.name for r in t.racks]) for t in types] == [
        ("A", ["GPU-01", "GPU-02", "GPU-03", "GPU-04"]), ("B", ["NET-01"]), ("C", ["GPU-05"])]
    assert types[0].title == "Type A × 4"
    assert types[0].runs() == [("GPU-01", "GPU-03", 3), ("GPU-04", "GPU-04", 1)]
    assert types[0].describe_racks() == "GPU-01 … GPU-03, GPU-04"
    assert types[0].describe_racks(max_runs=1) == "GPU-01 … GPU-03 and 1 more"


def test_type_letters_go_on_past_z():
    assert [type_letter(n) for n in (0, 25, 26, 27, 701, 702)] == ["A", "Z", "AA", "AB", "ZZ", "AAA"]

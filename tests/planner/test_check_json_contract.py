"""``check --json`` and ``fabrics --json`` keys are a contract: fields may be added, never
renamed or dropped, and a field keeps its JSON type. tests/data/check_baseline/ holds each
built-in template's key paths and types (format and rules: tests/planner/json_shape.py);
``tests/data/make_check_baseline.py`` adds new paths to it and refuses to drop any. The
figures themselves are asserted where they are worked out (test_template_figures and the
section tests), not here."""

from __future__ import annotations

import pytest

from tests.planner.json_shape import (
    BASELINE, COMMANDS, baseline_file, format_shape, outputs, parse_shape, problems, read_baseline, shape,
)


def test_the_comparison_catches_drops_renames_and_changed_types_and_allows_added_keys():
    before = shape({"totals": {"gpus": 8, "kw": 10.2}, "racks": [{"id": "r1", "feeds": [{"kw": 1}]}],
                    "break_even": None})
    assert before == {"totals": {"object"}, "totals.gpus": {"number"}, "totals.kw": {"number"},
                      "racks": {"array"}, "racks[]": {"object"}, "racks[].id": {"string"},
                      "racks[].feeds": {"array"}, "racks[].feeds[]": {"object"}, "racks[].feeds[].kw": {"number"},
                      "break_even": {"null"}}
    # added keys, more or fewer list items, other values: no problem
    assert problems(before, shape({"totals": {"gpus": 16, "kw": 20.4, "new": 1}, "break_even": 3.5,
                                   "racks": [{"id": "a", "x": 2, "feeds": [{"kw": 2}]}, {"id": "b", "feeds": []}]})) == []
    # a key renamed, a key of list items dropped, a type changed
    assert problems(before, shape({"totals": {"gpu_count": 8, "kw": "10.2"}, "break_even": None,
                                   "racks": [{"id": "r1", "feeds": [{"load_kw": 1}]}]})) == [
        "racks[].feeds[].kw: dropped", "totals.gpus: dropped", "totals.kw: was number, now string"]
    # a list's item paths are not required when the list is empty, nor a null's children when null is allowed
    assert problems(before, shape({"totals": {"gpus": 8, "kw": 1}, "racks": [], "break_even": None})) == []
    optional = {"inference": {"object", "null"}, "inference.fits": {"boolean"}}
    assert problems(optional, {"inference": {"null"}}) == []
    # a field that was never null becoming null is a changed type (said once, at the field)
    assert problems({"inference": {"object"}, "inference.fits": {"boolean"}}, {"inference": {"null"}}) == [
        "inference: was object, now null"]


def test_maps_keyed_by_data_are_described_by_their_values():
    # the cables are counted by part name: another length is another key, not another path
    out = shape({"cables": {"by_part": {"400G passive copper DAC, 1.5 m": 3, "1G Cat6A patch cord, 2 m": 9}}})
    assert out == {"cables": {"object"}, "cables.by_part": {"object"}, "cables.by_part{}": {"number"}}
    assert problems(out, shape({"cables": {"by_part": {}}})) == []
    assert problems(out, shape({"cables": {"by_part": {"x": "3"}}})) == ["cables.by_part{}: was number, now string"]


def test_the_baseline_file_format_reads_back_what_it_wrote():
    s = {"racks[].power_kw": {"number"}, "findings[].where": {"null", "string"}}
    assert format_shape(s) == "findings[].where: null|string\nracks[].power_kw: number\n"
    assert parse_shape(format_shape(s)) == s


def test_every_template_has_a_baseline_and_it_stays_small():
    from planner.design.templates import template_names

    assert sorted(p.name for p in BASELINE.glob("*.txt")) == sorted(
        baseline_file(t, c).name for t in template_names() for c in COMMANDS)
    assert sum(p.stat().st_size for p in BASELINE.glob("*.txt")) < 200_000


@pytest.mark.parametrize("template", sorted(p.name.split(".")[0] for p in BASELINE.glob("*.check.txt")))
def test_check_and_fabrics_json_keep_every_key_and_type(template):
    for command, document in outputs(template).items():
        broken = problems(read_baseline(template, command), shape(document, command))
        assert not broken, f"{template}: {command} --json broke its contract:\n" + "\n".join(broken[:20])

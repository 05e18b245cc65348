"""Findings of one cause and one remedy are one finding that names how many racks it concerns:
a typical-basis design of 100,000 H100 has one nameplate warning per rack, and `check` lists
them as one, with the racks under `finding_groups` in `check --json`."""

from __future__ import annotations

import contextlib
import io
import math

import pytest

from planner.cli import main
from planner.design.templates import build_template, template_names
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.report.finding_groups import group_findings
from planner.findings import Finding, Remedy
from planner.cli.cmd_check import render_text

CATALOG = default_catalog()
FEW_DOZEN = 36  # finding lines a person still reads: a few dozen


def _cli(*argv: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(list(argv))
    assert code in (0, 1)
    return buf.getvalue()


def _finding_lines(text: str) -> list[str]:
    """The lines of `check` after its findings count: the findings, their places and fixes."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("Findings: "))
    return lines[start + 1:]


@pytest.fixture(scope="module")
def h100_100k(tmp_path_factory):
    path = tmp_path_factory.mktemp("h100") / "h100-100k.json"
    _cli("new", "--gpus", "100000", "--system", "dgx-h100", "-o", str(path))
    return path


def test_100k_h100_on_the_typical_basis_is_one_nameplate_finding_naming_its_racks(h100_100k):
    import json

    from planner.plan.fileio import open_plan

    plan = open_plan(str(h100_100k), CATALOG)
    assert plan.settings.facility.power_basis == "typical"
    # By hand, the GPU racks: 12,500 nodes for the job and 135 hot spares (108.8 expected in
    # repair at once, fewer than 135 at 99 % of failures), 3 DGX H100 a rack under a 25 kW cap:
    # 4,212 racks (ceil(12,635 / 3): 4,211 of 3, and the last of 2 within the cap), each full
    # one 3 x 10.2 kW = 30.6 kW at nameplate (DGX H100 datasheet: 10.2 kW max) over the cap,
    # while typical draw fits.
    dgx = CATALOG["dgx-h100"]
    assert dgx.power_max_w == 10_200
    gpu_racks = [r for r in plan.racks if any(CATALOG[p.device].gpu for p in plan.rack_members(r.id).values())]
    assert len(gpu_racks) == math.ceil(12_635 / 3) == 4_212
    assert all(r.power_cap_kw == 25 for r in gpu_racks) and 3 * 10.2 > 25 >= 3 * dgx.power_typical_w / 1000
    # and every other rack whose devices' nameplates add up over its cap while typical draw fits
    over = {r.id for r in plan.racks
            if sum(CATALOG[p.device].power_typical_w for p in plan.rack_members(r.id).values()) / 1000
            <= r.power_cap_kw < sum(CATALOG[p.device].power_max_w for p in plan.rack_members(r.id).values()) / 1000}
    full = [r for r in gpu_racks if len(plan.rack_members(r.id)) == 3]
    assert len(full) == 4_211 and {r.id for r in full} <= over

    text = _cli("check", str(h100_100k))
    lines = _finding_lines(text)
    assert len(lines) <= FEW_DOZEN, lines
    named = [line for line in lines if "rack.power.nameplate_over_cap" in line]
    assert len(named) == 1 and f"{len(over):,} racks fit their power cap at typical draw" in named[0]
    assert "Where: GPU-01, GPU-02" in text  # the first racks by name, then how many more
    # the count above the lines says how many lines they take: alike findings share one
    heads = [line for line in lines if line.startswith(("  ERROR", "  WARN", "  info"))]
    count_line = next(line for line in reversed(text.splitlines()) if line.startswith("Findings: "))
    assert count_line.endswith(f", in {len(heads):,} lines: alike findings share one"), count_line

    out = json.loads(_cli("check", str(h100_100k), "--json"))
    (group,) = [g for g in out["finding_groups"] if g["code"] == "rack.power.nameplate_over_cap"]
    assert group["count"] == len(over) and set(group["where"]) == over
    # the per-rack findings stay under their key, one per rack
    assert sum(f["code"] == "rack.power.nameplate_over_cap" for f in out["findings"]) == len(over)


@pytest.mark.parametrize("template", [pytest.param(t, marks=pytest.mark.slow) if t.startswith("campus") else t
                                      for t in template_names()])
def test_every_template_checks_in_a_few_dozen_lines(template):
    report = evaluate(build_template(template, catalog=CATALOG), CATALOG)
    assert len(_finding_lines(render_text(report, CATALOG))) <= FEW_DOZEN


def test_findings_group_by_cause_and_kind_of_remedy_and_keep_their_order():
    def nameplate(rack: str) -> Finding:
        return Finding("warning", "rack.power.nameplate_over_cap", f"Rack {rack} over at nameplate", rack)

    split = Remedy("split_rack", "Move 1 node out of GPU-09")
    findings = [Finding("error", "rack.power.over_cap", "Rack GPU-09 draws 35 kW", "r9", split),
                Finding("error", "rack.power.over_cap", "Rack GPU-08 draws 36 kW", "r8"),
                nameplate("r1"), Finding("warning", "other.code", "same text", None), nameplate("r2"),
                Finding("warning", "other.code", "same text", None), nameplate("r3")]
    groups = group_findings(findings)
    # a different kind of remedy is a different fix: two groups of one over-cap error each
    assert [(g.code, g.count) for g in groups] == [("rack.power.over_cap", 1), ("rack.power.over_cap", 1),
                                                    ("rack.power.nameplate_over_cap", 3), ("other.code", 2)]
    assert groups[0].message == "Rack GPU-09 draws 35 kW" and groups[0].remedy == split  # a group of one: itself
    assert groups[2].places == ("r1", "r2", "r3") and groups[2].message.startswith("3 racks fit")
    assert groups[3].message == "same text (2 times)"

"""`check` as text on a plan of many racks: runs of alike racks one a line, every rack in
exactly one run, each line's figures the JSON's for the racks it names."""

from __future__ import annotations

import re

from planner.cli.cmd_check import RACK_LINES, rack_lines
from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()


def test_every_rack_is_in_one_run_with_its_own_figures():
    # 400 DGX H100 at 10.2 kW nameplate on the 30 kW default cap: 2 a rack, so 200 GPU racks
    # before the switch, storage and CDU racks: past the 100 racks listed one a line.
    plan = design(Intent(system="dgx-h100", nodes=400, spare_nodes=0, power_basis="nameplate"), CAT).plan
    report = evaluate(plan, CAT)
    racks = report.racks
    assert len(racks) > RACK_LINES
    lines = rack_lines(report)[1:]  # under the header
    assert len(lines) < len(racks)  # alike racks share a line
    seen = []
    by_name = {r.name: r for r in racks}
    for line in lines:
        run = re.match(r"\s*(\S+)(?: … (\S+) \(([\d,]+) racks\))?\s", line)
        first, last, count = run.group(1), run.group(2), run.group(3)
        names = [r.name for r in racks]
        i = names.index(first)
        j = names.index(last) if last else i
        assert (int(count.replace(",", "")) if count else 1) == j - i + 1
        for r in racks[i:j + 1]:  # every rack of the run has the figures the line shows
            assert f" {r.used_u}/{r.height_u} " in line and f" {r.gpus:,} " in line
            assert r.power_kw == by_name[first].power_kw and r.cooling == by_name[first].cooling
        seen += names[i:j + 1]
    assert seen == [r.name for r in racks]  # each rack once, in the plan's order

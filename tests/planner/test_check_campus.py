"""`check` text on a campus: one aligned line per building and per hall, nothing for one hall;
and the campus findings each say why they have no automatic fix.

The two-building sample (tests/data/plan_v7.json): 4 GPU racks of 4 x HGX H100 (7.0 kW
typical, 10.2 kW nameplate each: 28.0 / 40.8 kW a rack, 32.64 kW of it to liquid at 80%
capture), NET-01 (15.048 / 20.35 kW), STOR-01 (12.6 / 16.8 kW) and CDU-01 (3.0 / 6.0 kW).
Hall A1 holds GPU-01 (it names no hall: the first hall), GPU-02 and CDU-01; Hall A2 GPU-03
and NET-01; Hall B1 GPU-04 and STOR-01.
"""

from __future__ import annotations

import json
from pathlib import Path

from planner.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def _check(capsys, path) -> tuple[int, str]:
    code = main(["check", str(path)])
    return code, capsys.readouterr().out


def _line(out: str, first: str) -> str:
    return " ".join(next(x for x in out.splitlines() if x.strip().startswith(first + " ")).split())


def test_check_lists_each_building_and_hall_on_one_aligned_line(capsys):
    _, out = _check(capsys, DATA / "plan_v7.json")
    assert "Campus: 2 buildings, 3 halls" in out
    # Hall A1: 2 GPU racks + CDU-01 = 3 racks, 64 GPUs; 2 x 28.0 + 3.0 = 59.0 kW typical,
    # 2 x 40.8 + 6.0 = 87.6 kW nameplate; water 2 x 32.64 = 65.28 kW / (4.18 x 0.995 x 10 K)
    # x 60 = 94.2 l/min
    assert _line(out, "Hall A1") == "Hall A1 3 64 59.0 kW 87.6 kW 94.2 l/min"
    # Hall A2 has a 100 kW limit on the plan's (typical) basis: 28.0 + 15.048 = 43.0 kW
    assert _line(out, "Hall A2") == "Hall A2 2 32 43.0 kW 61.1 kW 47.1 l/min limit 100.0 kW (typical)"
    # Building A = A1 + A2: 5 racks, 96 GPUs, 102.0 / 148.75 kW; design 148.75 x PUE 1.56 =
    # 232.05 kW of its 400 kW feed. UPS N+1 on 148.75 kW: 1 module of 150 kW (the load rounded
    # up to 50 kW) + 1; generators N+1 on 232.05 kW: 1 set of 250 kW + 1; transformers of 250
    # kVA on 232.05 / 0.9 = 257.8 kVA: 2 + 1.
    assert _line(out, "Building A") == (
        "Building A 5 96 102.0 kW 148.8 kW 141.3 l/min design 232.1 kW of 400.0 kW feed; UPS 2 x 150.0 kW, "
        "generators 2 x 250.0 kW, 3 x 250 kVA transformers")
    # Building B gives no feed and no transformer rating: 57.6 x 1.56 = 89.9 kW, units of 100 kW
    assert _line(out, "Building B") == ("Building B 2 32 40.6 kW 57.6 kW 47.1 l/min design 89.9 kW; "
                                        "UPS 2 x 100.0 kW, generators 2 x 100.0 kW")
    # aligned: every figure column ends at the same place on each line
    table = [x for x in out.splitlines() if x.strip().startswith(("Building ", "Hall ", "building / hall"))]
    assert len(table) == 6
    assert len({x.index(" l/min") for x in table if " l/min" in x}) == 1
    # the campus lines come before the rack table
    assert out.index("Campus:") < out.index("U used")


def test_columns_stay_apart_however_wide_the_figures():
    from planner.cli import aligned

    # campus-1m's fibre: 4,671,210 runs of 125,881,200 m ran together as "4,671,210125,881,200"
    lines = aligned([["medium", "cables", "metres"], ["MMF", "4,671,210", "125,881,200"], ["ACC", "62", "304"]], "lrr")
    assert lines == ["medium     cables       metres",
                     "MMF     4,671,210  125,881,200",
                     "ACC            62          304"]


def test_a_plan_of_one_hall_prints_no_campus_lines(capsys, tmp_path):
    _, out = _check(capsys, DATA / "plan_v6.json")
    assert "Campus:" not in out and "building / hall" not in out


def test_each_campus_finding_says_why_it_has_no_automatic_fix(capsys, tmp_path):
    data = json.loads((DATA / "plan_v7.json").read_text())
    a, b = data["buildings"]
    a["utility_feed_kw"] = 200.0             # design load 232.05 kW
    a["halls"][1]["power_limit_kw"] = 40.0   # Hall A2 draws 43.0 kW typical
    b["halls"][0]["floor_rating_kg_m2"] = 600.0  # GPU-04: 480 kg on 0.72 m² = 667 kg/m²
    path = tmp_path / "over.json"
    path.write_text(json.dumps(data))
    code, out = _check(capsys, path)
    assert code == 1
    lines = out.splitlines()
    expected = {
        "facility.building.utility_feed": "the feed is contracted with the utility",
        "facility.hall.power_limit": "which racks move, and to which hall, is a layout choice",
        "facility.hall.floor_rating": "a hall's floor rating is the building's",
        "facility.hall.cdu_short": "the CDU remedy places CDUs plan-wide, not in a given hall",
    }
    for code_, reason in expected.items():
        i = next(i for i, x in enumerate(lines) if f" {code_} " in x)
        assert lines[i + 1].strip().startswith("No automatic fix: " + reason), (code_, lines[i + 1])


def test_a_plan_of_many_racks_lists_each_run_of_alike_racks_once(capsys, tmp_path):
    from planner.design.templates import build_template
    from planner.plan.fileio import save_plan

    # medium at 400 nodes (and its hot spares): 4 HGX H100 a 30 kW rack (4 x 7.0 = 28.0 kW
    # typical, a fifth would be 35): GPU racks with the same figures, then the others
    plan = build_template("medium", nodes=400)
    save_plan(plan, tmp_path / "p.json")
    _, out = _check(capsys, tmp_path / "p.json")
    nodes = sum(1 for p in plan.placements if p.device == "hgx-h100-8")
    racks = nodes // 4
    assert nodes >= 400 and nodes % 4 == 0 and len(plan.racks) > 100
    assert _line(out, "GPU-01") == f"GPU-01 … GPU-{racks} ({racks} racks) 16/42 4 32 28.0 kW 30 93% liquid"
    assert not any(x.startswith("GPU-02 ") for x in out.splitlines())  # in the run, not a line of its own
    # the findings are counted before the tables, and listed after them
    assert out.index("Findings: ") < out.index("GPU-01") < out.rindex("Findings: ")

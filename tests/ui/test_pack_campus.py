"""The vendor pack of a campus, read back from the PDF: a Campus page with a row per building
and per hall, one floor page per building with each of its halls labelled with its name and
figures, every text within its box, and the pack short on a campus of thousands of racks.

The two-building sample (tests/data/plan_v7.json): 4 GPU racks of 4 x HGX H100 (7.0 kW
typical, 10.2 kW nameplate each: 28.0 / 40.8 kW a rack, 32.64 kW of it to liquid), NET-01
(15.048 / 20.35 kW), STOR-01 (12.6 / 16.8 kW), CDU-01 (3.0 / 6.0 kW), all 600 x 1,200 mm.
Building A: Hall A1 (GPU-01, GPU-02, CDU-01) and Hall A2 (GPU-03, NET-01, a 100 kW limit);
Building B: Hall B1 (GPU-04, STOR-01). Power on the typical basis, PUE 1.56.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import pytest

from planner.design.templates import build_template, template_names
from planner.facility.floor import floor_layout
from planner.hardware.catalog import default_catalog
from planner.plan.campus import campus_of
from planner.plan.commands import History
from planner.plan.fileio import load_plan
from planner.plan.hall_commands import MoveRacksToHall, SetBuildings
from planner.report.evaluate import evaluate
from tests.ui.test_pack_site import pack_pages, page, row
from tests.ui.test_pack_text_fit import render_placed
from ui.export.pack_campus import MAX_FLOOR_PAGES, _hall_layouts

pytestmark = pytest.mark.needs_tool("pdftotext")
DATA = Path(__file__).resolve().parents[1] / "data"
CATALOG = default_catalog()


@pytest.fixture(scope="module")
def sample_pages(tmp_path_factory, qapp):
    return pack_pages(load_plan(DATA / "plan_v7.json"), CATALOG, tmp_path_factory.mktemp("pack") / "v7.pdf")


def _titled(pages, start):
    return [p.lstrip().splitlines()[0].strip() for p in pages if p.lstrip().startswith(start)]


def test_campus_page_has_a_row_per_building_and_hall(sample_pages):
    text = page(sample_pages, "Campus: buildings and data halls")
    # Building A = Halls A1 + A2: 5 racks, 96 GPUs, 2 x 28.0 + 3.0 + 28.0 + 15.048 = 102.0 kW typical,
    # 3 x 40.8 + 6.0 + 20.35 = 148.75 kW nameplate; design 148.75 x 1.56 = 232.05 kW against its 400 kW
    # feed. UPS N+1 on 148.75 kW: 1 module of 150 kW (the load rounded up to 50 kW) + 1; generators N+1
    # on 232.05 kW: 1 of 250 kW + 1; 250 kVA transformers on 232.05 / 0.9 = 257.8 kVA: 2 + 1. Water:
    # 3 x 32.64 = 97.92 kW / (4.18 x 0.995 x 10 K) x 60 = 141.3 l/min.
    assert row(text, "Building A") == ("Building A 5 96 102.0 kW 148.8 kW 232.1 kW 400.0 kW 2 x 150.0 kW "
                                       "2 x 250.0 kW 3 x 250 kVA 141.3 l/min")
    assert row(text, "Hall A1") == "Hall A1 3 64 59.0 kW 87.6 kW - 94.2 l/min"
    assert row(text, "Hall A2") == "Hall A2 2 32 43.0 kW 61.1 kW 100.0 kW 47.1 l/min"
    # Building B: no feed, no transformer rating; 57.6 x 1.56 = 89.9 kW
    assert row(text, "Building B") == "Building B 2 32 40.6 kW 57.6 kW 89.9 kW - 2 x 100.0 kW 2 x 100.0 kW - 47.1 l/min"
    assert row(text, "Hall B1") == "Hall B1 2 32 40.6 kW 57.6 kW - 47.1 l/min"
    # the campus row: the report's totals, its plant sized on the whole 206.3 kW nameplate
    assert row(text, "Campus").startswith("Campus 7 128 142.6 kW 206.3 kW 321.9 kW 2 (500.0 kW) 2 (700.0 kW)")


def test_one_floor_page_per_building_with_each_hall_labelled(sample_pages):
    assert _titled(sample_pages, "Floor plan") == ["Floor plan: Building A", "Floor plan: Building B"]
    a = page(sample_pages, "Floor plan: Building A")
    # Hall A1: 2 x 28.0 + 3.0 = 59.0 kW; 3 racks of 0.6 m in one row: 1.8 m x 1.2 m
    assert "Hall A1" in a and "3 racks · IT 59.0 kW · 1.8 m x 1.2 m" in a
    # Hall A2: 28.0 + 15.048 = 43.0 kW of its 100 kW limit; 2 racks: 1.2 m x 1.2 m
    assert "Hall A2" in a and "2 racks · IT 43.0 kW of 100.0 kW · 1.2 m x 1.2 m" in a
    # side by side: both labels on one line, and the racks of each hall drawn on its building's page only
    assert any("Hall A1" in x and "Hall A2" in x for x in a.splitlines())
    assert all(name in a for name in ("GPU-01", "GPU-02", "CDU-01", "GPU-03", "NET-01"))
    assert "GPU-04" not in a and "Hall B1" not in a
    b = page(sample_pages, "Floor plan: Building B")
    # Hall B1: 28.0 + 12.6 = 40.6 kW
    assert "2 racks · IT 40.6 kW · 1.2 m x 1.2 m" in b and "GPU-04" in b and "STOR-01" in b
    assert "Scale: 1 m = 60.0 pt, every hall." in a and "Scale: 1 m = 60.0 pt, every hall." in b


def test_a_plan_of_one_hall_keeps_its_one_floor_page_and_has_no_campus_page(tmp_path, qapp):
    pages = pack_pages(build_template("medium", catalog=CATALOG), CATALOG, tmp_path / "medium.pdf")
    assert _titled(pages, "Floor plan") == ["Floor plan"]
    assert not _titled(pages, "Campus")


def test_each_halls_drawing_is_its_own_floor_layout():
    plan = load_plan(DATA / "plan_v7.json")
    layouts = _hall_layouts(plan, campus_of(plan))
    assert sorted(layouts) == ["A1", "A2", "B1"]
    for hall, layout in layouts.items():
        alone = floor_layout(plan, plan.settings.floor, hall=hall)
        assert layout.rows == alone.rows and (layout.width_m, layout.depth_m) == (alone.width_m, alone.depth_m)
        assert {r: layout.racks[r] for row in layout.rows for r in row.racks} == alone.racks


def _placed(plan, path) -> tuple[list, int]:
    return render_placed(plan, CATALOG, path)


def test_every_text_of_the_campus_pages_fits_its_box(tmp_path):
    placed, _ = _placed(load_plan(DATA / "plan_v7.json"), tmp_path / "v7.pdf")
    texts = {t.text for t in placed}
    assert {"Hall A1", "Hall A2", "Hall B1"} <= texts
    assert [(t.text, round(t.width, 1), round(t.box_width, 1)) for t in placed if not t.fits] == []


def test_a_campus_of_many_buildings_shares_its_floor_pages(tmp_path, qapp):
    # the sample's 7 racks, one a building: 7 buildings on at most 4 floor pages, 2 a page
    data = json.loads((DATA / "plan_v7.json").read_text())
    data["buildings"] = [{"id": f"B{i}", "name": f"Building {i + 1}", "halls": [{"id": f"H{i}", "name": f"Hall {i + 1}"}]}
                         for i in range(7)]
    for i, r in enumerate(data["racks"]):
        r["hall"] = f"H{i}"
    data["variants"] = []
    path = tmp_path / "seven.json"
    path.write_text(json.dumps(data))
    pages = pack_pages(load_plan(path), CATALOG, tmp_path / "seven.pdf")
    titles = _titled(pages, "Floor plan")
    assert len(titles) == MAX_FLOOR_PAGES == 4
    assert titles[0] == "Floor plan: Building 1 to Building 2" and titles[-1] == "Floor plan: Building 7"
    first = page(pages, "Floor plan: Building 1 to Building 2")
    assert "more than 4 floor pages hold: buildings share a page" in " ".join(first.split())
    assert "Building 1 · Hall 1" in first and "Building 2 · Hall 2" in first


@pytest.mark.skipif("campus-400k" not in template_names(), reason="no campus template")
@pytest.mark.needs_tool("pdfinfo")
def test_a_campus_of_four_buildings_packs_in_under_20_pages(tmp_path, qapp):
    plan = build_template("campus-400k", catalog=CATALOG)
    history = History(plan, CATALOG)
    history.apply(SetBuildings([{"id": f"B{i}", "name": f"Building {i + 1}",
                                 "halls": [{"id": f"B{i}H{j}", "name": f"Hall {i + 1}.{j + 1}"} for j in range(2)]}
                                for i in range(4)]))
    rows = list(dict.fromkeys(r.row for r in plan.racks))
    halls = [f"B{i}H{j}" for i in range(4) for j in range(2)]
    per = math.ceil(len(rows) / len(halls))
    for k, hall in enumerate(halls):
        mine = set(rows[k * per:(k + 1) * per])
        history.apply(MoveRacksToHall([r.id for r in plan.racks if r.row in mine], hall))
    path = tmp_path / "campus.pdf"
    placed, n = _placed(plan, path)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    assert int(next(x.split()[-1] for x in info.splitlines() if x.startswith("Pages:"))) == n < 20
    texts = {t.text for t in placed}
    assert {f"Floor plan: Building {i}" for i in range(1, 5)} <= texts
    figures = evaluate(plan, CATALOG).sections["facility"].halls
    for h in figures:  # each hall drawn with its label and its rack count
        assert h.name in texts and any(t.startswith(f"{h.racks:,} racks · IT ") for t in texts), h.name
    assert [(t.text, round(t.width, 1), round(t.box_width, 1)) for t in placed if not t.fits] == []


def test_a_million_gpu_campus_packs_in_under_20_pages(tmp_path, qapp):
    # campus-1m's network summary (58 rows: a line per cable and module part) and its bill
    # (priced per tier and network, a line per catalog cable) each run a little over a page:
    # each is laid out in two columns on one; the schedule's 32 hall phases run on below the
    # Goodput page with as many rows as its room holds, not onto a page of their own
    pages = [p for p in pack_pages(build_template("campus-1m", catalog=CATALOG), CATALOG, tmp_path / "c.pdf")
             if p.strip()]
    assert len(pages) < 20
    titles = [p.lstrip().splitlines()[0].strip() for p in pages]
    for title in ("Network summary", "Goodput: failures, checkpoints and restarts", "Bill of materials"):
        assert title in titles and f"{title} (continued)" not in titles, title
    goodput = page(pages, "Goodput")
    listed = int(re.search(r"The first (\d+) of 32 phases", goodput)[1])
    assert 8 <= listed < 24 and goodput.count("power transformer") >= listed
    # the rest in one row: its GPUs those of the other halls (31,250 GPUs a hall but the last,
    # 1,000,080 in all: the other phases' are the whole less the listed halls')
    report = evaluate(build_template("campus-1m", catalog=CATALOG), CATALOG)
    phases = report.sections["schedule"].phases
    other = sum(p.gpus for p in phases[listed:])
    assert f"The other {32 - listed} phases {other:,}" in " ".join(goodput.split())
    assert other == 1_000_080 - sum(p.gpus for p in phases[:listed])  # the template's GPUs
    # both halves of the bill on its page: its first line and its last
    bill = page(pages, "Bill of materials")
    assert "NVIDIA GB300 NVL72 rack" in bill and "Spare compute trays (stocked, not placed)" in bill
    # quantities in full, past a million too: "1,619,921" fibres, never "1.61992e+06"
    assert "e+0" not in bill and re.search(r"\b\d,\d{3},\d{3}\b", bill)

"""The charts plot the report: after an edit their data equal the report's figures.

Hand figures for the ``medium`` template (4 GPU racks of 4 x 8-H100 nodes, 30 kW caps):
an 8 x H100 node draws 7 kW typical (the planning guide, "call it 7 kW per node") and
10.2 kW nameplate (DGX H100 user guide), so a GPU rack holds 4 x 7 = 28 kW typical and
4 x 10.2 = 40.8 kW nameplate; a fifth node makes 35 kW and 51 kW, over the 30 kW cap.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from planner.hardware.catalog import default_catalog
from planner.plan.commands import AddDevice, SetSetting
from planner.report.evaluate import Evaluator
from planner.design.templates import build_template
from ui.charts import ChartExportError, ChartsPanel
from ui.charts.base import ACCENT, MUTED
from planner.report.palette import LOAD_OVER

NODE = "hgx-h100-8"


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.fixture
def setup(qtbot, catalog):
    plan = build_template("medium", catalog=catalog)
    ev = Evaluator(plan, catalog)
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    panel.update_report(ev.evaluate())
    return plan, ev, panel


def edit(plan, catalog, ev, panel, command):
    changes = command.do(plan, catalog)
    report = ev.evaluate(changes)
    panel.update_report(report, changes)
    return report


def rack_bars(chart, rack_id):
    i = chart.rack_ids.index(rack_id)
    return float(chart.typical_bars.opts["height"][i]), float(chart.nameplate_bars.opts["height"][i])


def test_adding_a_node_raises_its_racks_bar_by_the_nodes_power(setup, catalog):
    plan, ev, panel = setup
    chart = panel.rack_power
    items_before = list(chart.plot.items)
    assert rack_bars(chart, "r1") == pytest.approx((28.0, 40.8))  # 4 x 7 kW, 4 x 10.2 kW
    report = edit(plan, catalog, ev, panel, AddDevice(NODE, "r1", 33))
    assert rack_bars(chart, "r1") == pytest.approx((35.0, 51.0))  # one more node: +7 kW, +10.2 kW
    assert rack_bars(chart, "r6") == pytest.approx((28.0, 40.8))  # the other racks did not move
    # Every bar equals the report, and the rack's cap line sits at its 30 kW cap.
    typical = [r.power_typical_kw for r in report.racks]
    assert np.allclose(chart.typical_bars.opts["height"], typical)
    _, cap_y = chart.cap_line.getData()
    i = chart.rack_ids.index("r1")
    assert cap_y[2 * i] == cap_y[2 * i + 1] == 30.0
    # 35 kW is over the 30 kW cap: that rack's bar is red, the 28 kW racks are not.
    brushes = chart.typical_bars.opts["brushes"]
    assert brushes[i].color().name() == LOAD_OVER.lower()
    assert brushes[chart.rack_ids.index("r6")].color().name() != LOAD_OVER.lower()
    # The plot was fed new data, not rebuilt.
    assert chart.plot.items == items_before


def test_hover_tells_the_racks_figures_and_a_click_selects_it(setup, qtbot, catalog):
    plan, ev, panel = setup
    chart = panel.rack_power
    panel.setCurrentWidget(chart)
    edit(plan, catalog, ev, panel, AddDevice(NODE, "r6", 33))
    text = chart.hover_text(chart.rack_ids.index("r6"))
    assert "GPU-02" in text and "35.0 kW" in text and "51.0 kW" in text and "over its cap" in text
    qtbot.wait(10)
    view_pos = chart.mapFromScene(chart.bar_scene_pos("r6"))
    with qtbot.waitSignal(panel.rackClicked, timeout=1000) as blocker:
        qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=view_pos)
    assert blocker.args == ["r6"]


def test_break_even_marker_sits_at_the_reports_month(setup, catalog):
    plan, ev, panel = setup
    chart = panel.build_vs_rent
    report = edit(plan, catalog, ev, panel, AddDevice(NODE, "r1", 33))
    cost = report.section("cost")
    months = cost["curves"]["months"]
    x, y = chart.curves["build"].getData()
    assert list(x) == months and np.allclose(y, cost["curves"]["build"])
    month = cost["break_even_months"]["reserved_1yr"]
    assert month is not None
    mx, my = chart.break_even_at("reserved_1yr")
    assert mx == month
    # The marker lies where the build and the rental lines cross (to the month's 0.1 rounding):
    # read both lines at that month by interpolating the plotted curves.
    build_at = np.interp(mx, x, y)
    rent_x, rent_y = chart.curves["reserved_1yr"].getData()
    rent_at = np.interp(mx, rent_x, rent_y)
    monthly_rent = rent_y[1] - rent_y[0]
    assert abs(build_at - my) < 1.0 and abs(rent_at - my) < 0.05 * monthly_rent
    # Spot never breaks even within the horizon in this plan: no marker for it.
    assert cost["break_even_months"]["spot"] is None
    assert chart.break_even_at("spot") is None
    # The horizon setting moves the curves' end.
    edit(plan, catalog, ev, panel, SetSetting("costs", "horizon_months", 48))
    assert chart.curves["build"].getData()[0][-1] == 48


def test_fabric_chart_highlights_the_plans_fabric(setup, catalog):
    plan, ev, panel = setup
    chart = panel.fabrics
    report = ev.report
    rows = report.section("network")["fabrics"]
    assert np.allclose(chart.ms_bars.opts["width"], [r["allreduce_ms"] for r in rows])
    assert np.allclose(chart.idle_bars.opts["width"], [r["gpu_idle_pct"] for r in rows])

    def colours():
        return {f: b.color().name() for f, b in zip(chart.fabric_ids, chart.ms_bars.opts["brushes"])}

    assert plan.settings.fabric.technology == "ib400"
    c = colours()
    assert c["ib400"] == ACCENT.lower() and c["ib800"] == MUTED.lower() and chart.highlighted == "ib400"
    edit(plan, catalog, ev, panel, SetSetting("fabric", "technology", "ib800"))
    c = colours()
    assert c["ib800"] == ACCENT.lower() and c["ib400"] == MUTED.lower() and chart.highlighted == "ib800"


def test_scaling_chart_marks_the_plans_point(setup, catalog):
    plan, ev, panel = setup
    chart = panel.scaling
    points = ev.report.section("network")["scaling"]
    x, y = chart.curve.getData()
    assert list(x) == [p["gpus"] for p in points] and list(y) == [p["speedup"] for p in points]
    assert list(chart.ideal.getData()[1]) == list(x)  # ideal: speedup = GPUs
    # The medium plan trains on all 4 x 4 x 8 = 128 GPUs.
    plan_x, plan_y = chart.plan_point_xy()
    assert plan_x == 128
    assert plan_y == next(p["speedup"] for p in points if p["gpus"] == 128)
    assert 0 < plan_y < 128
    # the plan's label carries the workload's end-to-end MFU and time to train
    work = ev.report.workload
    label = chart.plan_label.toPlainText()
    assert f"MFU {100 * work.mfu:.1f}% end to end" in label
    # without failures: the summary strip's days are with them (the goodput section)
    assert f"{work.time_to_train_days:,.0f} days to train 15T tokens if nothing failed" in label
    # A 17th node leaves TP x PP x DP = 128 != 136 GPUs: no training figures, no point.
    edit(plan, catalog, ev, panel, AddDevice(NODE, "r1", 33))
    assert chart.plan_point_xy() is None and len(chart.curve.getData()[0] or []) == 0
    # one sentence in place of the chart, and no axes with ticks of nothing
    assert chart.is_empty and chart.empty_note.text().startswith("No training figures: set TP × PP × DP")
    assert not chart.ci.isVisible()


def test_facility_chart_shows_it_and_facility_power_and_cdus(setup, catalog):
    plan, ev, panel = setup
    chart = panel.facility
    # 16 nodes x 7 kW + NET-01 15.048 kW (10 x QM9700 1.294 + SN5600 2.028, typical with their
    # optics: 0.75 + 32 x 17 W and 0.94 + 64 x 17 W; + mgmt 0.08) + STOR-01 12.6 kW (7 x 1.8)
    # + CDU-01 3.0 kW (2 x 1.5) = 142.648 kW IT; x PUE 1.56 = 222.531 kW.
    assert np.allclose(chart.power_bars.opts["height"], [142.648, 142.648 * 1.56])
    # Design heat to liquid 16 x 10.2 kW x 0.8 capture = 130.56 kW; two 250 kW CDUs placed = 500 kW.
    assert np.allclose(chart.cooling_bars.opts["height"], [130.56, 500.0])
    edit(plan, catalog, ev, panel, AddDevice(NODE, "r1", 33))
    assert np.allclose(chart.cooling_bars.opts["height"], [138.72, 500.0])
    # by capacity 138.72 / 250 -> 1 + 1 spare = 2 CDUs, 2 placed: not short
    assert chart.cooling_bars.opts["brushes"][1].color().name() != LOAD_OVER.lower()
    # the guide's rule: 17 liquid nodes need ceil(17 / 8) = 3 CDUs, 2 placed: the capacity bar turns red.
    edit(plan, catalog, ev, panel, SetSetting("facility", "cdu_policy", "per_nodes"))
    assert chart.cooling_bars.opts["brushes"][1].color().name() == LOAD_OVER.lower()


@pytest.mark.parametrize("attr", ["rack_power", "build_vs_rent", "fabrics", "scaling", "facility"])
def test_each_chart_exports_png_and_svg(setup, tmp_path, attr):
    _, _, panel = setup
    chart = getattr(panel, attr)  # on a hidden tab except the first: export lays it out itself
    png = chart.export(tmp_path / "c.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = QImage(str(png))
    assert image.width() >= 2 * chart.width() - 4 and image.height() > 0  # twice the on-screen size
    svg = chart.export(tmp_path / "c.svg")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    texts = " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("text"))
    expected = {"rack_power": "GPU-01", "build_vs_rent": "Reserved 1-yr", "fabrics": "400G InfiniBand",
                "scaling": "This plan", "facility": "Liquid heat load"}[attr]
    assert expected in texts
    with pytest.raises(ChartExportError, match="png or .svg"):
        chart.export(tmp_path / "c.pdf")
    assert chart.export_action in chart.scene().contextMenu
    # a folder that cannot be written: refused in a sentence, the chart written before untouched
    before = png.read_bytes()
    with pytest.raises(ChartExportError):
        chart.export("/proc/c.png")
    assert png.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.png", "c.svg"]  # no temporary left


def test_a_plan_of_hundreds_of_racks_draws_the_tallest_rack_of_each_pixel_column_and_follows_edits(qtbot, catalog):
    from planner.plan.commands import EditRack
    from ui.charts.rack_power import RackPowerChart

    # massive resized to 4,000 nodes: 1,000 GPU racks of 4 nodes plus network, storage and CDU
    # racks, on a plot about 500 pixels wide: two or more racks share a pixel column
    plan = build_template("massive", nodes=4000, catalog=catalog)
    ev = Evaluator(plan, catalog)
    chart = RackPowerChart()
    qtbot.addWidget(chart)
    chart.resize(600, 300)
    chart.show()
    qtbot.waitExposed(chart)
    report = ev.evaluate()
    chart.update_report(report)
    assert chart.dense and len(report.racks) > 2 * chart.plot.vb.width()
    assert list(chart.typical_bars.opts["height"]) == []  # no bars of a colour each

    def columns(layer):
        o = layer.opts
        return list(zip(o["x0"], o["x1"], o["height"]))

    typical = [r.power_typical_kw for r in report.racks]
    bars = columns(chart.dense_typical)
    assert len(bars) < len(report.racks) and chart.dense_typical.opts["brushes"] is None  # one brush, few bars
    assert bars[0][0] == -0.5 and bars[-1][1] == len(report.racks) - 0.5  # every rack in a column
    for (x0, x1), (nx0, _) in zip([b[:2] for b in bars], [b[:2] for b in bars[1:]]):
        assert x1 == nx0  # the columns touch
    for x0, x1, h in bars:  # each column as tall as its tallest rack
        assert h == pytest.approx(max(typical[int(x0 + 0.5):int(x1 + 0.5)]))
    # lower the first GPU rack's cap to 20 kW: its 4 x 7 = 28 kW turns red, nothing else does
    first = next(r for r in report.racks if r.nodes)
    report = ev.evaluate(EditRack(first.id, power_cap_kw=20).do(plan, catalog))
    chart.update_report(report, None)
    i = report.rack_order.index(first.id)
    red = [(x0, x1, h) for x0, x1, h in columns(chart.dense_over) if h > 0]
    assert len(red) == 1 and red[0][0] < i < red[0][1] and red[0][2] == pytest.approx(28.0)
    # on the typical basis in the red of a typical bar over its cap, as the legend says
    assert chart.dense_over.opts["brush"].color().name() == chart._brush["to"].color().name()
    xs, ys = chart.cap_line.getData()  # the cap line follows: a 20 kW segment over that rack alone
    assert [(x0, x1) for x0, x1, y in zip(xs[::2], xs[1::2], ys[::2]) if y == 20] == [(i - 0.5, i + 0.5)]
    # zoomed in on a few racks: one column per rack
    chart.plot.setXRange(i - 5, i + 5, padding=0)
    shown = columns(chart.dense_typical)
    assert all(x1 - x0 == 1 for x0, x1, _ in shown) and len(shown) <= 13
    # on the nameplate basis a rack over its cap is a nameplate bar over it: the legend's pink
    plan.settings.facility = plan.settings.facility.model_copy(update={"power_basis": "nameplate"})
    chart.update_report(Evaluator(plan, catalog).evaluate(), None)
    assert chart.dense_over.opts["brush"].color().name() == chart._brush["no"].color().name()


def test_facility_chart_shows_each_racks_feeds_and_heat_split(setup, catalog):
    _, ev, panel = setup
    chart = panel.facility
    i = chart.rack_ids.index("r1")  # GPU-01: 4 x 10.2 kW = 40.8 kW nameplate
    a, b = chart.feed_bars
    # 2N: each feed carries half in normal operation, 20.4 kW, stacked on feed A
    assert a.opts["height"][i] == pytest.approx(20.4) and b.opts["height"][i] == pytest.approx(20.4)
    assert b.opts["y0"][i] == pytest.approx(20.4)
    liquid, air = chart.heat_bars
    # cold plates take 0.8 of it: 32.64 kW to liquid, 8.16 kW to air
    assert liquid.opts["height"][i] == pytest.approx(32.64) and air.opts["height"][i] == pytest.approx(8.16)
    assert chart.rack_axis.names[i] == "GPU-01"


def test_an_axis_in_billions_says_so_on_its_ticks_not_with_x1e9_in_its_title(qtbot):
    """frontier-100k's build-vs-rent axis runs to $11B: its ticks read "$11B", so its title
    stays "Cumulative cost", not "Cumulative cost (x1e+09)" (pyqtgraph's SI scale)."""
    from ui.charts.theme import DollarAxis, UnitAxis
    for axis, ticks in ((DollarAxis("left"), ["$0B", "$5B", "$10B"]), (UnitAxis("left", "MW"), None)):
        axis.setLabel("Cumulative cost")
        axis.setRange(0, 11e9)
        assert "x1e" not in axis.labelString() and "Cumulative cost" in axis.labelString()
        if ticks:
            assert axis.tickStrings([0, 5e9, 10e9], 1.0, 5e9) == ticks

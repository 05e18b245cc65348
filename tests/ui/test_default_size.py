"""Legible at the default size (1440 x 900): racks fitted to the view's height, no text on
screen smaller than the normal font less 2 pt, the summary's slots fixed, chart legends
outside the data, an empty chart saying why."""

import pytest
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication

from planner.plan.commands import SetSetting
from ui.rack_items import min_text_px


@pytest.fixture
def laptop(window):
    """The window as the app opens it on a 1440 x 900 screen."""
    window.resize(1440, 900)
    window._default_dock_sizes()
    QApplication.processEvents()
    window.view.zoom_to_rack_height()
    QApplication.processEvents()
    return window


def _drawn_text_sizes(view, monkeypatch) -> list[tuple[float, str]]:
    """(on-screen pixel size, text) of every text the rack view draws in one paint."""
    seen = []
    original = QPainter.drawText

    def recording(painter, *args):
        font = painter.font()
        px = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF() * 96 / 72
        text = next((a for a in args if isinstance(a, str)), "")
        seen.append((px * painter.worldTransform().m11(), text))
        return original(painter, *args)
    for rack in view.racks.values():
        rack.materialise()
    QApplication.processEvents()
    monkeypatch.setattr(QPainter, "drawText", recording)
    for rack in view.racks.values():  # drop the items' cached pixmaps: every item paints again
        rack.update()
        for device in rack.devices.values():
            device.update()
    view.viewport().grab()
    monkeypatch.setattr(QPainter, "drawText", original)
    return seen


def test_racks_fill_the_view_height_and_no_text_is_smaller_than_normal_less_2pt(laptop, monkeypatch):
    view = laptop.view
    vp = view.viewport().rect()
    for item in view.racks.values():  # every rack of the medium template is whole in height
        rect = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        assert rect.top() >= -2 and rect.bottom() <= vp.height() + 2
    tallest = max(view.mapFromScene(i.sceneBoundingRect()).boundingRect().height() for i in view.racks.values())
    assert tallest >= 0.85 * vp.height()  # fitted to the height, not lost in it
    sizes = _drawn_text_sizes(view, monkeypatch)
    texts = {text for _, text in sizes}
    assert {"GPU-01", "node-1", "28.0 / 30 kW", "ib-1", "42"} <= texts
    smallest = min(sizes)
    assert smallest[0] >= min_text_px() - 0.6, smallest  # fonts are whole pixels
    font = QApplication.font()
    screen = QApplication.primaryScreen()
    assert min_text_px() == pytest.approx((font.pointSizeF() - 2) * screen.logicalDotsPerInchY() / 72)


def test_the_racks_not_on_screen_are_one_obvious_scroll_away(laptop):
    view = laptop.view
    vp = view.viewport().rect()
    hidden = [r for r, i in view.racks.items()
              if not vp.contains(view.mapFromScene(i.sceneBoundingRect()).boundingRect())]
    if hidden:
        assert view.horizontalScrollBar().isVisible() and view.horizontalScrollBar().maximum() > 0
        view.horizontalScrollBar().setValue(view.horizontalScrollBar().maximum())
        QApplication.processEvents()
        last = view.racks[laptop.doc.plan.racks[-1].id]
        assert vp.contains(view.mapFromScene(last.sceneBoundingRect()).boundingRect())


def test_summary_keeps_its_slots_when_workload_figures_go(laptop):
    strip = laptop.summary
    before = {k: f.geometry() for k, f in strip.figures.items()}
    view_top = laptop.view.mapToGlobal(laptop.view.rect().topLeft())
    assert strip.text("gpu_idle_pct").endswith(" %")
    # 8 x 4 x 8 = 256 GPUs on a 128-GPU plan: the workload figures become unavailable
    laptop.doc.apply(SetSetting("workload", "dp", 8))
    QApplication.processEvents()
    assert strip.text("gpu_idle_pct") == strip.text("idle_cause") == strip.text("tokens_per_s") == "–"
    assert "TP 8 x PP 4 x DP 8 = 256 GPUs, but the plan places 128" in strip.figures["gpu_idle_pct"].toolTip()
    assert {k: f.geometry() for k, f in strip.figures.items()} == before
    assert laptop.view.mapToGlobal(laptop.view.rect().topLeft()) == view_top  # the view did not jump


def test_rack_power_legend_sits_outside_the_bars(laptop):
    from ui.charts.rack_power import RackPowerChart

    chart = laptop.charts.findChild(RackPowerChart)
    chart.update_report(laptop.doc.report)
    chart.resize(720, 300)
    QApplication.processEvents()
    legend = chart.legend.sceneBoundingRect()
    data = chart.plot.vb.sceneBoundingRect()
    assert not legend.intersects(data)


def test_in_a_small_window_the_summary_keeps_two_rows_and_scrolls_the_rest(window):
    # At 1,024 x 700 the figures wrapped to five rows, taller than the rack view left below
    # them (160 px, no device in sight). The strip stays two rows of figures high; the rest
    # scroll into view.
    window.resize(1024, 700)
    window._default_dock_sizes()
    QApplication.processEvents()
    area, strip = window.summary_area, window.summary
    row = strip.figures["gpus"].height()
    assert strip.height() > 3 * row  # the figures wrap to more than two rows at this width
    assert area.height() <= 2 * row + 12 and area.verticalScrollBar().maximum() > 0
    assert window.view.height() > 2 * area.height()
    last = strip.figures["energized"]
    assert not area.viewport().rect().contains(last.mapTo(area.viewport(), last.rect().center()))
    area.verticalScrollBar().setValue(area.verticalScrollBar().maximum())
    QApplication.processEvents()
    assert area.viewport().rect().contains(last.mapTo(area.viewport(), last.rect().center()))
    window.resize(1440, 900)  # wide enough for every figure in two rows: nothing to scroll
    window._default_dock_sizes()
    QApplication.processEvents()
    assert area.verticalScrollBar().maximum() == 0 and area.height() >= strip.height()

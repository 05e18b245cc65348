"""Zoom to fit shows the whole plan, and every rack header keeps
its load in words at every zoom above the floor: the tag and name go first."""

import re

import pytest
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QApplication

from ui.floor import FLOOR_BELOW_LOD

LOAD = re.compile(r"^(\d[\d,.]* / \d[\d,.]* kW|\d+ %)$")


def _header_texts(view, monkeypatch) -> list[str]:
    seen = []
    original = QPainter.drawText

    def recording(painter, *args):
        seen.append(next((a for a in args if isinstance(a, str)), ""))
        return original(painter, *args)
    monkeypatch.setattr(QPainter, "drawText", recording)
    for rack in view.racks.values():
        rack.update()
    view.viewport().repaint()
    monkeypatch.setattr(QPainter, "drawText", original)
    return seen


@pytest.mark.parametrize("scale", [0.12, 0.2, 0.3, 0.5, 1.0])
def test_every_rack_header_shows_its_load_at_every_zoom(window, monkeypatch, scale):
    view = window.view
    view.setTransform(QTransform.fromScale(scale, scale))
    view.update_detail()
    view.verticalScrollBar().setValue(view.verticalScrollBar().minimum())  # the headers' row in sight
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().minimum())
    QApplication.processEvents()
    assert scale >= FLOOR_BELOW_LOD and not view.floor_mode
    loads = [t for t in _header_texts(view, monkeypatch) if LOAD.match(t)]
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    # racks whose header (the top 50 scene px) is on screen
    shown = [r for r in view.racks.values()
             if visible.contains(r.sceneBoundingRect().topLeft()) and visible.contains(r.sceneBoundingRect().topRight())]
    assert shown and len(loads) >= len(shown), (scale, loads)
    if scale >= 0.5:  # room for the whole "28.0 / 30 kW"
        assert "28.0 / 30 kW" in loads


def test_zoom_to_fit_shows_every_rack(window):
    view = window.view
    window.zoom_fit_action.trigger()
    QApplication.processEvents()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(visible.contains(r.sceneBoundingRect()) for r in view.racks.values())


def test_the_opening_zoom_is_the_same_with_the_horizontal_scroll_bar_shown_or_not(window, qtbot):
    """The first row is fitted to the height left with the scroll bar: fitted to the viewport as
    it was, a zoom that showed or hid the bar resized the viewport and was fitted again, for ever
    (the app hung at 1920 x 1080 with the charts dock 360 px tall)."""
    from PySide6.QtCore import Qt

    view = window.view
    view.horizontalScrollBar().setVisible(True)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    QApplication.processEvents()
    view.zoom_to_rack_height()
    with_bar = view.zoom_level()
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    QApplication.processEvents()
    assert not view.horizontalScrollBar().isVisible()
    view.zoom_to_rack_height()
    assert view.zoom_level() == pytest.approx(with_bar)

"""Colours and sizes shared by the views (presentation only)."""

from __future__ import annotations

from PySide6.QtGui import QColor

CATEGORY_COLOURS: dict[str, str] = {
    "gpu_server": "#2f6fdf",
    "switch": "#7a4fd6",
    "storage": "#1f9d8f",
    "cdu": "#2a9fc0",
    "pdu": "#b7791f",
    "other": "#6b7280",
}

GHOST_OK = QColor(46, 180, 90, 150)
GHOST_BLOCKED = QColor(220, 50, 50, 150)

BAR_OK = QColor("#2eb45a")
BAR_WARN = QColor("#e0a020")
BAR_OVER = QColor("#dc3232")
BAR_WARN_FROM = 0.8
"""The power bar turns amber from 80% of the rack's cap and red above the cap."""

CANVAS = QColor("#23272e")
RACK_FRAME = QColor("#3a3f48")
RACK_INTERIOR = QColor("#15181d")
RACK_SLOT_LINE = QColor("#2a2e35")
RACK_TEXT = QColor("#d6dae0")
RACK_MUTED_TEXT = QColor("#8a919c")
SELECTION = QColor("#ffd24a")
SEVERITY_COLOURS = {"error": QColor("#dc3232"), "warning": QColor("#e0a020"), "info": QColor("#3b82f6")}

U_PX = 18.0
RACK_BODY_W = 210.0
GUTTER_W = 26.0
HEADER_H = 50.0
RACK_GAP = 46.0
ROW_GAP = 60.0
RACKS_PER_ROW = 12


def category_colour(category: str) -> QColor:
    return QColor(CATEGORY_COLOURS.get(category, CATEGORY_COLOURS["other"]))


def bar_colour(load_fraction: float) -> QColor:
    if load_fraction > 1.0 + 1e-9:
        return BAR_OVER
    if load_fraction >= BAR_WARN_FROM:
        return BAR_WARN
    return BAR_OK

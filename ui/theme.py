"""Colours and sizes of the desktop views (presentation only).

Device and load colours are ``planner.report.palette``'s (the one palette the exports use too), as QColor.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

from planner.report import palette

CATEGORY_COLOURS: dict[str, str] = palette.CATEGORY_COLORS

GHOST_OK = QColor(46, 180, 90, 150)
GHOST_WARN = QColor(235, 160, 30, 170)
GHOST_BLOCKED = QColor(220, 50, 50, 150)
GHOST_COLOURS = {"ok": GHOST_OK, "warning": GHOST_WARN, "blocked": GHOST_BLOCKED}
"""Green: fits; amber: fits but a check would fail; red: cannot be placed."""

BAR_OK = QColor(palette.LOAD_OK)
BAR_WARN = QColor(palette.LOAD_HIGH)
BAR_OVER = QColor(palette.LOAD_OVER)
"""The power bar turns amber from ``palette.HIGH_LOAD_FRACTION`` of the rack's cap and red above the cap."""

CANVAS = QColor(palette.CANVAS)
RACK_FRAME = QColor(palette.RACK_FRAME)
RACK_INTERIOR = QColor(palette.RACK_INTERIOR)
RACK_SLOT_LINE = QColor(palette.RACK_SLOT_LINE)
RACK_TEXT = QColor(palette.RACK_TEXT)
RACK_MUTED_TEXT = QColor(palette.RACK_MUTED_TEXT)
SELECTION = QColor(palette.SELECTION)
# The campus around the racks: buildings a shade lighter than the canvas, halls a shade lighter
# again, each outlined; labels on a dark plate so that they read over the racks.
BUILDING_FILL = QColor(palette.BUILDING_FILL)
BUILDING_LINE = QColor(palette.BUILDING_LINE)
HALL_FILL = QColor(palette.HALL_FILL)
HALL_LINE = QColor(palette.HALL_LINE)
LABEL_PLATE = QColor(20, 23, 28, 215)
SEVERITY_COLOURS = {k: QColor(v) for k, v in palette.SEVERITY_COLORS.items()}

U_PX = 18.0
RACK_BODY_W = 210.0
GUTTER_W = 26.0
HEADER_H = 50.0
RACK_GAP = 46.0
ROW_GAP = 60.0
RACKS_PER_ROW = 12


def category_colour(category: str) -> QColor:
    return QColor(palette.category_color(category))


def bar_colour(load_fraction: float) -> QColor:
    """Green, amber from 80% of the cap, red over it: ``palette.load_color`` as a QColor."""
    return QColor(palette.load_color(load_fraction))

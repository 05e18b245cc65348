"""The one palette (``planner.report.palette``), as the app imports it."""

from planner.report.palette import (  # noqa: F401
    CATEGORY_COLORS, HIGH_LOAD_FRACTION, LOAD_HIGH, LOAD_OK, LOAD_OVER, LOAD_TRACK, SERIES_COLORS, category_color,
    load_color, text_color_on,
)

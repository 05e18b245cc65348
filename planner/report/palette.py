"""The one palette: device categories, rack load and chart series, shared by the app and
every export (SVG, PNG, PDF, the Excel workbook).

Plain hex strings so that any view (QColor, pyqtgraph, SVG, openpyxl) can use them.
"""

from __future__ import annotations

# The desktop app and every export (SVG, PNG, PDF, charts) paint with these. Fills that read
# on the app's dark canvas and on paper, white text on each; none of them is green, amber or
# red, which mean load status. The README names them: GPU servers blue, switches violet,
# storage teal, CDUs cyan.
CATEGORY_COLORS: dict[str, str] = {
    "gpu_server": "#2F6FDF",  # blue
    "switch": "#7A4FD6",      # violet
    "storage": "#1F8F82",     # teal
    "cdu": "#2A93C0",         # cyan
    "pdu": "#8A6A44",         # brown
    "other": "#6B7280",       # grey
}

# The plan's own choice in a chart (its fabric, its point on the scaling curve): the GPU-server
# blue; the other choices muted grey.
ACCENT = CATEGORY_COLORS["gpu_server"]
MUTED = "#9AA3AB"

# Chart series in order: build (the plan itself, in the accent), then the rental options
# (the app's charts and the workbook's).
SERIES_COLORS = [ACCENT, "#D9822B", "#2B8C84", "#7657A3", "#8A6A44", "#6F7A82"]

LOAD_OK = "#3E9B4F"      # green
LOAD_HIGH = "#E3A21A"    # amber
LOAD_OVER = "#D23B33"    # red
LOAD_TRACK = "#E4E7EA"   # the empty part of a load bar

# A rack loaded to 80% of its cap or more shows amber: the continuous-load rule
# (NEC 210.20(A): continuous loads at most 80% of the circuit rating) leaves no headroom.
HIGH_LOAD_FRACTION = 0.8


def category_color(category: str) -> str:
    return CATEGORY_COLORS.get(category, CATEGORY_COLORS["other"])


def load_color(fraction: float) -> str:
    """Green below 80% of the cap, amber from 80%, red over the cap."""
    if fraction > 1.0 + 1e-9:
        return LOAD_OVER
    return LOAD_HIGH if fraction >= HIGH_LOAD_FRACTION - 1e-9 else LOAD_OK


def text_color_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (relative luminance, WCAG)."""
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#111111" if lum > 0.55 else "#FFFFFF"


# A difference between designs (``planner.report.compare``): green where the figure is better,
# red where it is worse, in each metric's own direction; the light fills are table backgrounds
# that keep black text readable.
VERDICT_COLORS = {"better": LOAD_OK, "worse": LOAD_OVER}
VERDICT_FILLS = {"better": "#D7EFDB", "worse": "#F6D5D3"}

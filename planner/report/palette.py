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


# -- paper: the vendor pack, exported elevations and floor plans ---------------------------
INK = "#111111"          # body text
INK_MUTED = "#4A5259"    # captions, notes, secondary text
INK_HEADING = "#2B3A4A"  # headings, table rules, floor-plan outlines
INK_ERROR = "#B0231C"    # a figure over its limit, an error count
PAPER = "#FFFFFF"
RULE = MUTED             # thin rules and outlines
RULE_LIGHT = "#DDE1E5"   # table row rules
PANEL_FILL = "#F2F4F6"   # boxes of figures
PANEL_EDGE = "#C9CED3"
SEVERITY_FILLS = {"error": "#F4C7C3", "warning": "#FBE3B0", "info": "#DCE8F5"}  # finding rows, over-limit cells
AISLE_FILLS = {"cold": "#DCE8F5", "hot": "#F8DCD6"}
ELEVATION_FRAME = "#2B2F33"  # a rack's frame in an exported elevation
ELEVATION_EMPTY_U = "#F4F5F6"
ELEVATION_U_LINE = "#D5D9DD"
DEVICE_EDGE = "#1E2226"  # a device's outline in an exported elevation
AIR_TAG = "#8C959D"      # the 'air' tag of an air-cooled rack (liquid racks carry the CDU cyan)
SWATCH_EDGE = "#555555"  # a legend swatch's outline

# -- the workbook (openpyxl takes RRGGBB without '#') -----------------------------------------
SHEET_HEADER_FILL = "#DDE3EA"
SHEET_EMPTY_U_FILL = "#F7F7F7"
SHEET_GRID = "#808080"

# -- the desktop app: the rack view's dark canvas, the floor and its overview ------------------
CANVAS = "#23272E"
RACK_FRAME = "#3A3F48"
RACK_INTERIOR = "#15181D"
RACK_SLOT_LINE = "#2A2E35"
RACK_TEXT = "#D6DAE0"
RACK_MUTED_TEXT = "#8A919C"
RACK_HEADER = "#30353D"  # behind a rack's name and power bar
SELECTION = "#FFD24A"
# The campus around the racks: buildings a shade lighter than the canvas, halls a shade
# lighter again, each outlined.
BUILDING_FILL = "#2A2F37"
BUILDING_LINE = "#8C96A3"
HALL_FILL = "#30363F"
HALL_LINE = "#5F6B7A"
GHOST_FRAME = "#FFFFFF"  # the frame of a drop ghost over a rack's block on the zoomed-out floor
SEVERITY_COLORS = {"error": "#DC3232", "warning": "#E0A020", "info": "#3B82F6"}  # icons, invalid entries
FLOOR_UNKNOWN = "#5B616B"  # a rack block before its figures are known
FLOOR_ERROR = "#FF5A52"    # the outline of a rack block with an error
OVERVIEW_BACKGROUND = "#1B1E23"
OVERVIEW_FRAME = "#FFFFFF"  # the visible area in the floor overview
# the window's light panels (summary strip, dock titles) and messages
PANEL_BACKGROUND = "#F3F5F8"
PANEL_BORDER = "#D5D9E0"
PANEL_DIVIDER = "#E1E4EA"
PANEL_VALUE = "#1D2733"
PANEL_CAPTION = "#6B7480"
DOCK_TITLE = "#ECEFF3"
MESSAGE_ERROR = "#C62828"  # a refused entry's message under a form

# -- charts (white background) ------------------------------------------------------------
CHART_BACKGROUND = "#FFFFFF"
CHART_INK = "#222222"        # axes, labels, the cap line
NAMEPLATE = "#B7CCE6"        # nameplate bars behind the typical draw
NAMEPLATE_OVER = "#F2B3AE"
FACILITY_POWER = "#8A6A44"   # facility overhead (PUE) in the facility chart
HEAT = "#D9822B"
FEED_B = "#8FB0DA"           # feed B stacked on feed A (the accent)
AIR_HEAT = "#9AA5B1"
IDEAL = "#8A9299"            # ideal scaling, dashed


def sheet_color(color: str) -> str:
    """A palette colour as openpyxl writes it (RRGGBB)."""
    return color.lstrip("#").upper()

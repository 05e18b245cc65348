"""One palette: every colour the app and the exports paint with is named in
``planner.report.palette``; no module repeats a colour as a literal, and NetBox's device
roles carry the app's category colours."""

import re
from pathlib import Path

from planner.export.netbox import ROLE_COLORS
from planner.report import palette

ROOT = Path(__file__).resolve().parents[2]
HEX = re.compile(r"""["'](#?[0-9A-Fa-f]{6})["']|#[0-9A-Fa-f]{6}\b""")


def _code_lines(path: Path):
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("  #")[0] if not line.lstrip().startswith("#") else ""
        yield n, code


def test_no_colour_literal_outside_the_palette():
    found = []
    for folder in ("planner", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "planner" / "report" / "palette.py":
                continue
            for n, code in _code_lines(path):
                for m in HEX.finditer(code):
                    literal = m.group(1) or m.group(0)
                    if literal.startswith("#") or re.fullmatch(r"[0-9A-Fa-f]{6}", literal) and not literal.isdigit():
                        found.append(f"{path.relative_to(ROOT)}:{n}: {literal}")
    assert found == []


def test_netbox_device_roles_use_the_apps_category_colours():
    # NetBox wants 6 hex digits without '#'
    assert ROLE_COLORS == {k: v[1:].lower() for k, v in palette.CATEGORY_COLORS.items()}
    assert ROLE_COLORS["gpu_server"] == "2f6fdf"  # the GPU-server blue the README names

"""Names with terminal escape codes and control characters: printed inert by every
command, and drawn into SVG and PDF files that stay valid (findings 7 and 8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.plan.fileio import plan_to_json
from planner.text import clean_text

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = ROOT / "resources" / "catalog" / "builtin.json"
# Retitle the terminal, clear the screen, go back to the start of the line and print a
# fake verdict, ring the bell, a C1 CSI, and a right-to-left override.
EVIL = "Evil\x1b]0;pwned\x07\x1b[2J\r0 errors\x08\x9b31m\u202eX"
RAW = ["\x1b", "\x07", "\r", "\x08", "\x9b", "\u202e"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args], cwd=cwd, env=env, capture_output=True,
                          timeout=180)


@pytest.fixture(scope="module")
def evil(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("evil")
    data = json.loads(plan_to_json(build_template("medium")))
    # format 7, before names refused control characters: opened, its names hold them escaped
    data["schema_version"] = 7
    data["name"] = EVIL
    data["racks"][0]["name"] = EVIL[:100]
    data["placements"][0]["label"] = EVIL
    (folder / "plan.json").write_text(json.dumps(data))
    devices = json.loads(BUILTIN.read_text())["devices"]
    node = dict(next(d for d in devices if d["id"] == "hgx-h100-8"))
    node.update(vendor=EVIL, model=EVIL, source=EVIL)
    (folder / "cat.json").write_text(json.dumps({"schema_version": 1, "devices": [node]}))
    return folder


def assert_inert(out: bytes, where: str) -> None:
    text = out.decode("utf-8")
    for ch in RAW:
        assert ch not in text, f"{where}: raw {ch!r} reaches the terminal"


@pytest.mark.parametrize("args", [["check", "plan.json"], ["--catalog", "cat.json", "check", "plan.json"],
                                  ["--catalog", "cat.json", "fabrics", "plan.json"],
                                  ["--catalog", "cat.json", "catalog"]],
                         ids=["check", "check-catalog", "fabrics", "catalog"])
def test_commands_print_names_with_control_characters_escaped(evil, args):
    done = run(*args, cwd=evil)
    assert done.returncode in (0, 1), done.stderr
    assert_inert(done.stdout, " ".join(args))
    assert b"Evil\\x1b]0;pwned\\x07" in done.stdout  # shown, escaped, not dropped


def test_error_messages_escape_control_characters(evil, tmp_path):
    data = json.loads((evil / "plan.json").read_text())
    data["placements"][0]["device"] = "no-such\x1b[2J\rdevice"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    done = run("check", "bad.json", cwd=tmp_path)
    assert done.returncode == 2
    assert_inert(done.stderr, "error message")
    assert len(done.stderr.decode().strip().splitlines()) == 1


def test_svg_and_pdf_of_names_with_control_characters_are_valid(evil):
    done = run("export", "plan.json", "-o", "plan.svg", cwd=evil)
    assert done.returncode == 0, done.stderr
    root = ET.parse(evil / "plan.svg").getroot()  # was: not well-formed (invalid token)
    texts = " ".join("".join(el.itertext()) for el in root.iter() if el.tag.endswith("text"))
    assert "Evil\\x1b]0;pwned\\x07" in texts  # the name is there, its control characters as escapes
    done = run("export", "plan.json", "-o", "plan.pdf", cwd=evil)
    assert done.returncode == 0, done.stderr


def test_one_function_makes_text_safe_for_each_output():
    assert clean_text("a\x1b[2J\r\nb\tc", "terminal") == "a\\x1b[2J\\r\nb\tc"
    assert clean_text("a\x1b\nb", "line") == "a\\x1b\\nb"
    assert clean_text("a\x1b\x00\ufffeb\tc\n", "xml") == "ab\tc\n"

"""Fault injection for the files Qt writes itself (the PDF vendor pack, SVG and PNG
elevations) and for autosave: each writing call of the planner's writer fails in turn, and
the real command runs under a file-size limit at several sizes (tests/faults.py). The old
file stays intact, the message names the cause, no temporary is left."""

from __future__ import annotations

import errno
import json

import pytest

import planner.safefile as safefile
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import plan_to_json, save_plan
from tests.faults import CAUSES, each_failure, run_with_file_limit
from ui.export.files import export_drawing
from ui.recovery import AutosaveManager

CODES = [errno.ENOSPC, errno.EIO, errno.EACCES]


@pytest.mark.parametrize("suffix", [".pdf", ".svg", ".png"])
@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_each_writing_call_of_a_drawing_fails_in_turn(qtbot, tmp_path, monkeypatch, suffix, code):
    path = tmp_path / f"r{suffix}"
    old = {}

    def prepare():
        for p in tmp_path.iterdir():
            p.unlink()
        export_drawing(build_template("single-node"), default_catalog(), path)
        old["bytes"] = path.read_bytes()

    def failed(message):
        assert CAUSES[code] in message, message
        assert path.read_bytes() == old["bytes"] and [p.name for p in tmp_path.iterdir()] == [path.name]

    made = each_failure(monkeypatch, [safefile], code, prepare,
                        lambda: export_drawing(build_template("medium"), default_catalog(), path), failed,
                        lambda: path.read_bytes() != old["bytes"])
    assert made >= 4


@pytest.mark.parametrize("out", ["r.pdf", "r.svg", "r.png"])
def test_a_file_size_limit_leaves_the_old_drawing(tmp_path, out):
    save_plan(build_template("single-node"), tmp_path / "p.json", keep=0)
    assert run_with_file_limit(1 << 30, "export", "p.json", "-o", out, cwd=tmp_path).returncode == 0
    before = (tmp_path / out).read_bytes()
    save_plan(build_template("medium"), tmp_path / "p.json", keep=0)
    for limit in (1, 1024, 16384, len(before)):
        done = run_with_file_limit(limit, "export", "p.json", "-o", out, cwd=tmp_path)
        assert done.returncode == 2, (limit, done.stderr)
        assert ("larger than this disk or account allows" in done.stderr
                or "the disk may be full" in done.stderr), done.stderr
        assert (tmp_path / out).read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["p.json", out])


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_each_writing_call_of_an_autosave_fails_in_turn(qtbot, tmp_path, monkeypatch, code):
    text = {"plan": plan_to_json(build_template("single-node"))}
    manager = AutosaveManager(lambda: text["plan"], lambda: True, folder=tmp_path / "rec")
    reasons = []
    manager.failed.connect(reasons.append)
    old = {}

    def prepare():
        text["plan"] = plan_to_json(build_template("single-node"))
        assert manager.save_now()
        old["bytes"] = manager.copy_path.read_bytes()
        text["plan"] = plan_to_json(build_template("medium"))

    def save():
        if not manager.save_now():
            raise RuntimeError(reasons[-1])

    def failed(message):
        assert message.startswith("autosave failed:") and CAUSES[code] in message, message
        # a whole plan: the last good copy, or this one when only its note (.meta.json) failed
        assert json.loads(manager.copy_path.read_bytes()) in (json.loads(old["bytes"]), json.loads(text["plan"]))
        assert sorted(p.name for p in manager.folder.iterdir() if p.name.startswith(".~gcp-tmp~")) == []

    each_failure(monkeypatch, [safefile], code, prepare, save, failed,
                 lambda: json.loads(manager.copy_path.read_text())["name"] == build_template("medium").name)
    manager.stop()

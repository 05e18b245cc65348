"""A recovery folder full of damaged notes never stops the app from starting.

Each ``session-*.meta.json`` below is wrong in another way (a time far in the future or
the past, NaN, the wrong type, not JSON, not UTF-8, nested deeply, huge); the real app
(``ui.app.run``) starts, logs what it skipped, and offers each plan copy dated by its
file instead.
"""

from __future__ import annotations

import time

import pytest

from planner.design.templates import build_template
from planner.plan.fileio import plan_to_json
from tests.ui.app_runner import run_app
from ui.recovery import find_recoverable
from ui.session import STATE_DIR_ENV

BAD_NOTES = {
    "far-future": b'{"saved_at": 1e20, "source": "", "name": "x"}',
    "far-past": b'{"saved_at": -1e12}',
    "nan": b'{"saved_at": NaN}',
    "infinity": b'{"saved_at": Infinity}',
    "bool": b'{"saved_at": true}',
    "string": b'{"saved_at": "yesterday", "name": 5}',
    "source-list": b'{"saved_at": 1700000000, "source": ["a"], "name": {"x": 1}}',
    "not-json": b"{saved_at: 17",
    "not-utf8": b'{"saved_at": 1700000000, "name": "\xff\xfe"}',
    "array": b"[1, 2, 3]",
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "huge": b'{"saved_at": 1700000000, "name": "' + b"x" * 300_000 + b'"}',
    "empty": b"",
}


@pytest.fixture
def damaged_folder(tmp_path, monkeypatch):
    recovery = tmp_path / "state" / "recovery"
    recovery.mkdir(parents=True)
    plan = plan_to_json(build_template("single-node")).encode()
    for i, (label, note) in enumerate(BAD_NOTES.items()):
        (recovery / f"session-{i:02d}-{label}.json").write_bytes(plan)
        (recovery / f"session-{i:02d}-{label}.meta.json").write_bytes(note)
    monkeypatch.setenv(STATE_DIR_ENV, str(tmp_path / "state"))
    return recovery


def test_damaged_notes_are_skipped_with_a_log_line_and_copies_dated_by_their_file(damaged_folder, caplog):
    copies = find_recoverable(damaged_folder)
    assert len(copies) == len(BAD_NOTES)
    now = time.time()
    assert all(abs(c.saved_at.timestamp() - now) < 600 for c in copies)  # dated by their files: just now
    skipped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("recovery note ")]
    assert len(skipped) == len(BAD_NOTES), skipped
    assert all("\n" not in m and len(m) < 400 for m in skipped)


def test_the_app_starts_on_a_folder_of_damaged_notes(qtbot, damaged_folder, monkeypatch):
    seen = {}
    prompts = run_app(monkeypatch, [], lambda window: seen.update(title=window.windowTitle()))
    assert seen["title"]  # the main window came up
    assert len(prompts) >= 1  # the plans themselves are fine and are offered

"""The Sweep dialog's "Run on" choice: a Ray cluster when Ray is installed (the rows as the
process pool gives them), a disabled entry that says how to install Ray when it is not."""

from __future__ import annotations

import ui.sweep_dialog
from tests.planner.test_sweep_ray import local_ray  # noqa: F401 - a fixture of the tests below


def test_ray_entry_is_disabled_and_says_how_to_install_without_ray(window, qtbot, monkeypatch):
    monkeypatch.setattr(ui.sweep_dialog, "ray_installed", lambda: False)
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    item = dialog.engine.model().item(1)
    assert dialog.engine.itemText(1) == "Ray cluster" and not item.isEnabled()
    assert 'pip install -e ".[cluster]"' in item.toolTip()
    assert dialog.engine.currentData() == "process" and not dialog.address.isEnabled()


def test_sweep_dialog_runs_on_ray_with_the_pools_rows(window, qtbot, local_ray):
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText("8, 16")
    assert dialog.start()  # the process pool first
    qtbot.waitUntil(lambda: dialog.thread is None, timeout=120_000)
    pool_rows = list(dialog.rows)
    dialog.engine.setCurrentIndex(1)
    assert dialog.address.isEnabled()
    assert dialog.start()
    assert "Ray" in dialog.message.text()
    qtbot.waitUntil(lambda: dialog.thread is None, timeout=120_000)
    assert dialog.rows == pool_rows and [r["gpus"] for r in dialog.rows] == [64, 128]

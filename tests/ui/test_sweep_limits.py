"""The Sweep dialog says how many worker processes run (one per core at most) and refuses a
bad GPU rack cap before anything runs."""

from planner.sweep import available_cores


def test_the_dialog_says_how_many_workers_run_and_they_are_no_more_than_the_cores(window, qtbot):
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText(", ".join(str(n) for n in range(4, 204, 2)))  # 100 points
    assert dialog.start()
    workers = min(available_cores(), 100)
    assert f"Running in {workers} worker process" in dialog.message.text()
    assert "one per core available" in dialog.message.text()
    dialog.cancel()
    qtbot.waitUntil(lambda: dialog.thread is None, timeout=120_000)


def test_a_negative_rack_cap_is_refused_before_the_run(window, qtbot):
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.caps.setText("30, -5")
    assert "power_cap_kw" in dialog.count.text() and not dialog.run_button.isEnabled()
    dialog.caps.setText("30, 40")
    # the default node counts (8, 16 and 32: the plan's 16 halved and doubled) x 2 caps
    assert dialog.count.text().startswith("6 points") and dialog.run_button.isEnabled()

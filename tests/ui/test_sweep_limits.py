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


def test_an_inference_plans_sweep_is_read_by_the_output_it_serves(window, qtbot):
    """The table and the Pareto axis of an inference plan: output tokens served, not the
    training figures an inference plan has none of."""
    from planner.design.build import design
    from planner.design.intent import Intent

    plan = design(Intent(system="dgx-h100", inference=True, model="llama3-70b", requests_per_s=20)).plan
    window.doc.replace(plan, None)
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    assert dialog.y_axis.currentData() == "served_tokens_per_s"
    assert dialog.y_axis.currentText() == "Inference output served"
    dialog._fill_table()
    headings = [dialog.table.horizontalHeaderItem(i).text() for i in range(dialog.table.columnCount())]
    assert "Inference output served" in headings and "Training throughput" not in headings


def test_a_long_system_name_is_elided_in_the_list_and_whole_in_its_tooltip(window, qtbot):
    from PySide6.QtCore import Qt

    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.show()
    items = [dialog.systems.item(i) for i in range(dialog.systems.count())]
    titles = {d.title for d in window.doc.catalog.by_category("gpu_server")}
    # no sideways scrolling to read a name: each is elided in the row and given whole on hover
    assert dialog.systems.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    assert {i.toolTip() for i in items} == titles
    assert max(len(t) for t in titles) > 60  # the catalog has names longer than the list is wide


def test_the_fields_column_keeps_its_width_as_the_messages_change(window, qtbot):
    """A refusal ("Nodes: 'abc' is not a number ...") and a count ("12 points (...)") take
    turns under the fields: the column wraps them, it does not widen and narrow with them."""
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QSplitter

    split = next(s for s in dialog.findChildren(QSplitter) if s.orientation() == Qt.Orientation.Horizontal)
    before = split.sizes()[0]
    dialog.nodes.setText("abc, " * 20)
    qtbot.wait(50)
    assert "not" in dialog.count.text() and split.sizes()[0] == before
    dialog.message.setText("Saved 1,234 points to " + "/a/very/long/folder/name" * 8)
    qtbot.wait(50)
    assert split.sizes()[0] == before
    dialog.nodes.setText("16")
    qtbot.wait(50)
    assert split.sizes()[0] == before

"""Nothing cut at the default size (1440 x 900): every label, button, entry, tab and
item-view row of the main window either fits its room or is elided with its whole text
in a tooltip."""

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QApplication, QLabel, QLineEdit, QTabBar,
                               QTreeView)


def _shown(widget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.visibleRegion().boundingRect().width() > 0


def _says_all(tip: str, text: str) -> bool:
    return bool(tip) and text.replace("&", "").strip() in tip.replace("&", "")


def _labels_and_buttons(window) -> list[str]:
    cut = []
    for label in window.findChildren(QLabel):
        text = label.text()
        if not _shown(label) or label.wordWrap() or not text or label.textFormat() == Qt.TextFormat.RichText or "<" in text or label.pixmap():
            continue
        if label.fontMetrics().horizontalAdvance(text) > label.contentsRect().width() + 1 \
                and not _says_all(label.toolTip(), text):
            cut.append(f"label {text!r}")
    for button in window.findChildren(QAbstractButton):
        text = button.text().replace("&", "")
        if not _shown(button) or not text:
            continue
        room = button.width() - (button.iconSize().width() + 8 if not button.icon().isNull() else 0) - 8
        if button.fontMetrics().horizontalAdvance(text) > room and not _says_all(button.toolTip(), text):
            cut.append(f"button {text!r}")
    return cut


def _entries(window) -> list[str]:
    cut = []
    for entry in window.findChildren(QLineEdit):
        text = entry.text()
        if not _shown(entry) or not text or entry.parent() is not None and "QComboBox" in type(entry.parent()).__name__:
            continue
        if entry.fontMetrics().horizontalAdvance(text) > entry.width() - 8 and not _says_all(entry.toolTip(), text):
            cut.append(f"entry {entry.objectName() or type(entry.parent()).__name__}: {text!r}")
    return cut


def _tabs(window) -> list[str]:
    cut = []
    for bar in window.findChildren(QTabBar):
        if not _shown(bar):
            continue
        for i in range(bar.count()):
            text = bar.tabText(i).replace("&", "")
            room = bar.tabRect(i).width() - 8
            if bar.shape() in (QTabBar.Shape.RoundedWest, QTabBar.Shape.RoundedEast):
                room = bar.tabRect(i).height() - 8
            if bar.fontMetrics().horizontalAdvance(text) > room and not _says_all(bar.tabToolTip(i), text):
                cut.append(f"tab {text!r}")
    return cut


def _wraps_within(view, text: str, width: int, height: int) -> bool:
    needed = view.fontMetrics().boundingRect(QRect(0, 0, max(1, width), 100_000),
                                             int(Qt.TextFlag.TextWordWrap), text).height()
    return needed <= height + 1


def _rows(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    cut = []
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        try:
            columns = model.columnCount(parent)
        except TypeError:  # a list model: one column
            columns = 1
        for row in range(model.rowCount(parent)):
            for col in range(columns):
                index = model.index(row, col, parent)
                rect = view.visualRect(index)
                if not rect.isValid() or not rect.intersects(view.viewport().rect()):
                    continue
                text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
                widest = max((view.fontMetrics().horizontalAdvance(t) for t in text.splitlines()), default=0)
                icon = view.iconSize().width() + 6 if index.data(Qt.ItemDataRole.DecorationRole) is not None else 0
                if view.wordWrap() and _wraps_within(view, text, rect.width() - icon - 8, rect.height()):
                    continue
                if widest + icon + 8 > rect.width():
                    elides = view.textElideMode() != Qt.TextElideMode.ElideNone
                    tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
                    if not (elides and all(_says_all(tip, t) for t in text.splitlines())):
                        cut.append(f"row {text!r} in {view.objectName() or type(view).__name__}")
            if isinstance(view, QTreeView) and view.isExpanded(model.index(row, 0, parent)):
                stack.append(model.index(row, 0, parent))
    return cut


@pytest.fixture
def laptop(window):
    window.resize(1440, 900)
    window._default_dock_sizes()
    QApplication.processEvents()
    return window


def test_no_text_in_the_main_window_is_cut_without_an_ellipsis_and_a_tooltip(laptop):
    window = laptop
    cut = _labels_and_buttons(window) + _entries(window) + _tabs(window)
    for view in window.findChildren(QAbstractItemView):
        if _shown(view):
            cut += _rows(view)
    assert not cut, "\n".join(cut)


def test_a_long_plan_name_in_the_inspector_is_whole_in_its_tooltip(laptop):
    field = laptop.inspector.findChild(QLineEdit)
    assert field is not None and field.text() == laptop.doc.plan.name
    assert laptop.doc.plan.name in field.toolTip()


def test_every_row_of_f1_is_whole(laptop, qtbot):
    dialog = laptop.show_shortcuts()
    qtbot.waitExposed(dialog)
    assert dialog.table.rowCount() > 10
    assert not _rows(dialog.table), _rows(dialog.table)
    longest = max((dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())), key=len)
    assert dialog.table.fontMetrics().horizontalAdvance(longest) <= dialog.table.columnWidth(1)
    dialog.close()


def test_every_settings_tab_and_its_fields_fit_or_scroll(laptop):
    panel = laptop.settings_panel
    bar = panel.tabBar()
    assert bar.usesScrollButtons() and bar.elideMode() == Qt.TextElideMode.ElideNone  # scroll, never "Workloa"
    for i in range(panel.count()):
        panel.setCurrentIndex(i)
        QApplication.processEvents()
        cut = _labels_and_buttons(panel) + _entries(panel)
        assert not cut, (panel.tabText(i), cut)


def test_the_summary_strip_shows_a_million_gpu_campus_whole(laptop):
    # campus-1m's figures, the largest the plan limits (25,000 racks) come to
    from dataclasses import replace

    report = laptop.doc.report
    sections = dict(report.sections)
    sections["network"] = replace(sections["network"], tokens_per_s=294_748_023.0)
    big = replace(report, totals=replace(report.totals, gpus=1_066_968, nodes=266_742, racks=22_582, cdus=1_171,
                                         cdus_placed=1_216), sections=sections)
    laptop.summary.show_report(big)
    QApplication.processEvents()
    assert [laptop.summary.text(k) for k in ("gpus", "nodes", "racks", "tokens_per_s")] == [
        "1,066,968", "266,742", "22,582", "294,748,023"]
    assert not _labels_and_buttons(laptop.summary)

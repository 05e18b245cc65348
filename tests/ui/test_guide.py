"""Help > Guide: the user-guide pages in a searchable browser, a page per concept and a
section per finding code; a finding in the checks list opens its section."""

import ast
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

import planner
from planner.paths import help_dir
from ui.help_guide import GuideDialog

CODE = re.compile(r"^(rack|cooling|network|storage|workload|cost|device|plan|floor|facility|catalog|goodput|design|schedule)\.[a-z_]+(\.[a-z_]+)*$")


def _codes_in_the_core() -> set[str]:
    """Every finding code the core can raise: the dotted string constants of planner/."""
    codes = set()
    for path in Path(planner.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                codes.add(node.value)
    return codes


def test_every_finding_code_has_a_section_of_its_own():
    headings = set(re.findall(r"^### (\S+)$", (help_dir() / "findings.md").read_text(encoding="utf-8"), re.M))
    codes = _codes_in_the_core()
    assert {"rack.power.over_cap", "workload.parallelism.mismatch", "cooling.cdu.short"} <= codes  # the scan works
    assert not codes - headings, sorted(codes - headings)


def test_every_page_the_contents_lists_exists_with_recompute_and_findings():
    index = (help_dir() / "index.md").read_text(encoding="utf-8")
    pages = re.findall(r"\]\(([a-z-]+\.md)\)", index)
    assert {"power-basis.md", "fabric.md", "recompute.md", "findings.md"} <= set(pages)
    assert all((help_dir() / p).is_file() for p in pages), [p for p in pages if not (help_dir() / p).is_file()]


def test_the_guide_opens_searches_and_follows_links(window, qtbot):
    from PySide6.QtCore import QUrl

    assert window.guide_action in window.menuBar().actions()[-1].menu().actions()
    dialog = window.show_guide()
    qtbot.addWidget(dialog)
    assert dialog.page == "index.md" and "user guide" in dialog.browser.toPlainText()
    dialog.search.setText("Power basis")
    assert dialog.find_next() and dialog.browser.textCursor().selectedText() == "Power basis"
    dialog.search.setText("no such words anywhere")
    assert not dialog.find_next() and dialog.not_found.text() == "Not on this page"
    dialog.browser.setSource(QUrl("recompute.md"))  # a link of the contents page
    assert "selective (attention)" in dialog.browser.toPlainText()


def test_a_finding_in_the_checks_list_opens_its_section(window, qtbot):
    from ui.checks_panel import CODE_ROLE

    model = window.checks.model()
    codes = [model.index(r, 0).data(CODE_ROLE) for r in range(model.rowCount())]
    assert "rack.power.nameplate_over_cap" in codes  # the medium template's GPU racks at typical draw
    with qtbot.waitSignal(window.checks.helpRequested) as asked:
        window.checks.helpRequested.emit("rack.power.nameplate_over_cap")
    dialog = window.guide  # the guide the request opened
    qtbot.addWidget(dialog)
    assert asked.args == ["rack.power.nameplate_over_cap"]
    assert dialog.page == "findings.md"
    assert dialog.browser.textCursor().selectedText() == "rack.power.nameplate_over_cap"
    assert "plan on the nameplate basis" in dialog.browser.toPlainText()


def test_each_finding_with_an_automatic_fix_says_what_it_does():
    text = (help_dir() / "findings.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^### (\S+)\n(.*?)(?=^##|\Z)", text, re.M | re.S))
    fixed = {"rack.power.over_cap", "rack.power.feed_loss", "rack.power.outlets", "rack.power.pdu_positions",
             "rack.cooling.liquid_device_in_air_rack", "rack.weight.over_limit", "rack.floor.over_rating",
             "cooling.cdu.short", "network.ports.short", "workload.parallelism.mismatch",
             "workload.pipeline.bubble", "workload.batch.uneven", "workload.batch.fractional_sequences"}
    assert [c for c in sorted(fixed) if "**Fix:**" not in sections[c]] == []
    assert "**Fix:**" not in sections["rack.power.nameplate_over_cap"]


@pytest.mark.parametrize("keys", [(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
                                  (Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)])
def test_escape_and_ctrl_w_close_the_guide(qtbot, keys):
    dialog = GuideDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.windowHandle().requestActivate()  # offscreen, a shown window is not made active by itself
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    dialog.search.setFocus()
    QTest.keyClick(dialog.search, *keys)
    assert not dialog.isVisible()

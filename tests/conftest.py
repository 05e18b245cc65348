import os

from tests.system_tools import require_tool

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_tool(*names): runs these system tools; skipped without them, "
                                       "failed under CI (tests/system_tools.py)")


def pytest_runtest_setup(item):
    for mark in item.iter_markers("needs_tool"):
        require_tool(*mark.args)

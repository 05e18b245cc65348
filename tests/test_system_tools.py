"""A missing system tool skips a test with the reason outside CI and fails it under CI."""

import pytest

from tests.system_tools import require_tool

ABSENT = "no-such-tool-on-any-path"


@pytest.mark.parametrize("ci", ["", "0", "false"])
def test_outside_ci_a_missing_tool_skips_and_names_it(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match=f"needs {ABSENT}"):
        require_tool("sh", ABSENT)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_under_ci_a_missing_tool_fails(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match=f"CI must have {ABSENT}"):
        require_tool(ABSENT)
    with pytest.raises(pytest.fail.Exception, match=r"pdftotext \(poppler-utils\)"):
        monkeypatch.setenv("PATH", "/nonexistent")
        require_tool("pdftotext")


def test_tools_on_the_path_pass(monkeypatch):
    monkeypatch.setenv("CI", "true")
    require_tool("sh")


def test_the_mark_applies_the_same_rule(monkeypatch):
    from tests.conftest import pytest_runtest_setup

    class Marked:  # a test carrying @pytest.mark.needs_tool(ABSENT)
        def iter_markers(self, name):
            return [pytest.mark.needs_tool(ABSENT).mark] if name == "needs_tool" else []

    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match=ABSENT):
        pytest_runtest_setup(Marked())
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=ABSENT):
        pytest_runtest_setup(Marked())

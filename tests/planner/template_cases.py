"""Which templates the tests that run every template build."""

from __future__ import annotations

from planner.design.templates import template_names

# campus-1m (21,097 racks, seconds to design and minutes to export in every format) has its
# own tests, which build it once: tests/planner/test_campus_1m_template.py.
OWN_TESTS = {"campus-1m"}


def everyday_templates() -> list[str]:
    """Every template but those tested on their own."""
    return [n for n in template_names() if n not in OWN_TESTS]

"""The report's findings as rows that follow an edit by difference.

``Report.findings`` lists errors, then warnings, then info; within a severity the racks'
findings in plan order, then the plan-wide ones. ``FindingRows`` keeps that list as
segments -- one per severity and rack, one per severity for the plan-wide findings -- and
their lengths, so that after a drop the rows that change are found from the change set
(the racks it names, and the plan-wide findings) without building or comparing the whole
list: a campus of 8,000 racks has 7,500 findings, and a drop touches two racks. The checks
list groups the rows it keeps (``planner.report.finding_groups``) into the lines it shows.
"""

from __future__ import annotations

from planner.findings import Finding
from planner.plan.changes import ChangeSet
from planner.report.model import Report

SEVERITIES = ("error", "warning", "info")

Edit = tuple[int, int, list[Finding]]
"""(row, rows removed there, findings inserted there), applied in order."""


class FindingRows:
    """The findings of the last report shown, in ``Report.findings`` order (``rows``)."""

    def __init__(self) -> None:
        self.rows: list[Finding] = []
        self._order: tuple[str, ...] | None = None
        self._index: dict[str, int] = {}  # rack id -> position in the rack order
        self._counts: list[int] = []  # segment lengths, severity-major

    def reset(self, report: Report) -> list[Finding]:
        """Rows for ``report`` from scratch."""
        order = report.rack_order
        self.rows = list(report.findings)
        self._order = order
        self._index = {rid: i for i, rid in enumerate(order)}
        width = len(order) + 1  # the racks, then the plan-wide findings
        counts = [0] * (len(SEVERITIES) * width)
        where = {s: k * width for k, s in enumerate(SEVERITIES)}
        results = report.rack_results
        for i, rid in enumerate(order):
            for f in results[rid].findings:
                counts[where[f.severity] + i] += 1
        for f in report.global_findings:
            counts[where[f.severity] + len(order)] += 1
        self._counts = counts
        return self.rows

    def update(self, report: Report, changes: ChangeSet | None) -> list[Edit] | None:
        """The edits that turn ``rows`` into ``report.findings`` (and applies them to ``rows``),
        or None when the change set does not say which racks changed (a full evaluation, a
        new rack order) or there were no rows: then ``reset``."""
        if (changes is None or changes.needs_full or changes.structure or self._order is None
                or report.rack_order is not self._order or not self.rows):
            return None
        if any(rid not in self._index or report.rack(rid) is None for rid in changes.racks):
            return None
        width = len(self._order) + 1
        racks = [(self._index[rid], report.rack(rid).findings) for rid in changes.racks]
        racks.append((len(self._order), report.global_findings))
        segments = sorted((k * width + position, [f for f in findings if f.severity == severity])
                          for position, findings in racks for k, severity in enumerate(SEVERITIES))
        edits: list[Edit] = []
        start, done = 0, 0  # the first row of segment ``done``
        for segment, new in segments:
            start += sum(self._counts[done:segment])  # the segments between, untouched
            self._replace(segment, start, new, edits)
            start, done = start + len(new), segment + 1
        return edits

    def _replace(self, segment: int, start: int, new: list[Finding], edits: list[Edit]) -> None:
        old = self.rows[start:start + self._counts[segment]]
        if old == new:
            return
        same = 0  # rows kept at the segment's start and end
        while same < min(len(old), len(new)) and old[same] == new[same]:
            same += 1
        tail = 0
        while tail < min(len(old), len(new)) - same and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        removed, inserted = len(old) - same - tail, new[same:len(new) - tail]
        row = start + same
        self.rows[row:row + removed] = inserted
        edits.append((row, removed, inserted))
        self._counts[segment] = len(new)

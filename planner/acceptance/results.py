"""Measured results read back: nccl-tests' stdout table, fio's JSON and ib_write_bw's table,
each recognised by its content, judged against the acceptance pack.

Formats (as their tools print them): nccl-tests (``doc/PERFORMANCE.md``, README) prints a
table ``size count type redop root time algbw busbw #wrong`` for out-of-place then in-place,
one row per message size, and ends with ``# Avg bus bandwidth : X``; fio
``--output-format=json`` gives ``jobs[].write.bw_bytes`` / ``read.bw_bytes`` (bytes/s), and
``client_stats`` for ``--client`` runs; perftest's ``ib_write_bw --report_gbits`` prints
``#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]``; DCGM's diagnostic
JSON (``planner.acceptance.dcgm``).

A log passes only the test it covers: nccl-tests lists its ranks ("#  Rank N ... on HOST
device D"), and a run on fewer GPUs than the test's ring (2 of 16 nodes for the cluster
test) fails it, naming the subset. Every test of the pack is then passed, failed or missing
(``FolderResults.missing``): a vendor signs only when all passed.

Why it is long: one reader per tool's format (nccl-tests, fio, ib_write_bw), the verdict and
the missing test they become, and the folder read that joins them.
"""

from __future__ import annotations

import math
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from planner.acceptance.criteria import COLLECTIVES, HAND_CHECKED, AcceptancePack
from planner.acceptance.dcgm import is_dcgm_json, read_dcgm
from planner.errors import PlannerError
from planner.numbers import counted
from planner.readfile import read_limited


class ResultError(PlannerError):
    """A log that cannot be judged: one line naming the file and line."""


@dataclass(frozen=True, slots=True)
class Verdict:
    test_id: str
    file: str
    measured_gbs: float | None  # None: a test judged by what it reports (DCGM)
    expected_gbs: float | None
    threshold_gbs: float | None
    line_rate_gbs: float | None = None  # the links' line rate the test runs over
    title: str = ""  # the test's title in the pack: what ran where
    problem: str = ""  # why it fails whatever its figure: a subset of the GPUs ran, a diagnostic reports Fail
    reported: str = ""  # a test judged by what it reports (DCGM): what it said

    @property
    def passed(self) -> bool | None:
        """None: a result of no test in the plan's pack (nothing to judge it against)."""
        if self.problem:
            return False
        if self.reported:
            return True
        return None if self.threshold_gbs is None or self.measured_gbs is None else \
            self.measured_gbs >= self.threshold_gbs

    @property
    def share_of_line_rate(self) -> float | None:
        """measured / line rate (the planning guide's 75 % rule reads nccl-tests' busbw this way)."""
        return None if not self.line_rate_gbs or self.measured_gbs is None else self.measured_gbs / self.line_rate_gbs

    def line(self) -> str:
        measured = "" if self.measured_gbs is None else f"measured {self.measured_gbs:,.1f} GB/s"
        if self.passed is None:
            return f"SKIP {self.test_id}: {measured + ', ' if measured else ''}not a test of this plan  [{self.file}]"
        word = "PASS" if self.passed else "FAIL"
        exp = "" if self.expected_gbs is None else f" (expected {self.expected_gbs:,.1f}, pass at {self.threshold_gbs:,.1f})"
        said = "; ".join(x for x in (measured + exp, self.problem or self.reported) if x)
        return f"{word} {self.test_id}: {said}  [{self.file}]"

    def as_dict(self) -> dict:
        return {"test": self.test_id, "file": self.file, "passed": self.passed, "measured_gbs": self.measured_gbs,
                "expected_gbs": self.expected_gbs, "threshold_gbs": self.threshold_gbs,
                "line_rate_gbs": self.line_rate_gbs, "share_of_line_rate": self.share_of_line_rate,
                "problem": self.problem, "reported": self.reported}


@dataclass(frozen=True, slots=True)
class Missing:
    """A test of the pack without (enough) results: never a pass."""

    test_id: str
    title: str
    why: str

    def line(self) -> str:
        return f"MISSING {self.test_id}: {self.why} ({self.title})"

    def as_dict(self) -> dict:
        return {"test": self.test_id, "title": self.title, "why": self.why}


@dataclass(frozen=True, slots=True)
class NcclRun:
    binary: str  # e.g. all_reduce_perf
    ranks: int
    hosts: tuple[str, ...]  # the hosts the ranks ran on, in the log's order
    rows: tuple[tuple[int, float, float], ...]  # (size B, out-of-place busbw, in-place busbw)
    avg_busbw: float


_NCCL_HEADER = re.compile(r"^#\s+size\s+count\s+type\s+redop\s+root\s+time\s+algbw\s+busbw\s+#wrong")
_AVG = re.compile(r"^#?\s*Avg bus bandwidth\s*:\s*(\S+)")
# what launchers put before each line: srun -l "0: ", Open MPI --tag-output "[1,0]<stdout>:"
_PREFIX = re.compile(r"^(?:\s*\d+:\s|.*?<stdout>:)")


_HEADER_START = re.compile(r"#\s+size\s+count")
_ON_HOST = re.compile(r"\son\s+(\S+)\s+device\s")


def _nccl_header_at_line_start(text: str) -> bool:
    """A line starting '# size count'. Not ``re.M`` with '^': that search tries every position
    of a 50 MB log (a second, the GIL held throughout); the literal '#' is found at once."""
    return any(m.start() == 0 or text[m.start() - 1] == "\n" for m in _HEADER_START.finditer(text))


def _unprefixed(line: str) -> str:
    return _PREFIX.sub("", line, count=1)


def _not_a_row(line: str) -> bool:
    """Comments, NCCL's own INFO/WARN lines and the closing 'Out of bounds' line."""
    text = line.strip()
    return not text or text.startswith("#") or " NCCL " in text or text.startswith("Out of bounds")


def parse_nccl(text: str, name: str) -> NcclRun:
    lines = [_unprefixed(ln) for ln in text.splitlines()]
    key = name.replace("-", "_")
    binary = next((b for k, b in COLLECTIVES.items() if b in text or k in key), "all_reduce_perf")
    rank_lines = [ln for ln in lines if re.match(r"^#\s+Rank\s+\d+", ln)]
    hosts = tuple(dict.fromkeys(m.group(1) for ln in rank_lines if (m := _ON_HOST.search(ln))))
    rows, avg, in_table = [], None, False
    for no, ln in enumerate(lines, 1):
        if _NCCL_HEADER.match(ln):
            in_table = True
            continue
        m = _AVG.match(ln.strip())
        if m:
            try:
                avg = float(m.group(1))
            except ValueError:
                raise ResultError(f"{name}, line {no}: cannot read the average bus bandwidth: {ln.strip()!r}") from None
            continue
        if not in_table or _not_a_row(ln):
            continue
        f = ln.split()
        if len(f) != 13:
            raise ResultError(f"{name}, line {no}: a table row of 13 columns expected (size count type redop root, "
                              f"then time algbw busbw #wrong out-of-place and in-place), found {len(f)}: the log is "
                              "truncated or not nccl-tests output")
        for col, label in ((8, "out-of-place"), (12, "in-place")):
            if f[col] not in ("0", "N/A"):
                raise ResultError(f"{name}, line {no}: {f[col]} wrong values ({label}) at {f[0]} bytes: the "
                                  "collective returned wrong data; the run fails whatever its bandwidth")
        try:
            rows.append((int(f[0]), float(f[7]), float(f[11])))
        except ValueError:
            raise ResultError(f"{name}, line {no}: cannot read the size or busbw: {ln.strip()!r}") from None
    if not rows:
        raise ResultError(f"{name}: no nccl-tests result rows after the '# size count type ...' header")
    if avg is None:
        raise ResultError(f"{name}, line {len(lines)}: the log ends before '# Avg bus bandwidth': the run was cut "
                          "short (truncated log)")
    return NcclRun(binary, len(rank_lines), hosts, tuple(rows), avg)


def fio_gbs(data: dict, name: str) -> tuple[str, float]:
    """('write' or 'read', GB/s) of a fio JSON result: the 'All clients' total of a --client run,
    else the sum of its jobs."""
    jobs = data.get("client_stats") or data.get("jobs")
    if not isinstance(jobs, list) or not jobs:
        raise ResultError(f"{name}: a fio JSON result without 'jobs'")
    total = [j for j in jobs if isinstance(j, dict) and j.get("jobname") == "All clients"]
    jobs = total or jobs
    sums = {"write": 0.0, "read": 0.0}
    for j in jobs:
        for rw in sums:
            part = j.get(rw) if isinstance(j, dict) else None
            if isinstance(part, dict) and isinstance(part.get("bw_bytes"), (int, float)):
                sums[rw] += float(part["bw_bytes"])
    rw = max(sums, key=sums.get)
    return rw, sums[rw] / 1e9


def parse_ib_write_bw(text: str, name: str) -> float:
    """Average bandwidth, GB/s, of ib_write_bw's table (--report_gbits)."""
    lines = text.splitlines()
    for no, ln in enumerate(lines, 1):
        if "#bytes" in ln and "BW average" in ln:
            if "Gb/sec" not in ln:
                raise ResultError(f"{name}, line {no}: run ib_write_bw with --report_gbits (this table is not in Gb/s)")
            rows = [r.split() for r in lines[no:] if r.strip() and r.split()[0].isdigit()]
            if not rows or len(rows[-1]) < 4:
                raise ResultError(f"{name}, line {no}: no result row after the ib_write_bw header (truncated log)")
            return float(rows[-1][3]) / 8.0
    raise ResultError(f"{name}: no '#bytes ... BW average[Gb/sec]' table")


@dataclass(frozen=True, slots=True)
class FolderResults:
    """A folder of measured logs read file by file: the verdicts, the files of no known tool
    (name, why) and the files that could not be judged (one line each, naming file and line)."""

    verdicts: tuple[Verdict, ...]
    unrecognised: tuple[tuple[str, str], ...]
    errors: tuple[str, ...]
    missing: tuple[Missing, ...] = ()

    @property
    def all_passed(self) -> bool:
        """Every test of the pack passed: none failed, none missing, every log read."""
        return not self.missing and not self.errors and all(v.passed is not False for v in self.verdicts)


def missing_tests(pack: AcceptancePack, verdicts: list[Verdict] | tuple[Verdict, ...]) -> list[Missing]:
    """The tests of the pack no log answers; DCGM, run on every host, short of hosts."""
    seen = Counter(v.test_id for v in verdicts if v.passed is not None)
    hosts = pack.nodes * pack.hosts_per_node
    out = []
    for t in pack.tests:
        if t.tool in HAND_CHECKED:  # no log of it is read: the site's own sign-off
            continue
        if not seen[t.id]:
            out.append(Missing(t.id, t.title, "no result file"))
        elif t.tool == "dcgm" and seen[t.id] < hosts:
            out.append(Missing(t.id, t.title, f"results of {seen[t.id]} of the {hosts} hosts; "
                                              f"{hosts - seen[t.id]} hosts have none"))
    return out


UNRECOGNISED = "not nccl-tests stdout, fio JSON, an ib_write_bw table or a DCGM diagnostic"
LOG_LIMIT = 64 << 20


def read_results(pack: AcceptancePack, directory: str | Path,
                 progress: Callable[[int, int, str], bool] | None = None) -> FolderResults:
    """Every file of ``directory`` judged on its own: one bad log does not hide the others.
    ``progress(done, total, name)`` is told before each file; returning False stops the reading."""
    folder = Path(directory)
    if not folder.is_dir():
        raise ResultError(f"{folder}: not a folder of measured logs")
    paths = sorted(p for p in folder.iterdir() if p.is_file())
    verdicts: list[Verdict] = []
    unrecognised: list[tuple[str, str]] = []
    errors: list[str] = []
    for i, path in enumerate(paths):
        if progress is not None and progress(i, len(paths), path.name) is False:
            break
        try:
            text = read_limited(path, LOG_LIMIT, "result log").decode("utf-8", errors="replace")
            found = judge_text(pack, text, path.name)
        except PlannerError as exc:
            errors.append(str(exc))
            continue
        if found:
            verdicts += found
        else:
            unrecognised.append((path.name, UNRECOGNISED))
    return FolderResults(tuple(verdicts), tuple(unrecognised), tuple(errors), tuple(missing_tests(pack, verdicts)))


def judge_folder(pack: AcceptancePack, directory: str | Path) -> FolderResults:
    """The results of a folder; ResultError at the first log that cannot be judged."""
    results = read_results(pack, directory)
    if results.errors:
        raise ResultError(results.errors[0])
    if not results.verdicts:
        raise ResultError(f"{Path(directory)}: no nccl-tests, fio, ib_write_bw or DCGM result found")
    return results


def judge_text(pack: AcceptancePack, text: str, name: str) -> list[Verdict]:
    """Verdicts of one file, recognised by its content (nothing for a file of no known tool); a
    file of a known tool whose figures cannot be read is a ``ResultError`` naming it."""
    try:
        return _judge_text(pack, text, name)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ResultError(f"{name}: a figure of this log cannot be read ({type(exc).__name__}: {exc}): "
                          "edited or truncated?") from None


def _judge_text(pack: AcceptancePack, text: str, name: str) -> list[Verdict]:
    if '"fio version"' in text and "{" in text:
        try:
            data = json.loads(text[text.index("{"):])  # fio may print notes before its JSON
        except ValueError as exc:
            raise ResultError(f"{name}: fio JSON that does not parse ({exc}): truncated?") from None
        rw, gbs = fio_gbs(data, name)
        scope = "aggregate" if "client_stats" in data else "node"
        return [_verdict(pack, f"fio.{'checkpoint_write' if rw == 'write' else 'dataset_read'}.{scope}", name, gbs)]
    if is_dcgm_json(text):
        try:
            diagnostic = read_dcgm(text, name)
        except PlannerError as exc:
            raise ResultError(str(exc)) from None
        test = pack.test("dcgm.diag")
        if test is None:
            return [Verdict("dcgm.diag", name, None, None, None)]
        failed = bool(diagnostic.failures) or not diagnostic.results
        return [Verdict(test.id, name, None, None, None, title=test.title,
                        **{"problem" if failed else "reported": diagnostic.summary()})]
    if "BW average" in text and "#bytes" in text:
        return [_verdict(pack, "ib_write_bw", name, parse_ib_write_bw(text, name))]
    if "nThread" in text or _nccl_header_at_line_start(text):
        run = parse_nccl(text, name)
        kind = next((k for k, b in COLLECTIVES.items() if b == run.binary), "all_reduce")
        scope = "cluster" if run.ranks > pack.gpus_per_node else "node"
        size, busbw, _ = max(run.rows)
        verdict = _verdict(pack, f"nccl.{kind}.{scope}", name, busbw, size)
        test = pack.test(verdict.test_id)
        if test is not None and test.ring is not None and run.ranks < test.ring[0]:
            verdict = replace(verdict, problem=_subset(run, test.ring[0], scope, pack))
        return [verdict]
    return []


def _subset(run: NcclRun, needed: int, scope: str, pack: AcceptancePack) -> str:
    """Which GPUs the log ran on, when fewer than the test needs."""
    if not run.ranks:
        return "the log lists no ranks ('#  Rank N ... on HOST device D'): it does not show which GPUs ran"
    hosts = run.hosts
    on = (f" on {counted(len(hosts), 'host')} ({', '.join(hosts[:4])}"
          f"{', ...' if len(hosts) > 4 else ''})" if hosts else "")
    whole = f"all {pack.nodes} nodes" if scope == "cluster" else "every GPU of the node"
    return f"ran on {run.ranks} of the {needed} GPUs{on}: the test needs {whole}"


def _verdict(pack: AcceptancePack, test_id: str, name: str, measured: float, size: int | None = None) -> Verdict:
    """Measured against the test's expected figure (nccl-tests: at the largest size measured)."""
    if not math.isfinite(measured) or measured < 0:
        raise ResultError(f"{name}: a bandwidth of {measured:g} GB/s is no measurement: edited or corrupted?")
    test = pack.test(test_id)
    if test is None or test.expected_gbs is None:
        return Verdict(test_id, name, round(measured, 3), None, None)
    expected = test.expected_gbs if size is None else test.expected_at(size)
    return Verdict(test.id, name, round(measured, 3), expected, round(pack.fraction * expected, 3),
                   test.line_rate_gbs, test.title)

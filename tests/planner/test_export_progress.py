"""The long exports tell a ``progress(done, total, what)`` callback how far they are, and a
callback that raises ExportCancelled stops them with nothing new left behind: no folder or
file, no hidden temporary, an earlier export byte for byte as it was."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.errors import ExportCancelled, PlannerError
from planner.export.netbox import write_netbox
from planner.export.xlsx import write_workbook


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _cancel_at(n: int, seen: list):
    """A callback recording what it is told, cancelling at its ``n``-th call."""
    def progress(done: int, total: int, what: str) -> None:
        seen.append((done, total, what))
        if len(seen) == n:
            raise ExportCancelled(what)
    return progress


@pytest.fixture(scope="module")
def su(catalog):
    """A GB200 NVL72 scalable unit: 13 racks, 9,634 NetBox rows (two progress reports' worth)."""
    return build_template("gb200-nvl72-su", catalog=catalog)


def test_netbox_reports_the_rows_written_every_5000_rows(su, catalog, tmp_path):
    seen: list = []
    write_netbox(su, catalog, tmp_path / "nb", progress=lambda *a: seen.append(a))
    rows = 0
    for path in (tmp_path / "nb").iterdir():
        with open(path, newline="") as f:
            rows += sum(1 for _ in csv.DictReader(f))  # the rows a user imports, headers left out
    assert rows > 5_000
    assert seen == [(0, 0, "NetBox files: the cable schedule"), (0, 0, "NetBox files: the transceivers")] + [
        (k * 5_000, 0, "NetBox files") for k in range(1, rows // 5_000 + 1)]


def test_a_cancelled_netbox_export_leaves_no_folder_and_no_temporary(su, catalog, tmp_path):
    seen: list = []
    with pytest.raises(ExportCancelled):
        write_netbox(su, catalog, tmp_path / "nb", progress=_cancel_at(3, seen))
    assert seen[-1] == (5_000, 0, "NetBox files")  # cancelled half way through the rows
    assert list(tmp_path.iterdir()) == []  # no folder, no hidden staging folder


def test_a_netbox_export_cancelled_before_its_rows_leaves_nothing(su, catalog, tmp_path):
    seen: list = []
    with pytest.raises(ExportCancelled):
        write_netbox(su, catalog, tmp_path / "nb", progress=_cancel_at(1, seen))
    assert seen == [(0, 0, "NetBox files: the cable schedule")]
    assert list(tmp_path.iterdir()) == []


def test_a_cancelled_netbox_export_keeps_the_earlier_one_whole(su, catalog, tmp_path):
    small = build_template("medium", catalog=catalog)
    write_netbox(small, catalog, tmp_path / "nb")
    before = _files(tmp_path / "nb")
    with pytest.raises(ExportCancelled):
        write_netbox(su, catalog, tmp_path / "nb", progress=_cancel_at(3, []))
    assert _files(tmp_path / "nb") == before
    assert [p.name for p in tmp_path.iterdir()] == ["nb"]


def test_a_cancel_is_not_an_export_failure():
    assert not issubclass(ExportCancelled, PlannerError)  # "the export failed: ..." handlers let it through


def test_the_workbook_reports_each_step_in_order(medium, catalog, tmp_path):
    seen: list = []
    write_workbook(medium, catalog, tmp_path / "plan.xlsx", progress=lambda *a: seen.append(a))
    # medium is one hall and no comparison: no Campus or Compare sheet step
    assert [what for _, _, what in seen] == [
        "Excel workbook: evaluating the plan", "Excel workbook: Summary sheet", "Excel workbook: BOM and Costs sheets",
        "Excel workbook: Racks sheet", "Excel workbook: Network sheet", "Excel workbook: Workload sheet",
        "Excel workbook: Cables sheet",
        "Excel workbook: Checks sheet", "Excel workbook: Assumptions and Goodput sheets",
        "Excel workbook: writing the file", "Excel workbook: checking the file"]
    assert [done for done, _, _ in seen] == [0, 1, 3, 4, 6, 7, 8, 9, 10, 11, 12]  # steps 2 and 5 skipped
    assert {total for _, total, _ in seen} == {13}


@pytest.mark.parametrize("step", ["Excel workbook: Racks sheet", "Excel workbook: checking the file"])
def test_a_cancelled_workbook_leaves_the_earlier_file_and_no_temporary(medium, catalog, tmp_path, step):
    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"the earlier export")

    def progress(done: int, total: int, what: str) -> None:
        if what == step:  # while building the sheets, or once the new file is written in full
            raise ExportCancelled(what)

    with pytest.raises(ExportCancelled):
        write_workbook(medium, catalog, target, progress=progress)
    assert target.read_bytes() == b"the earlier export"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.xlsx"]


def test_a_cancelled_first_workbook_leaves_nothing(medium, catalog, tmp_path):
    with pytest.raises(ExportCancelled):
        write_workbook(medium, catalog, tmp_path / "plan.xlsx", progress=_cancel_at(9, []))  # at "writing the file"
    assert list(tmp_path.iterdir()) == []


class _Terminal:
    """A stderr that says it is a terminal, keeping what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def test_the_cli_shows_the_rows_written_on_a_terminal_and_a_line_a_million_in_a_log():
    from planner.cli.cmd_export import RowsProgress

    term = _Terminal()
    shown = RowsProgress(term)
    shown(5_000, 0, "NetBox files")
    shown(10_000, 0, "NetBox files")
    shown.done()
    # one line kept up to date, ended when the export ends
    assert term.text == ("\rNetBox files: 5,000 rows written (Ctrl+C cancels)"
                         "\rNetBox files: 10,000 rows written (Ctrl+C cancels)\n")
    log = _Terminal()
    log.isatty = lambda: False
    lines = RowsProgress(log)
    for rows in range(5_000, 2_100_000, 5_000):
        lines(rows, 0, "NetBox files")
    lines.done()
    assert log.text == "NetBox files: 1,000,000 rows written\nNetBox files: 2,000,000 rows written\n"


def test_ctrl_c_during_a_cli_netbox_export_leaves_no_folder(su, tmp_path, monkeypatch, capsys):
    import json

    from planner.cli import main
    from planner.cli import cmd_export
    from planner.plan.fileio import save_plan

    save_plan(su, tmp_path / "su.json")
    # Ctrl+C arrives as the first rows are written: the interpreter raises KeyboardInterrupt there
    def interrupted(self, rows, total, what):
        raise KeyboardInterrupt

    monkeypatch.setattr(cmd_export.RowsProgress, "__call__", interrupted)
    code = main(["export", str(tmp_path / "su.json"), "--netbox", "-o", str(tmp_path / "nb")])
    assert code == 130 and not (tmp_path / "nb").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["su.json"]  # no hidden staging folder either
    assert "cancelled: nothing written" in capsys.readouterr().err
    assert json.loads((tmp_path / "su.json").read_text())["racks"]

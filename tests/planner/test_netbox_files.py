"""How the NetBox files are written: the folder holds one plan's export or the previous one,
never a mix; names a spreadsheet would run are refused, naming them; a folder holding other
files (the plan itself) is never replaced; the cables CSV holds no formula."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from planner.text import FORMULA_STARTS

ROOT = Path(__file__).resolve().parents[2]
FULL_DISK = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from cluster_planner import main
sys.exit(main(sys.argv[2:]))
"""


# no bytecode written under the file-size limit (a cut-short .pyc would break later runs)
LIMITED_ENV = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _plan_file(tmp_path: Path, name: str, label: str) -> Path:
    plan = build_template("medium", catalog=default_catalog())
    plan.name = label
    path = tmp_path / name
    save_plan(plan, path, keep=0)
    return path


def test_a_full_disk_leaves_the_previous_export_whole(tmp_path):
    old, new = _plan_file(tmp_path, "old.json", "Old hall"), _plan_file(tmp_path, "new.json", "New hall")
    out = tmp_path / "nb"
    assert main(["export", str(old), "-o", str(out), "--netbox"]) == 0
    before = _files(out)
    sizes = sorted(len(b) for b in before.values())
    limit = sizes[len(sizes) // 2]  # the smaller files fit, the larger ones do not (a disk filling up)
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(limit), "export", str(new), "-o", str(out),
                           "--netbox"], cwd=tmp_path, env=LIMITED_ENV,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "larger than this disk or account allows" in done.stderr and "Traceback" not in done.stderr
    assert _files(out) == before  # every file of the old plan, none of the new
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nb", "new.json", "old.json"]  # no staging left


def test_a_second_export_replaces_every_file_and_drops_the_ones_it_has_no_rows_for(tmp_path):
    big = _plan_file(tmp_path, "big.json", "Big hall")
    small = tmp_path / "small.json"
    save_plan(build_template("single-node", catalog=default_catalog()), small, keep=0)
    out = tmp_path / "nb"
    assert main(["export", str(big), "-o", str(out), "--netbox"]) == 0
    assert main(["export", str(small), "-o", str(out), "--netbox"]) == 0
    sites = list(csv.DictReader(io.StringIO((out / "01-sites.csv").read_text())))
    assert [s["name"] for s in sites] == [build_template("single-node").name]
    assert not any(n.startswith("13-cables") for n in _files(out))  # one node: no fabric cables
    assert not any(n.startswith("12-interfaces-") for n in _files(out))  # its few interfaces: one file, no parts


def test_an_export_in_parts_replaces_an_earlier_one_in_parts(tmp_path):
    big = _plan_file(tmp_path, "big.json", "Big hall")
    out = tmp_path / "nb"
    assert main(["export", str(big), "-o", str(out), "--netbox", "--chunk-rows", "50"]) == 0
    # 1,040 interfaces in parts of 50: 21 parts; then 400 per part: 3
    assert len([n for n in _files(out) if n.startswith("12-interfaces-")]) == 21
    assert main(["export", str(big), "-o", str(out), "--netbox", "--chunk-rows", "400"]) == 0
    assert [n for n in _files(out) if n.startswith("12-interfaces")] == [f"12-interfaces-0{k}.csv" for k in (1, 2, 3)]


def test_an_existing_types_export_with_short_rows_or_odd_components_is_read(tmp_path):
    # a CSV row shorter than its header reads its missing cells as empty; a YAML type whose
    # interfaces are not a list has none (both used to stop the export)
    from planner.export.netbox_existing import read_existing

    (tmp_path / "types.csv").write_text("Device Type,Manufacturer\nfoo\n")
    (tmp_path / "types.yaml").write_text("manufacturer: Acme\nmodel: Box\ninterfaces: 5\n")
    got = read_existing([tmp_path / "types.csv", tmp_path / "types.yaml"])
    assert [(t.manufacturer, t.model) for t in got.types] == [("", "foo"), ("Acme", "Box")]


@pytest.mark.parametrize("option, words", [
    (["--chunk-rows", "0"], "--chunk-rows"),
    (["--netbox-has", "plan.json"], "not a NetBox export"),
    (["--netbox-has", "missing.yaml"], "missing.yaml"),
])
def test_bad_export_options_are_one_line_and_nothing_is_written(tmp_path, capsys, option, words):
    plan = _plan_file(tmp_path, "plan.json", "Hall")
    option = [str(tmp_path / o) if o.endswith((".json", ".yaml")) else o for o in option]
    assert main(["export", str(plan), "-o", str(tmp_path / "nb"), "--netbox", *option]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "nb").exists()


@pytest.mark.parametrize("where, name, named", [
    ("plan", '=HYPERLINK("http://x","y")', "sites name '=HYPERLINK"),
    ("rack", "+A1", "racks name '+A1'"),
    ("row", "@row", "locations name '@row'"),
    ("label", "-cmd|' /C calc'!A0", "devices name \"-cmd|' /C calc'!A0\""),
])
def test_names_a_spreadsheet_would_run_are_refused_naming_them(tmp_path, where, name, named, capsys):
    plan = build_template("medium", catalog=default_catalog())
    if where == "plan":
        plan.name = name
    elif where == "rack":
        plan.racks[0].name = name
    elif where == "row":
        plan.racks[0].row = name
    else:
        plan.placements[0].label = name
    save_plan(plan, tmp_path / "p.json", keep=0)
    assert main(["export", str(tmp_path / "p.json"), "-o", str(tmp_path / "nb"), "--netbox"]) == 2
    err = capsys.readouterr().err
    assert named in err and "formula" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]  # no folder, no staging


def test_a_folder_holding_the_plan_is_not_replaced(tmp_path, capsys):
    plan = _plan_file(tmp_path, "p.json", "Hall")
    before = plan.read_bytes()
    assert main(["export", str(plan), "-o", str(tmp_path), "--netbox"]) == 2
    assert "holds other files (p.json), which would be lost (the export replaces the folder whole)" in \
        capsys.readouterr().err
    assert plan.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]


def test_the_cables_csv_holds_no_cell_a_spreadsheet_would_run(tmp_path):
    plan = build_template("medium", catalog=default_catalog())
    plan.racks[0].name = '=HYPERLINK("http://x","y")'
    for p in plan.placements:
        p.label = f"@{p.id}" if p.rack == plan.racks[0].id else f"-{p.id}"
    save_plan(plan, tmp_path / "p.json", keep=0)
    assert main(["cables", str(tmp_path / "p.json"), "--csv", str(tmp_path / "c.csv")]) == 0
    rows = list(csv.reader(io.StringIO((tmp_path / "c.csv").read_text())))
    assert len(rows) > 100
    assert not [c for row in rows for c in row if c[:1] in FORMULA_STARTS]
    racks = {r[3] for r in rows[1:]} | {r[7] for r in rows[1:]}
    assert '\'=HYPERLINK("http://x","y")' in racks  # shown as typed, not run

"""Saves and exports survive what real disks and targets do: a full disk, a device or pipe
as the target, a read-only file, the command's own input as the target, and temporary
files left by killed processes. Driven through the real command line in child processes."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cluster_planner import main
from planner.cli import build_parser
from planner.design.templates import build_template
from planner.plan.fileio import load_plan, save_plan
from planner.plan.model import Plan, Rack
from tests.unprivileged import as_unprivileged, shared_folder

ROOT = Path(__file__).resolve().parents[2]

# Runs the command line in a process whose files may not grow past LIMIT bytes: every
# write beyond fails as on a full disk (EFBIG; Python ignores SIGXFSZ).
FULL_DISK = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from cluster_planner import main
sys.exit(main(sys.argv[2:]))
"""


def run(*args: str, cwd: Path, full_after: int | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    cmd = [sys.executable, "-m", "cluster_planner", *args] if full_after is None else \
        [sys.executable, "-c", FULL_DISK, str(full_after), *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def plan_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("plan")
    save_plan(build_template("medium"), folder / "plan.json", keep=0)
    return folder / "plan.json"


def one_line_error(done: subprocess.CompletedProcess, starts: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cluster-planner: {starts}"), done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    return lines[0]


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- finding 1 (and 12): a full disk ------------------------------------------------------

@pytest.mark.parametrize("suffix", [".pdf", ".svg", ".png", ".xlsx", ".json"])
def test_export_or_save_on_a_full_disk_fails_and_keeps_the_previous_file(plan_file, tmp_path, suffix):
    """The full-disk child may write 5 kB: every output of the medium plan is larger. Before,
    PDF and SVG reported "wrote" and left a truncated file in place of the previous one."""
    target = tmp_path / f"out{suffix}"
    target.write_bytes(b"the previous file")
    args = ("new", "--template", "medium", "-o", target.name) if suffix == ".json" else \
        ("export", str(plan_file), "-o", target.name)
    done = run(*args, cwd=tmp_path, full_after=5_000)
    line = one_line_error(done, f"cannot save {target.name}: ")
    assert line.endswith("(the previous file is unchanged)")
    assert "wrote" not in done.stdout
    assert target.read_bytes() == b"the previous file"
    assert names(tmp_path) == [target.name]  # no temporary file left behind


@pytest.fixture
def small_tmpfs():
    """A 200 kB tmpfs: a disk that really fills up (mounting needs root, which CI is)."""
    folder = Path(shutil.os.path.realpath("/tmp")) / f"planner-full-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here (needs root and mount rights): {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
        folder.rmdir()


@pytest.mark.parametrize("suffix", [".pdf", ".svg", ".png", ".xlsx"])
def test_export_onto_a_really_full_disk_says_the_disk_is_full(plan_file, small_tmpfs, suffix):
    target = small_tmpfs / f"out{suffix}"
    target.write_bytes(b"the previous file")
    (small_tmpfs / "filler").write_bytes(b"x" * 190_000)  # ~10 kB left: less than any of these exports
    done = run("export", str(plan_file), "-o", str(target), cwd=small_tmpfs)
    line = one_line_error(done, f"cannot save {target.name}: ")
    assert "the disk is full" in line or "the disk may be full" in line, line
    assert target.read_bytes() == b"the previous file"
    assert names(small_tmpfs) == ["filler", target.name]


def test_workbook_on_a_full_disk_prints_one_line_not_a_stray_traceback(plan_file, tmp_path):
    """Finding 12: openpyxl's half-written zip archive used to print "Exception ignored in
    ZipFile.__del__" after the error line."""
    done = run("export", str(plan_file), "-o", "book.xlsx", cwd=tmp_path, full_after=20_000)
    one_line_error(done, "cannot save book.xlsx: the file is larger than this disk or account allows")
    assert names(tmp_path) == []


# -- finding 2: devices, pipes, folders ---------------------------------------------------

def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _device(path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("creating a device node needs root (CI runs as root)")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the same device as /dev/null
    return path


@pytest.mark.parametrize("make", [_fifo, _device], ids=["fifo", "device"])
@pytest.mark.parametrize("command", ["new", "export-svg", "export-xlsx"])
def test_a_device_or_pipe_target_is_refused_and_stays_what_it_was(plan_file, tmp_path, make, command):
    target = make(tmp_path / {"new": "t.json", "export-svg": "t.svg", "export-xlsx": "t.xlsx"}[command])
    kind = stat.S_IFMT(os.lstat(target).st_mode)
    args = ("new", "-o", str(target)) if command == "new" else ("export", str(plan_file), "-o", str(target))
    done = run(*args, cwd=tmp_path)
    one_line_error(done, f"cannot save to {target}: it is a device, pipe or socket, not a file")
    assert stat.S_IFMT(os.lstat(target).st_mode) == kind  # not replaced by a regular file
    assert names(tmp_path) == [target.name]


# -- finding 9: a read-only plan --------------------------------------------------------------

def test_new_does_not_replace_a_read_only_plan(tmp_path):
    target = tmp_path / "plan.json"
    save_plan(build_template("single-node"), target, keep=0)
    os.chmod(target, 0o444)
    before = target.read_bytes()
    done = run("new", "-o", str(target), cwd=tmp_path)
    one_line_error(done, "cannot save plan.json: the file is read-only")
    assert target.read_bytes() == before and names(tmp_path) == ["plan.json"]


def test_new_does_not_replace_a_plan_this_user_may_not_write():
    """As an unprivileged user (root drops to nobody in a child), a plan owned by someone
    else in a folder everyone may write is refused, not replaced by rename."""
    folder = shared_folder("ro-plan", 0o777)
    try:
        target = folder / "plan.json"
        save_plan(build_template("single-node"), target, keep=0)
        os.chmod(target, 0o644)  # root's file: others may read it, not write it
        before = target.read_bytes()
        build_parser()  # load every subcommand module now: the unprivileged child may not read them
        outcome = as_unprivileged(main, ["new", "--template", "single-node", "-o", str(target)])
        assert outcome == "2", outcome
        assert target.read_bytes() == before and names(folder) == ["plan.json"]
    finally:
        shutil.rmtree(folder)


# -- finding 10: a target that is an input ------------------------------------------------------

def test_export_onto_its_own_input_is_refused_whatever_the_extension(plan_file, tmp_path):
    plan = tmp_path / "plan.pdf"
    shutil.copy(plan_file, plan)
    before = plan.read_bytes()
    done = run("export", "plan.pdf", "-o", "plan.pdf", cwd=tmp_path)
    one_line_error(done, "cannot save to plan.pdf: it is an input of this command (plan.pdf)")
    os.symlink(plan, tmp_path / "link.pdf")  # the same file by another name
    done = run("export", "plan.pdf", "-o", "link.pdf", cwd=tmp_path)
    one_line_error(done, "cannot save to plan.pdf: it is an input of this command")
    assert plan.read_bytes() == before and load_plan(plan).name == load_plan(plan_file).name
    assert names(tmp_path) == ["link.pdf", "plan.pdf"]


def test_new_or_export_onto_the_catalog_is_refused(plan_file, tmp_path):
    catalog = tmp_path / "extra.json"
    catalog.write_text('{"schema_version": 1, "devices": []}')
    before = catalog.read_bytes()
    done = run("--catalog", str(catalog), "new", "-o", str(catalog), cwd=tmp_path)
    one_line_error(done, "cannot save to extra.json: it is an input of this command")
    done = run("--catalog", str(catalog), "export", str(plan_file), "-o", str(catalog), cwd=tmp_path)
    assert done.returncode == 2 and catalog.read_bytes() == before


# -- finding 11: temporary files of killed saves --------------------------------------------------

# Saves a plan but stops for ever just before the temporary file is flushed: killed there,
# it leaves the temporary file behind, as a kill at that moment of a real save would.
STALLED_SAVE = """
import os, sys, time
from planner.design.templates import build_template
from planner.plan.fileio import save_plan
from planner.plan.model import Plan, Rack
os.fsync = lambda fd: (print("writing", flush=True), time.sleep(3600))
save_plan(build_template("medium"), sys.argv[1])
"""


def test_a_killed_save_leaves_a_temporary_file_that_the_next_save_removes(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(3):
        child = subprocess.Popen([sys.executable, "-c", STALLED_SAVE, "plan.json"], cwd=tmp_path, env=env,
                                 stdout=subprocess.PIPE)
        assert child.stdout.readline().strip() == b"writing"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        left = [n for n in names(tmp_path) if n.startswith(".~gcp-tmp~")]
        # one left by this kill; the one before was removed when this save began
        assert len(left) == 1 and f"~{child.pid}~" in left[0] and left[0].endswith("~plan.json"), left
    done = run("new", "--template", "single-node", "-o", "other.json", cwd=tmp_path)  # any save into the folder
    assert done.returncode == 0, done.stderr
    assert names(tmp_path) == ["other.json"]


def test_a_running_saves_temporary_file_is_left_alone(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", STALLED_SAVE, "plan.json"], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline().strip() == b"writing"
        time.sleep(0.1)
        assert run("new", "--template", "single-node", "-o", "other.json", cwd=tmp_path).returncode == 0
        assert len([n for n in names(tmp_path) if n.startswith(".~gcp-tmp~")]) == 1  # still being written
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()


# -- finding 6: an SVG too large to draw -----------------------------------------------------

def test_an_svg_of_more_racks_than_it_can_draw_is_refused_before_drawing(tmp_path):
    from planner.hardware.catalog import default_catalog
    from planner.errors import PlannerError
    from ui.export.files import MAX_SVG_RACKS, export_drawing

    plan = Plan(name="hall", racks=[Rack(id=f"r{i}", name=f"R{i}") for i in range(MAX_SVG_RACKS + 1)])
    with pytest.raises(PlannerError, match=r"3,001 racks are too many for one SVG drawing \(at most 3,000\); "
                                           "export the PDF vendor pack instead"):
        export_drawing(plan, default_catalog(), tmp_path / "hall.svg", report=object())  # never evaluated
    assert list(tmp_path.iterdir()) == []

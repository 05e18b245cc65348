"""Temporary files: cleanup removes only the planner's own, of processes gone on this host;
saves of one file at the same time all succeed."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from planner.plan.fileio import load_plan, save_plan
from planner.plan.model import Plan, Rack
from planner.safefile import write_file

ROOT = Path(__file__).resolve().parents[2]
HOUR_AND_A_BIT = 3 * 3600


def _plan(name: str) -> Plan:
    return Plan(name=name, racks=[Rack(id="r1", name="A")])


def test_hidden_user_files_that_look_like_temporaries_survive_a_save(tmp_path):
    # a user's own hidden files, named like the old temporary pattern and hours old
    theirs = [tmp_path / n for n in (".site.svg.20251101.svg", ".vendor.pdf.20251101.pdf",
                                     ".plan.json.20251101.tmp", ".plan.json.abcdefgh.tmp")]
    for f in theirs:
        f.write_text("mine")
        old = time.time() - HOUR_AND_A_BIT
        os.utime(f, (old, old))
    save_plan(_plan("p"), tmp_path / "p.json")
    assert [f.read_text() for f in theirs] == ["mine"] * 4


def test_another_hosts_temporary_is_never_removed(tmp_path):
    other = tmp_path / ".~gcp-tmp~otherhost~4026531836~1~abcd1234~p.json"
    other.write_text("{}")
    save_plan(_plan("p"), tmp_path / "p.json")
    assert other.exists()


def test_a_killed_save_of_this_host_is_cleaned_up(tmp_path):
    child = subprocess.run([sys.executable, "-c", "import os, tempfile, sys; from planner.safefile import "
                            "temporary_prefix; tempfile.mkstemp(prefix=temporary_prefix(), suffix='~p.json', "
                            "dir=sys.argv[1])", str(tmp_path)], cwd=ROOT, check=True)
    assert child.returncode == 0
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".~gcp-tmp~")  # its owner has exited
    save_plan(_plan("p"), tmp_path / "p.json")
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


# A save running in another PID namespace (a container) whose PID is 777777 there, a PID
# nobody has here: its temporary must survive a save from this namespace into the same folder.
_SLOW_SAVE = """
import sys, time
from pathlib import Path
from planner.safefile import write_file
folder = Path(sys.argv[1])
def write(tmp):
    Path(tmp).write_text('{"slow": true}')
    (folder / "ready").touch()
    while not (folder / "go").exists():
        time.sleep(0.02)
write_file(folder / "slow.json", write=write)
"""


def test_a_live_save_in_another_pid_namespace_keeps_its_temporary(tmp_path):
    unshare = shutil.which("unshare")
    if unshare is None or sys.platform != "linux":
        pytest.skip("needs util-linux unshare (Linux PID namespaces)")
    probe = subprocess.run([unshare, "-r", "-p", "-f", "--mount-proc", "true"], capture_output=True)
    if probe.returncode:
        pytest.skip(f"PID namespaces are not available here: {probe.stderr.decode().strip()}")
    script = tmp_path / "slow.py"
    script.write_text(_SLOW_SAVE)
    folder = tmp_path / "shared"
    folder.mkdir()
    child = subprocess.Popen(
        [unshare, "-r", "-p", "-f", "--mount-proc", "sh", "-c",
         f'echo 777776 > /proc/sys/kernel/ns_last_pid && "{sys.executable}" "{script}" "{folder}"'],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (folder / "ready").exists():
            assert child.poll() is None, child.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        save_plan(_plan("here"), folder / "here.json")
        (folder / "go").touch()
        assert child.wait(60) == 0, child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
    assert (folder / "slow.json").read_text() == '{"slow": true}'


def _save_many(folder: str, worker: int, times: int, failures) -> None:
    for i in range(times):
        try:
            save_plan(_plan(f"w{worker}-{i}"), Path(folder) / "p.json", keep=3)
        except Exception as exc:  # noqa: BLE001 - every failure is the finding
            failures.put(f"{type(exc).__name__}: {exc}")


def test_three_processes_saving_one_plan_all_succeed(tmp_path):
    failures = multiprocessing.get_context("fork").Queue()
    workers = [multiprocessing.get_context("fork").Process(target=_save_many, args=(str(tmp_path), w, 200, failures))
               for w in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    seen = []
    while not failures.empty():
        seen.append(failures.get())
    assert seen == []
    assert load_plan(tmp_path / "p.json").name.startswith("w")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json", "p.json.1.bak", "p.json.2.bak", "p.json.3.bak"]


def test_write_file_names_its_temporary_after_the_host_and_process(tmp_path):
    names = []
    write_file(tmp_path / "x.csv", write=lambda tmp: (names.append(Path(tmp).name), Path(tmp).write_text("a\n")))
    host = __import__("socket").gethostname()
    assert names[0].startswith(".~gcp-tmp~") and f"~{os.getpid()}~" in names[0]
    assert names[0].endswith("~x.csv") and host.split(".")[0][:10].replace("_", "-") in names[0]


def test_two_saves_rotating_at_once_leave_no_gap_in_the_backups(tmp_path, monkeypatch):
    # a save pauses between moving its backups up and linking the current file as NAME.1.bak,
    # and a second save of the same file starts there: without taking turns, the second moves
    # the first's fresh .2 on to .3 and finds no .1, so NAME.2.bak ends up missing
    import threading

    import planner.safefile as safefile

    target = tmp_path / "p.txt"
    for version in range(4):
        write_file(target, f"v{version}\n".encode(), keep=3)
    real_link = os.link
    second = []

    def link_then_let_another_save_run(src, dst):
        if not second:
            second.append(threading.Thread(target=write_file, args=(target, b"vB\n"), kwargs={"keep": 3}))
            second[0].start()
            second[0].join(0.5)  # with turns, it waits for this save; without, it finishes now
        return real_link(src, dst)

    monkeypatch.setattr(safefile.os, "link", link_then_let_another_save_run)
    write_file(target, b"vA\n", keep=3)
    second[0].join(10)
    monkeypatch.setattr(safefile.os, "link", real_link)
    kept_versions = [safefile.backup_path(target, i).read_text() if safefile.backup_path(target, i).exists()
                     else None for i in (1, 2, 3)]
    assert target.read_text() == "vB\n"
    assert kept_versions == ["vA\n", "v3\n", "v2\n"]

"""Design sweeps on Ray: the same rows as the process pool, a lost worker's batch run again,
cancel, and nothing left running when the sweep's process is killed.

The tests that need Ray start a local one. Ray is an optional extra: without it they skip
with the reason, except where CI's second step asks for them (PLANNER_REQUIRE_RAY=1), which
installs the extra first.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.sweep import parse_grid, run_sweep

ROOT = Path(__file__).resolve().parents[2]
GENEROUS_S = 60  # hang checks, never timings


def need_ray():
    try:
        import ray
    except ImportError:
        if os.environ.get("PLANNER_REQUIRE_RAY"):
            pytest.fail("PLANNER_REQUIRE_RAY is set but Ray is not installed")
        pytest.skip('Ray is not installed (pip install -e ".[cluster]"); CI runs these in its second step')
    return ray


@pytest.fixture(scope="module")
def local_ray():
    ray = need_ray()
    sessions = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: a socket's path has at most 107 bytes
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False, _temp_dir=sessions)
    yield ray
    ray.shutdown()
    shutil.rmtree(sessions, ignore_errors=True)


@pytest.fixture(scope="module")
def medium():
    catalog = default_catalog()
    return build_template("medium", catalog=catalog), catalog


def grid_of(catalog, nodes):
    return parse_grid({"nodes": nodes, "power_basis": ["typical", "nameplate"]}, catalog)


def ray_processes(title: str) -> list[int]:
    """This machine's processes whose title (Ray sets it to ``ray::<task>``) starts with ``title``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cmdline").read_bytes().startswith(title.encode()):
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


# -- without Ray ---------------------------------------------------------------------------

def test_engine_ray_without_ray_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without the extra sees
    assert main(["new", "--template", "single-node", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text('{"nodes": [1, 2]}')
    capsys.readouterr()
    code = main(["sweep", str(tmp_path / "base.json"), "--grid", str(tmp_path / "grid.json"),
                 "-o", str(tmp_path / "out.csv"), "--engine", "ray"])
    err = capsys.readouterr().err
    assert code == 2
    assert 'pip install -e ".[cluster]"' in err and "Traceback" not in err
    assert not (tmp_path / "out.csv").exists()


def test_address_without_engine_ray_is_refused(tmp_path, capsys):
    assert main(["new", "--template", "single-node", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text('{"nodes": [1, 2]}')
    capsys.readouterr()
    code = main(["sweep", str(tmp_path / "base.json"), "--grid", str(tmp_path / "grid.json"),
                 "-o", str(tmp_path / "out.csv"), "--address", "ray://head:10001"])
    assert code == 2 and "--engine ray" in capsys.readouterr().err


# -- on a local Ray ------------------------------------------------------------------------

def test_same_rows_as_the_process_pool(local_ray, medium):
    from planner.sweep_ray import run_sweep_ray

    base, catalog = medium
    grid = grid_of(catalog, [8, 12, 16, 24, 32])
    pool = run_sweep(base, grid, workers=2)
    seen = []
    on_ray = run_sweep_ray(base, grid, progress=lambda done, total: seen.append((done, total)), batch=3)
    assert on_ray.rows == pool.rows
    assert len(on_ray.rows) == grid.size and not on_ray.cancelled
    assert seen[-1] == (grid.size, grid.size)


def test_a_killed_worker_is_retried(local_ray, medium):
    from planner.sweep_ray import run_sweep_ray

    base, catalog = medium
    grid = grid_of(catalog, list(range(8, 88, 4)))
    pool = run_sweep(base, grid, workers=2)
    killed: list[int] = []

    def progress(done, total):
        while not killed:  # a worker busy with a batch, killed as the OOM killer would
            busy = ray_processes("ray::run_batch")
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])

    result = run_sweep_ray(base, grid, progress=progress, batch=2)
    assert killed
    assert result.rows == pool.rows  # the killed batch ran again: no point lost, none reported lost


def test_cancel_stops_the_sweep_and_its_tasks(local_ray, medium):
    from planner.sweep_ray import run_sweep_ray

    base, catalog = medium
    grid = grid_of(catalog, list(range(8, 408, 4)))  # 200 points
    result = run_sweep_ray(base, grid, progress=lambda *_: None, cancelled=lambda: True, batch=1)
    assert result.cancelled and len(result.rows) < grid.size
    deadline = time.monotonic() + GENEROUS_S
    while ray_processes("ray::run_batch") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray_processes("ray::run_batch") == []  # no batch goes on running after Cancel


PARENT = textwrap.dedent("""\
    from planner.design.templates import build_template
    from planner.hardware.catalog import default_catalog
    from planner.sweep import parse_grid
    from planner.sweep_ray import run_sweep_ray

    if __name__ == "__main__":
        catalog = default_catalog()
        grid = parse_grid({"nodes": list(range(8, 1208, 2)), "power_basis": ["typical", "nameplate"]}, catalog)
        said = []

        def progress(done, total):
            if not said:
                said.append(done)
                print("running", flush=True)

        run_sweep_ray(build_template("medium", catalog=catalog), grid, workers=2, progress=progress, batch=1)
""")


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find Ray's processes")
def test_killing_the_sweep_process_leaves_nothing_running(tmp_path):
    need_ray()
    (tmp_path / "parent.py").write_text(PARENT)
    temp = tempfile.mkdtemp(prefix="t", dir="/tmp")  # the killed sweep cannot remove its Ray session: this test does
    parent = subprocess.Popen([sys.executable, "parent.py"], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=temp))
    started: list[int] = []
    try:
        assert parent.stdout.readline() == "running\n"
        # The local Ray: its services, its workers, the batches running. A worker is titled
        # ray::run_batch only while it runs one (ray::IDLE between two), so look until one is.
        deadline = time.monotonic() + GENEROUS_S
        started, running = [], False
        while not running and time.monotonic() < deadline:
            started = sorted(set(started) | set(descendants(parent.pid)))
            running = any(title(p).startswith("ray::run_batch") for p in started)
            time.sleep(0 if running else 0.05)
        assert running
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=GENEROUS_S)
        # The workers and Ray's core services end at once, with their parent (Ray's fate sharing).
        deadline = time.monotonic() + GENEROUS_S
        working = [p for p in started if not title(p).startswith(("ray::DashboardAgent", "ray::RuntimeEnvAgent"))]
        while any(alive(p) for p in working) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [title(p) for p in working if alive(p)] == []
        # Ray's two agents see the raylet gone within seconds, then wait out their report to the
        # stopped control store before they exit; they run no work meanwhile.
        deadline = time.monotonic() + 3 * GENEROUS_S
        while any(alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert [title(p) for p in started if alive(p)] == []
    finally:
        for pid in started:  # only the processes this test's sweep started
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
        shutil.rmtree(temp, ignore_errors=True)

"""A sweep's worker processes end with the process that started them, however it ends
(SIGTERM, or SIGKILL, which leaves it no chance to stop its pool)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENEROUS_S = 60  # a hang check: the workers below would otherwise sleep for an hour

PARENT = textwrap.dedent("""\
    import os, sys, time

    def nap():
        os.write(1, b"running\\n")  # one write of a few bytes: two workers' lines never interleave
        time.sleep(3600)

    if __name__ == "__main__":
        from planner.design.templates import build_template
        from planner.plan.fileio import plan_to_json
        from planner.sweep import start_workers

        pool = start_workers(2, plan_to_json(build_template("single-node")))
        for _ in range(2):
            pool.submit(nap)
        time.sleep(3600)
""")


def children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status waits to be collected


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the workers")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_when_the_sweep_process_is_killed(tmp_path, sig):
    (tmp_path / "parent.py").write_text(PARENT)
    parent = subprocess.Popen([sys.executable, "parent.py"], cwd=tmp_path, stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    workers: list[int] = []
    try:
        assert parent.stdout.readline() == "running\n" and parent.stdout.readline() == "running\n"
        workers = children_of(parent.pid)  # the two workers and multiprocessing's resource tracker
        assert len(workers) >= 2
        parent.send_signal(sig)
        parent.wait(timeout=GENEROUS_S)
        deadline = time.monotonic() + GENEROUS_S
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [p for p in workers if alive(p)] == []
    finally:
        for pid in workers:  # the processes this test started, by their ids
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=GENEROUS_S)
        parent.stdout.close()

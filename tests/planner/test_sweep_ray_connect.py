"""A Ray sweep's start and end as the user sees them: an address nothing answers at is one
line and status 2, never a wait of Ray's 20 tries; a local Ray leaves nothing in the
temporary directory. Only 127.0.0.1 is ever connected to."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from tests.planner.test_sweep_ray import GENEROUS_S, ROOT, need_ray


@pytest.fixture
def sweep_files(tmp_path):
    from planner.cli import main

    assert main(["new", "--template", "medium", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text('{"nodes": [8, 16]}')
    return tmp_path


def sweep(folder: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``cluster-planner sweep --engine ray`` in its own process (Ray's state stays there);
    the timeout is a hang check, not a timing."""
    return subprocess.run([sys.executable, "-m", "planner", "sweep", str(folder / "base.json"), "--grid",
                           str(folder / "grid.json"), "-o", str(folder / "out.csv"), "--engine", "ray", *extra],
                          capture_output=True, text=True, timeout=GENEROUS_S,
                          env=dict(env or os.environ, PYTHONPATH=str(ROOT)))


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_nothing_answers_at_is_one_line_and_status_2(sweep_files):
    need_ray()
    address = f"127.0.0.1:{free_port()}"
    done = sweep(sweep_files, "--address", address)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"cluster-planner: could not start the sweep on the Ray cluster at {address}: nothing answers there "
        "(Connection refused)"]
    assert not (sweep_files / "out.csv").exists()


def test_a_listener_that_is_not_ray_is_an_error_not_a_hang(sweep_files):
    """Something accepts the connection but never speaks Ray: Ray's own connection timeout,
    once, then one line of ours (Ray's core may log its retries before it)."""
    need_ray()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []

    def accept():
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    try:
        done = sweep(sweep_files, "--address", address)
    finally:
        server.close()
        for c in accepted:
            c.close()
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(
        f"cluster-planner: could not start the sweep on the Ray cluster at {address}: ")
    assert not (sweep_files / "out.csv").exists()


def test_a_local_sweep_leaves_no_ray_session_in_the_temporary_directory(sweep_files):
    need_ray()
    # short: Ray's sockets live in the session folder, and a socket's path has at most 107 bytes
    temp = Path(tempfile.mkdtemp(prefix="t", dir="/tmp"))
    try:
        env = {k: v for k, v in os.environ.items() if k != "RAY_TMPDIR"} | {"TMPDIR": str(temp)}
        done = sweep(sweep_files, env=env)
        assert done.returncode == 0, done.stderr
        assert "2 points" in done.stdout
        assert sorted(p.name for p in temp.iterdir()) == []  # Ray's default would leave ray/session_*
    finally:
        shutil.rmtree(temp, ignore_errors=True)

"""Drive the real app with real X11 input: its own Xvfb, the app as a subprocess, xdotool.

The app writes its state (plan, status message, where racks and palette rows are on the
screen) to a file on every change (``CLUSTER_PLANNER_STATE_DUMP``); tests poll that file.
Every step waits with a generous timeout; a screenshot of the screen is kept in the test's
temporary folder.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system_tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("Xvfb", "xdotool", "import")
SCREEN = "1440x900x24"  # the default size the app must be legible at
TITLE = "GPU Cluster Planner"


def wait_for(predicate, timeout: float = 30.0, what: str = "a condition", interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


class Xvfb:
    """A private X server on a free display (``-displayfd``: the server picks the number)."""

    def __init__(self, tmp: Path):
        read, write = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp",
                                      "-noreset"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                                     stderr=open(tmp / "xvfb.log", "wb"))
        os.close(write)
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            self.proc.kill()
            raise AssertionError("Xvfb did not start (see xvfb.log)")
        self.display = f":{int(number)}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class RealApp:
    """The app on its own X server, driven by xdotool."""

    def __init__(self, tmp: Path, args: list[str] = ()):
        self.tmp = tmp
        self.x = Xvfb(tmp)
        self.state_file = tmp / "state.json"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "WAYLAND"))}
        env.update({
            "DISPLAY": self.x.display, "QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(tmp / "config"),
            "XDG_DATA_HOME": str(tmp / "data"), "XDG_CACHE_HOME": str(tmp / "cache"),
            "CLUSTER_PLANNER_STATE_DIR": str(tmp / "state"), "CLUSTER_PLANNER_STATE_DUMP": str(self.state_file),
            "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        })
        self.env = env
        self.log = open(tmp / "app.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "cluster_planner", *args], cwd=tmp, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self.window = self.find_window(TITLE, timeout=90)
            wait_for(lambda: self.state_file.exists(), 60, "the app's first state dump")
            self.xdotool("windowfocus", "--sync", self.window)
            self.settle()
        except Exception:
            self.stop()
            raise

    # -- input ------------------------------------------------------------------------------
    def xdotool(self, *args: str, timeout: float = 30) -> str:
        result = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise AssertionError(f"xdotool {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def find_window(self, name: str, timeout: float = 60) -> str:
        """The id of the first visible window whose title matches ``name``, waiting for it.

        ``xdotool search`` walks every window and stops with BadWindow when one closes during
        the walk (a tooltip, a dialog of an earlier step); such a search is simply tried again.
        """
        def found():
            result = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name], env=self.env,
                                    capture_output=True, text=True, timeout=30)
            return result.stdout.split()[0] if result.stdout.split() else None
        return wait_for(found, timeout, f"a window named {name!r}", interval=0.2)

    def move(self, x: int, y: int) -> None:
        self.xdotool("mousemove", "--sync", str(int(x)), str(int(y)))

    def drag(self, start, end, steps: int = 24, via=None, hold: float = 0.05) -> None:
        """Press at ``start``, move in ``steps`` small steps (through ``via`` first) and release at ``end``."""
        self.move(*start)
        self.xdotool("mousedown", "1")
        time.sleep(0.2)
        points = [start, *(via or []), end]
        for a, b in zip(points, points[1:]):
            for i in range(1, steps + 1):
                self.move(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
                time.sleep(hold)
        time.sleep(0.3)
        self.xdotool("mouseup", "1")
        self.settle()

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--clearmodifiers", *keys)
        self.settle()

    def click(self, x: int, y: int) -> None:
        self.move(x, y)
        self.xdotool("click", "1")
        self.settle()

    def settle(self, quiet: float = 0.4) -> None:
        """Wait until the state dump has not changed for ``quiet`` seconds (the app is idle)."""
        last, since = None, time.monotonic()
        deadline = since + 20
        while time.monotonic() < deadline:
            stamp = self.state_file.stat().st_mtime_ns if self.state_file.exists() else None
            if stamp != last:
                last, since = stamp, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.05)

    # -- state ------------------------------------------------------------------------------
    def state(self) -> dict:
        for _ in range(50):
            try:
                return json.loads(self.state_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                time.sleep(0.05)
        raise AssertionError("the state dump cannot be read")

    def wait_state(self, predicate, what: str, timeout: float = 30.0) -> dict:
        return wait_for(lambda: (lambda s: s if predicate(s) else None)(self.state()), timeout, what)

    def slot(self, rack: str, u: int) -> tuple[int, int]:
        r = self.state()["geometry"]["racks"][rack]
        return r["x"], round(r["y_u1"] - (u - 1) * r["u_px"])

    def screenshot(self, name: str) -> Path:
        path = self.tmp / f"{name}.png"
        subprocess.run(["import", "-display", self.x.display, "-window", "root", str(path)], env=self.env,
                       capture_output=True, timeout=60)
        return path

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return (self.tmp / "app.log").read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()
        self.x.stop()


@pytest.fixture
def real_app(tmp_path):
    require_tool(*TOOLS)
    app = RealApp(tmp_path)
    yield app
    app.screenshot("at-exit")
    app.stop()

"""First run on a machine without Qt's system libraries: the exact apt-get line and exit 2, before Qt loads."""

import os
import subprocess
import time
import sys
from pathlib import Path

import pytest

from ui import qt_libs

ROOT = Path(__file__).resolve().parents[2]


def test_every_system_library_of_the_xcb_plugin_has_its_debian_package():
    plugin = qt_libs.xcb_plugin()
    if plugin is None or not sys.platform.startswith("linux"):
        pytest.skip("no xcb plugin here")
    linked = []
    for line in subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout.splitlines():
        name, arrow, where = line.strip().partition("=>")
        if arrow and "PySide6" not in where and not name.startswith("linux-vdso"):
            linked.append(name.strip())
    assert "libxcb-icccm.so.4" in linked and "libxcb-keysyms.so.1" in linked  # the ones a fresh machine lacked
    assert [lib for lib in linked if lib not in qt_libs.PACKAGES] == []


def test_missing_libraries_stop_the_app_with_the_apt_line_before_qt_loads(tmp_path):
    # ldd as on a fresh Debian 12 with python3 only: the xcb helper libraries are not found
    script = (
        "import sys, ui.qt_libs as q\n"
        "q._ldd_start = lambda plugin: None\n"
        "q._ldd_output = lambda plugin, started=None: ('\\tlibxcb-icccm.so.4 => not found\\n'\n"
        "    '\\tlibxcb-keysyms.so.1 => not found\\n\\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\\n')\n"
        "from cluster_planner import main\n"
        "rc = main([])\n"
        "print('Qt loaded' if 'PySide6.QtCore' in sys.modules else 'Qt not loaded')\n"
        "sys.exit(rc)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
    env.update(DISPLAY=":99", PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert run.returncode == 2
    assert run.stdout.strip() == "Qt not loaded"
    lines = run.stderr.strip().splitlines()
    assert lines[0] == ("cluster-planner: the desktop app needs system libraries this machine does not have "
                        "(libxcb-icccm.so.4, libxcb-keysyms.so.1); install them with:")
    sudo = "" if os.geteuid() == 0 else "sudo "
    assert lines[1].strip() == f"{sudo}apt-get install -y libxcb-icccm4 libxcb-keysyms1"
    assert "Traceback" not in run.stderr


def test_with_the_libraries_present_nothing_is_reported(monkeypatch):
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    if qt_libs.xcb_plugin() is None:
        pytest.skip("no xcb plugin here")
    assert qt_libs.problem() is None  # this machine has them (the real-input tests start the app on xcb)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(qt_libs, "_ldd_output", lambda plugin, started=None: "\tlibxcb-icccm.so.4 => not found\n")
    assert qt_libs.problem() is None  # offscreen does not load the xcb plugin


def test_a_hanging_ldd_is_given_up_after_its_timeout(tmp_path, monkeypatch):
    # ldd is a script whose loader child would hold the output pipe: the whole group is stopped
    fake = tmp_path / "ldd"
    fake.write_text("#!/bin/bash\nsleep 60 &\nwait\n")
    fake.chmod(0o755)
    monkeypatch.setattr(qt_libs.shutil, "which", lambda name: str(fake))
    monkeypatch.setattr(qt_libs, "LDD_TIMEOUT_S", 0.5)
    start = time.monotonic()
    assert qt_libs.missing_libraries(tmp_path / "libqxcb.so") == []  # nothing said: Qt names what it lacks
    # a hang check, not a timing one: left running, the fake's child would hold the pipe for 60 s
    assert time.monotonic() - start < 45

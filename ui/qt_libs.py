"""Before Qt loads: does this Linux machine have the system libraries Qt's xcb platform plugin needs?

Qt aborts (a core dump) when its platform plugin cannot load. ``problem()`` asks ``ldd``
which libraries the installed plugin cannot find and answers with the exact
``apt-get install`` line for them, so the app can say so and exit 2 instead. This module
imports nothing from Qt.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

PACKAGES: dict[str, str] = {
    # Debian 12 / Ubuntu 24.04 package of every system library the xcb plugin of PySide6 links
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-xkb.so.1": "libxcb-xkb1", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1", "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0", "libxcb-xinerama.so.0": "libxcb-xinerama0", "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6", "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6", "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0", "libGLdispatch.so.0": "libglvnd0", "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6", "libpng16.so.16": "libpng16-16", "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0", "libpcre2-8.so.0": "libpcre2-8-0",
    "libbrotlidec.so.1": "libbrotli1", "libbrotlicommon.so.1": "libbrotli1", "libzstd.so.1": "libzstd1",
    "libbsd.so.0": "libbsd0", "libmd.so.0": "libmd0", "libsystemd.so.0": "libsystemd0", "libcap.so.2": "libcap2",
    "libgcrypt.so.20": "libgcrypt20", "libgpg-error.so.0": "libgpg-error0", "liblzma.so.5": "liblzma5",
    "liblz4.so.1": "liblz4-1", "libexpat.so.1": "libexpat1", "libz.so.1": "zlib1g", "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1", "libc.so.6": "libc6", "libm.so.6": "libc6", "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
}


def xcb_plugin() -> Path | None:
    """The installed PySide6's xcb platform plugin (found without importing PySide6)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


LDD_TIMEOUT_S = 30.0


def _ldd_start(plugin: Path) -> subprocess.Popen | None:
    """``ldd PLUGIN`` started in a process group of its own, not waited for (None without ldd)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        return subprocess.Popen([ldd, str(plugin)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                start_new_session=True)
    except OSError:
        return None


def _ldd_output(plugin: Path, started: subprocess.Popen | None = None) -> str:
    """What ldd prints for the plugin: of the run ``started`` when given, else of a new one."""
    run = started if started is not None else _ldd_start(plugin)
    if run is None:
        return ""
    try:
        out, _ = run.communicate(timeout=LDD_TIMEOUT_S)
    except subprocess.TimeoutExpired:  # say nothing: Qt itself names a library it cannot load
        try:  # ldd is a script: the loader it runs would keep the pipe open, so the whole group goes
            os.killpg(run.pid, signal.SIGKILL)
        except OSError:
            run.kill()
        run.stdout.close()
        run.wait()
        return ""
    return out


def missing_libraries(plugin: Path, started: subprocess.Popen | None = None) -> list[str]:
    """The libraries the plugin links that the dynamic linker cannot find ("... => not found")."""
    out = []
    for line in _ldd_output(plugin, started).splitlines():
        name, _, where = line.strip().partition("=>")
        if where.strip() == "not found":
            out.append(name.strip())
    return out


def install_line(libraries: list[str]) -> str:
    packages = sorted({PACKAGES.get(lib, lib) for lib in libraries})
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install -y {' '.join(packages)}"


def start_check() -> Callable[[], str | None]:
    """Start the check: ldd runs in its own process while the caller goes on (the app imports
    its core meanwhile, so the check adds nothing to the start); the function returned waits
    for it and answers as ``problem()``."""
    if not sys.platform.startswith("linux") or not os.environ.get("DISPLAY"):
        return lambda: None
    if not os.environ.get("QT_QPA_PLATFORM", "xcb").startswith("xcb"):
        return lambda: None
    plugin = xcb_plugin()
    if plugin is None:
        return lambda: None
    started = _ldd_start(plugin)

    def answer() -> str | None:
        missing = missing_libraries(plugin, started)
        if not missing:
            return None
        return (f"the desktop app needs system libraries this machine does not have ({', '.join(missing)}); "
                f"install them with:\n    {install_line(missing)}")

    return answer


def problem() -> str | None:
    """Why Qt's xcb plugin would fail to load here, with the command that fixes it; None when it
    will load (or the app will not use xcb: not Linux, no X display, another platform chosen)."""
    return start_check()()

"""Fault injection for the planner's own writer, in the manner of SQLite's I/O error tests:
the nth file-system call a save makes fails (ENOSPC, EIO, EACCES), n = 1, 2, ... until a save
gets through untouched; for files a library writes itself (Qt's PDF, openpyxl's zip), a child
process whose files may not grow past a size (RLIMIT_FSIZE) at several sizes."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
import types
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The calls that change the file system, as the writer makes them (os and tempfile).
WRITING_CALLS = ("write", "fsync", "fchmod", "chmod", "link", "replace", "rename", "unlink", "mkdir", "mkstemp",
                 "mkdtemp")
CAUSES = {errno.ENOSPC: "the disk is full", errno.EIO: "Input/output error", errno.EACCES: "no permission to write"}


class Faults:
    """Counts writing calls; the ``fail_at``-th raises OSError(code)."""

    def __init__(self, fail_at: int, code: int) -> None:
        self.fail_at, self.code, self.calls, self.failed = fail_at, code, 0, False

    def wrap(self, module):
        proxy = types.SimpleNamespace(**{k: getattr(module, k) for k in dir(module) if not k.startswith("__")})
        for name in WRITING_CALLS:
            real = getattr(module, name, None)
            if real is not None:
                setattr(proxy, name, self._failing(real))
        return proxy

    def _failing(self, real):
        def call(*args, **kwargs):
            self.calls += 1
            if self.calls == self.fail_at:
                self.failed = True
                raise OSError(self.code, os.strerror(self.code))
            return real(*args, **kwargs)
        return call


@contextmanager
def failing_call(monkeypatch, modules, fail_at: int, code: int):
    """Within the block, the ``fail_at``-th writing call of ``modules`` (their ``os`` and
    ``tempfile``) fails with ``code``."""
    faults = Faults(fail_at, code)
    with monkeypatch.context() as patch:
        for module in modules:
            patch.setattr(module, "os", faults.wrap(os))
            if hasattr(module, "tempfile"):
                patch.setattr(module, "tempfile", faults.wrap(tempfile))
        yield faults


def each_failure(monkeypatch, modules, code: int, prepare, save, check_failed, check_done, most: int = 200) -> int:
    """Run ``prepare()`` then ``save()`` with its 1st, 2nd, ... writing call failing, until one run
    fails none; ``check_failed(message)`` after each failed save (a fault the writer may ignore,
    such as a folder's fsync, lets the save succeed), ``check_done()`` after the last. Returns
    how many calls were made to fail."""
    for n in range(1, most):
        prepare()
        with failing_call(monkeypatch, modules, n, code) as faults:
            try:
                save()
            except Exception as exc:  # noqa: BLE001 - the message is what is checked
                assert faults.failed, f"failed with no injected fault: {exc}"
                check_failed(str(exc))
                continue
        if not faults.failed:
            check_done()
            return n - 1
    raise AssertionError(f"still failing after {most} calls")


# A child whose files may not grow past LIMIT bytes: a write beyond fails (EFBIG; Python ignores
# SIGXFSZ). No bytecode is written there, as a cut-short .pyc would break later runs.
LIMITED = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from cluster_planner import main
sys.exit(main(sys.argv[2:]))
"""


def run_with_file_limit(limit: int, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)

"""The PySide6 6.12 / Python 3.11 None reference defect does not bring the process down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# None starts with a few thousand references; each void Qt call on the affected wheels drops one.
LOOP = """
import sys
{protect}
from PySide6.QtCore import QRectF
r = QRectF(0, 0, 1, 1)
for _ in range(50_000):
    r.setX(1.0)
print("survived")
"""


def run(protect: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LOOP.format(protect=protect)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_fifty_thousand_void_qt_calls_survive_with_the_protection():
    done = run("from ui.pyside_compat import protect_none_refcount; protect_none_refcount()")
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "survived"


def test_protection_is_idempotent():
    from ui.pyside_compat import protect_none_refcount

    protect_none_refcount()
    before = sys.getrefcount(None)
    protect_none_refcount()  # a second call (say, from a second export) adds nothing
    assert abs(sys.getrefcount(None) - before) < 1000

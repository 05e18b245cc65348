"""System tools some tests run (poppler, LibreOffice, Xvfb, xdotool, ImageMagick).

A missing tool is handled the same way for every test: outside CI the test is skipped and
says which tool and package it wants; under CI (the environment variable ``CI`` set, as CI
services set ``CI=true``) the test fails, because .ci/run installs them all and a test that
quietly skips there proves nothing. Use ``require_tool("pdftotext")`` in a test or fixture,
or mark a test or module with ``@pytest.mark.needs_tool("pdftoppm", "pdftotext")``
(tests/conftest.py applies the mark).
"""

from __future__ import annotations

import os
import shutil

import pytest

PACKAGES = {  # the tool -> what installs it (the names .ci/run installs)
    "pdftotext": "poppler-utils", "pdftoppm": "poppler-utils", "pdfinfo": "poppler-utils",
    "soffice": "LibreOffice (libreoffice-calc-nogui)", "libreoffice": "LibreOffice (libreoffice-calc-nogui)",
    "Xvfb": "xvfb", "xvfb-run": "xvfb", "xdotool": "xdotool", "import": "ImageMagick (imagemagick)",
    "fio": "fio",
}


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_tool(*names: str) -> None:
    """Each of ``names`` must be on PATH: else skip with the reason, or fail under CI."""
    missing = [n for n in names if shutil.which(n) is None]
    if not missing:
        return
    why = ", ".join(f"{n} ({PACKAGES.get(n, 'a system package')})" for n in missing)
    if under_ci():
        pytest.fail(f"CI must have {why}: .ci/run installs it", pytrace=False)
    pytest.skip(f"needs {why}, which is not installed")

"""Work around a reference-count defect of the PySide6 6.12 wheels on Python 3.11.

The PySide6-Essentials 6.12.0 wheel (stable ABI, built with Python 3.12+ headers, where
None is immortal) drops one reference to None on every Qt call that returns nothing
(``painter.drawRect``, ``QRectF.setX``, ...) when it runs on Python 3.11. None starts
with a few thousand references, so a few thousand such calls later Python aborts with
"Fatal Python error: none_dealloc: deallocating None". Python 3.12 made None immortal by
giving it a huge reference count (PEP 683); on 3.11 we do the same, once, before Qt is used.
"""

from __future__ import annotations

import sys

# 2**40 references: the defect would need over a trillion Qt calls to use them up.
_EXTRA_REFS = 1 << 40
_done = False


def protect_none_refcount() -> None:
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    ctypes.c_ssize_t.from_address(id(None)).value += _EXTRA_REFS
    _done = True

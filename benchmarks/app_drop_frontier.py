"""Drop-to-repaint latency on a big template (``frontier-100k`` by default) in the desktop app; prints one JSON line.

The app's main window is opened on the plan (frontier-100k: 2,468 racks, 16,470 devices). Each of ~200
moves is what a drop does: a ``MoveDevice`` of a random device to the lowest free slot of
a random rack, applied through the document (core command, incremental evaluation, the
``changed`` signal to every view), with the view showing the target rack at the zoom the
app opens with. The time runs from the apply until the rack view's viewport, the checks
panel and the summary strip have repainted (``median_ms``, ``p95_ms``); and, in as many
moves again, as the frame the user sees: from the apply until the event loop has repainted
everything the drop made dirty (the rack view, the charts, the floor overview, the checks,
the inspector) and no event is left (``frame_median_ms``, ``frame_p95_ms``). Half of the
moves are timed with the whole floor zoomed out (every rack on screen). Target: p95 < 16 ms (one 60 Hz frame), on
frontier-100k and on campus-400k (8,430 racks, 27,124 devices).

    QT_QPA_PLATFORM=offscreen python3 benchmarks/app_drop_frontier.py [--template campus-400k] [--moves N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from planner.design.templates import build_template  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.plan.commands import MoveDevice  # noqa: E402
from planner.plan.space import fit_problem, lowest_free_u  # noqa: E402
from ui.app import ensure_application  # noqa: E402
from ui.document import Document  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def timed_moves(window, moves: int, rng: random.Random, zoomed_out: bool, frame: bool = False) -> list[float]:
    """Milliseconds from each drop to the view, checks and summary repainted (with ``frame``:
    until the event loop has done everything the drop asked of it)."""
    app, doc, view = QApplication.instance(), window.doc, window.view
    ids = [p.id for p in doc.plan.placements]
    racks = [r.id for r in doc.plan.racks]
    times: list[float] = []
    while len(times) < moves:
        p = doc.plan.placement(rng.choice(ids))
        rack = doc.plan.rack(rng.choice(racks))
        d = doc.catalog[p.device]
        u = lowest_free_u(doc.plan, doc.catalog, rack, d.u_height)
        if u is None or fit_problem(doc.plan, doc.catalog, rack.id, u, d, frozenset({p.id})):
            continue  # no room, or a rack that refuses it (a liquid-cooled system in an air rack)
        if not zoomed_out:
            view.centerOn(view.racks[rack.id].sceneBoundingRect().center())  # the user looks where they drop
        app.processEvents()
        start = time.perf_counter()
        ok = doc.apply(MoveDevice(p.id, rack.id, u))
        if frame:
            app.processEvents()
        else:
            view.viewport().repaint()
            window.checks.repaint()
            window.summary.repaint()
        times.append((time.perf_counter() - start) * 1e3)
        assert ok, doc.last_error
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--template", default="frontier-100k")
    parser.add_argument("--limit-ms", type=float, default=16.0, help="p95 target (one 60 Hz frame)")
    args = parser.parse_args()
    qInstallMessageHandler(lambda *a: None)  # keep stdout to the one JSON line
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)  # no remembered window layout
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/nonexistent-benchmark-settings")
    app = ensure_application()
    catalog = default_catalog()
    window = MainWindow(Document(build_template(args.template, catalog=catalog), catalog))
    window.resize(1500, 920)
    window.show()
    window.view.zoom_to_rack_height()
    app.processEvents()
    rng = random.Random(8)
    near = timed_moves(window, args.moves - args.moves // 2, rng, zoomed_out=False)
    frames = timed_moves(window, args.moves - args.moves // 2, rng, zoomed_out=False, frame=True)
    window.view.zoom_to_fit()
    app.processEvents()
    far = timed_moves(window, args.moves // 2, rng, zoomed_out=True)
    frames += timed_moves(window, args.moves // 2, rng, zoomed_out=True, frame=True)
    both = near + far
    print(json.dumps({
        "benchmark": "app_drop_frontier", "template": args.template, "platform": os.environ["QT_QPA_PLATFORM"],
        "racks": len(window.doc.plan.racks), "devices": len(window.doc.plan.placements), "moves": len(both),
        "median_ms": round(statistics.median(both), 2), "p95_ms": round(p95(both), 2), "max_ms": round(max(both), 2),
        "rack_zoom_p95_ms": round(p95(near), 2), "zoomed_out_p95_ms": round(p95(far), 2),
        "frame_median_ms": round(statistics.median(frames), 2), "frame_p95_ms": round(p95(frames), 2),
        "load_average": round(os.getloadavg()[0], 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "limit_p95_ms": args.limit_ms, "ok": p95(both) < args.limit_ms,
    }))
    window.doc.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()

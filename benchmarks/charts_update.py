"""Time updating all five charts after one edit (a node added to a rack), on the `massive`
template and on the same template at 2,000 nodes; print one JSON line of figures.

``update_ms``: ChartsPanel.update_report feeding all five charts' items (median of the edits);
``update_paint_ms``: the same plus painting the visible tab (rack power), offscreen.
The evaluation itself is timed by benchmarks/evaluate.py and not counted here."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication  # noqa: E402

from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.plan.commands import AddDevice, RemoveDevices  # noqa: E402
from planner.report.evaluate import Evaluator  # noqa: E402
from planner.design.templates import build_template  # noqa: E402
from ui.charts import ChartsPanel  # noqa: E402
from ui.charts.panel import TABS  # noqa: E402


def best_update_ms(app, catalog, nodes: int | None, repeats: int = 15) -> tuple[float, float, int]:
    plan = build_template("massive", nodes=nodes, catalog=catalog) if nodes else \
        build_template("massive", catalog=catalog)
    ev = Evaluator(plan, catalog)
    panel = ChartsPanel()
    panel.resize(1200, 600)
    panel.show()
    panel.charts  # build every tab's chart (the panel builds a chart when its tab is first shown)
    panel.update_report(ev.evaluate())
    app.processEvents()
    node = next(p for p in plan.placements if catalog.get(p.device).gpu is not None)
    rack = node.rack
    free_u = 1 + max(p.u + catalog.get(p.device).u_height - 1 for p in plan.placements if p.rack == rack)
    best = best_paint = float("inf")
    updates: list[float] = []
    for i in range(repeats):
        cmd = AddDevice(node.device, rack, free_u) if i % 2 == 0 else RemoveDevices([added])
        changes = cmd.do(plan, catalog)
        if i % 2 == 0:
            added = cmd.placement_id
        report = ev.evaluate(changes)
        t0 = time.perf_counter()
        panel.update_report(report, changes)
        t1 = time.perf_counter()
        panel.rack_power.repaint()
        app.processEvents()
        t2 = time.perf_counter()
        best, best_paint = min(best, t1 - t0), min(best_paint, t2 - t0)
        updates.append(t1 - t0)
    assert len(panel._built) == len(TABS)
    return sorted(updates)[len(updates) // 2] * 1e3, best_paint * 1e3, len(plan.racks)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    catalog = default_catalog()
    m_ms, m_paint, m_racks = best_update_ms(app, catalog, None)
    b_ms, b_paint, b_racks = best_update_ms(app, catalog, 2000, repeats=7)
    print(json.dumps({
        "load_average": round(os.getloadavg()[0], 2),
        "massive_racks": m_racks,
        "massive_update_ms": round(m_ms, 3),
        "massive_update_paint_ms": round(m_paint, 3),
        "nodes_2000_racks": b_racks,
        "nodes_2000_update_ms": round(b_ms, 3),
        "nodes_2000_update_paint_ms": round(b_paint, 3),
    }))


if __name__ == "__main__":
    main()

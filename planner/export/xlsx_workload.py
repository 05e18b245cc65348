"""The Workload sheet: the workload section's figures with their labels and units, as
``check`` prints them: the training step (MFU, step time, memory, time and cost to train)
or, for an inference plan, its serving figures (``planner.report.labels.INFERENCE_LINES``:
weights and KV cache per GPU, time per output token, requests a replica serves). Values,
not formulas: the step model is the planner's, not a spreadsheet's.
"""

from __future__ import annotations

from planner.export.xlsx_cells import TITLE, WRAP, header, num, text, widths
from planner.hardware.catalog import Catalog
from planner.report import labels
from planner.report.model import Report

WORKLOAD = "Workload"
INTEGER = "#,##0"


def write_workload(ws, report: Report, catalog: Catalog | None = None) -> None:
    """One row per figure (label, value, unit); a figure by option (the cost of the run, of a
    million output tokens) one row per option; figures the plan does not have are left out,
    and a serving plan's training step (``labels.TRAINING_ONLY``)."""
    text(ws, 1, 1, "Workload", font=TITLE)
    work = report.workload
    if work is None:
        text(ws, 3, 1, "No workload figures: the plan has no GPUs or its workload is off (Settings, Workload)")
        return
    serving = work.inference is not None
    text(ws, 2, 1, ("An inference service: its replica's memory, latency and throughput." if serving else
                    "The training step as the planner's model evaluates it (see the Checks sheet for what it "
                    "finds)")).alignment = WRAP
    header(ws, 3, ["Figure", "Value", "Unit"])
    r = 4
    for meta, value in work.figures():
        key = meta.name
        if key == "inference":
            data = value.to_json() if value is not None else {}
            for name, title, unit in labels.INFERENCE_LINES:
                if data.get(name) is not None:
                    r = _row(ws, r, title, data[name], unit)
            continue
        if isinstance(value, (list, tuple)) or hasattr(value, "to_json"):
            continue  # the layout candidates and the memory breakdown: in check --json
        if value is None or (serving and key in labels.TRAINING_ONLY):
            continue  # a figure the plan does not have (a serving plan's training step, say)
        title = labels.label("workload", key)
        if isinstance(value, dict):
            for option, v in value.items():
                r = _row(ws, r, f"{title}: {option.replace('_', ' ')}", v, meta.unit)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            r = _row(ws, r, title, value, meta.unit)
        else:
            text(ws, r, 1, title)
            text(ws, r, 2, labels.describe("workload", key, value, catalog)[1])
            r += 1
    widths(ws, {1: 58, 2: 22, 3: 14})


def _row(ws, r: int, title: str, value, unit: str) -> int:
    """A labelled number in the unit's number format (shares as percentages, dollars with their
    sign and cents: a million output tokens cost a few dollars), the unit beside it where the
    format does not show it."""
    text(ws, r, 1, title)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = {"fraction": "0.0%", "share": "0.0%", "$": '"$"#,##0.00'}.get(unit)
        fmt = shown or (INTEGER if float(value).is_integer() else "#,##0.0##")
        num(ws, r, 2, value, fmt)
        text(ws, r, 3, "" if shown else unit)
    else:
        text(ws, r, 2, "-" if value is None else str(value))
    return r + 1

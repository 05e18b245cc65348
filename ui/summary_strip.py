"""The summary strip: the plan's headline figures from the report (totals and, when present,
the network and cost sections); an inference plan's serving figures in the training
figures' slots.

Why it is long: each figure's tooltip is written from the report here (what a step loses,
the run's cost with and without failures, when the build-out energizes), beside the fixed
slot widths that keep the strip from reflowing as the figures change.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from planner.goodput.findings import duration_text
from planner.report.model import Report
from planner.report.schedule_text import training_run_line
from planner.schedule.model import PART_NAMES
from planner.schedule.section import energized_text
from planner.settings.costs import RENTAL_OPTIONS
from ui import fmt
from ui.flow_layout import FlowLayout


class _Figure(QFrame):
    def __init__(self, title: str, tooltip: str):
        super().__init__()
        self.setObjectName("SummaryFigure")
        self.value = QLabel("–")
        self.value.setObjectName("SummaryValue")
        self.caption = QLabel(title)
        self.caption.setObjectName("SummaryCaption")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(7, 4, 7, 4)
        layout.setSpacing(0)
        layout.addWidget(self.value, alignment=Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.caption, alignment=Qt.AlignmentFlag.AlignLeft)
        self.setToolTip(tooltip)

    def slot_width(self, widest_value: str, widest_caption: str = "") -> int:
        """Room for the widest caption and value (fonts as styled), plus the margins."""
        self.ensurePolished()
        self.value.ensurePolished()
        self.caption.ensurePolished()
        room = max(self.value.fontMetrics().horizontalAdvance(widest_value),
                   self.caption.fontMetrics().horizontalAdvance(widest_caption or self.caption.text()))
        margins = self.layout().contentsMargins()
        return room + margins.left() + margins.right() + 4


# key: (caption, tooltip)
FIGURES: dict[str, tuple[str, str]] = {
    "gpus": ("GPUs", "GPUs in all placed nodes"),
    "nodes": ("nodes", "GPU servers placed"),
    "racks": ("racks", "racks in the plan"),
    "it_kw": ("IT power", "IT power on the plan's power basis"),
    "facility_kw": ("facility power", "IT power x PUE"),
    "cdus": ("CDUs needed / placed", "CDUs the liquid-cooled nodes need by the CDU policy, and CDUs placed"),
    "tokens_per_s": ("tokens/s", "training throughput the cluster can compute"),
    "gpu_idle_pct": ("GPU idle", "share of a step the GPUs lose: communication not hidden behind compute, "
                     "and the pipeline bubble"),
    "idle_cause": ("exposed comm", "the larger of the two losses that make GPU idle, per step"),
    "mfu": ("MFU", "end-to-end model FLOP utilisation: FLOPs per token x tokens/s / (GPUs x peak), with the "
            "pipeline bubble and exposed communication (the figure papers publish)"),
    "time_to_train": ("to train", "days to train the workload's token budget at this throughput, with the "
                      "time failures cost (goodput section)"),
    "capex": ("capex", "purchase cost of the placed hardware"),
    "break_even": ("running to beat renting", "months of running until owning beats renting (first rental option)"),
    "energized": ("energized", "when the last phase of the plan is ready: months after the order, or its month "
                  "when the order date is set (Schedule chart)"),
}


_ORDER = [(k,) for k in FIGURES if k not in ("gpu_idle_pct", "idle_cause")]
_ORDER.insert(list(FIGURES).index("gpu_idle_pct"), ("gpu_idle_pct", "idle_cause"))

UNAVAILABLE = "–"
SLOT_SAMPLES = {"gpus": "8,888,888", "nodes": "888,888", "racks": "88,888", "it_kw": "888.88 MW",
                "facility_kw": "888.88 MW", "cdus": "8,888 / 8,888",
                "gpu_idle_pct": "88.8 %", "mfu": "88.8 %", "idle_cause": "888.88 s/step", "tokens_per_s": "888,888,888",
                "capex": "$888.88M", "break_even": "888.8 mo", "energized": "8888-88"}
"""The widest value each figure shows within the plan limits (25,000 racks: campus-1m's
1,066,968 GPUs, 22,582 racks and 294,748,023 tokens/s): its slot is that wide, whatever it
shows."""
# the rental options in a caption: "28.3 mo / running to beat 1-yr rent"
RENT_SHORT = {"reserved_1yr": "1-yr rent", "reserved_3yr": "3-yr rent", "spot": "spot", "on_demand": "on-demand"}
CAPTION_SAMPLES = {"break_even": "running to beat on-demand", "idle_cause": "pipeline bubble",
                   "time_to_train": "to train 88.8T tokens"}
"""The widest caption of the figures whose caption follows the report."""
# An inference plan's figures in the training figures' slots: key -> (caption, tooltip).
SERVING: dict[str, tuple[str, str]] = {
    "tokens_per_s": ("requests/s", "requests per second the placed GPUs serve: their whole replicas x the "
                     "requests a replica serves at its operating batch"),
    "gpu_idle_pct": ("TPOT", "time per output token (TPOT) at the replica's operating batch"),
    "idle_cause": ("first token", "time to the first token (TTFT): a prompt's prefill"),
    "mfu": ("batch", "the operating batch: sequences a replica decodes together"),
    "time_to_train": ("per M tokens (1-yr)", "cost per million output tokens at the reserved 1-year rental rate "
                      "with its uplift (the design's basis; the others below)"),
}
"""Captions no wider than the training figures' own, so the slots keep their widths."""


def _why_no_workload(report: Report) -> str:
    """Why the training figures are missing: the workload finding that stops them, if any."""
    for f in report.global_findings:  # the workload's findings are plan-wide, never a rack's
        if f.code.startswith("workload.") and f.severity == "error":
            return f.message
    return ("The training workload is off (Settings > Workload) or the plan has no GPU nodes on the fabric.")


class SummaryStrip(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("SummaryStrip")
        layout = FlowLayout(self)  # wraps onto a second line in a narrow window
        layout.setContentsMargins(6, 2, 6, 2)
        pol = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        pol.setHeightForWidth(True)
        self.setSizePolicy(pol)
        self.figures: dict[str, _Figure] = {}
        for key, (caption, tip) in FIGURES.items():
            self.figures[key] = fig = _Figure(caption, tip)
            fig.setFixedWidth(fig.slot_width(SLOT_SAMPLES.get(key, "88,888.8 mo"), CAPTION_SAMPLES.get(key, "")))
        for keys in _ORDER:  # a pair stays together when the strip wraps: GPU idle beside its cause
            if len(keys) == 1:
                layout.addWidget(self.figures[keys[0]])
                continue
            pair = QWidget()
            row = QHBoxLayout(pair)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(layout.spacing() if layout.spacing() >= 0 else 6)
            for key in keys:
                row.addWidget(self.figures[key])
            layout.addWidget(pair)

    def text(self, key: str) -> str:
        """The shown value of a figure ("–" when the report does not have it)."""
        return self.figures[key].value.text()

    def _set(self, key: str, value: str | None, tooltip: str | None = None, why: str = "",
             serving: bool = False) -> None:
        """Every figure keeps its slot: an unavailable one shows "–" and its tooltip says why,
        so nothing reflows (the rack view below does not jump). ``serving``: the slot shows an
        inference plan's figure (``SERVING``), with its caption."""
        fig = self.figures[key]
        caption, tip = SERVING[key] if serving else FIGURES[key]
        if key in SERVING:
            fig.caption.setText(caption)
        fig.value.setText(UNAVAILABLE if value is None else value)
        if value is None:
            fig.setToolTip(f"{caption[:1].upper() + caption[1:]}: not available. {why}".strip())
        else:
            fig.setToolTip(tooltip or tip)

    def on_changed(self, _changes, report: Report) -> None:
        self.show_report(report)

    def show_report(self, report: Report) -> None:
        t = report.totals
        self._set("gpus", fmt.count(t.gpus))
        self._set("nodes", fmt.count(t.nodes))
        self._set("racks", fmt.count(t.racks))
        self._set("it_kw", fmt.kw(t.it_power_kw),
                  f"IT power {fmt.kw(t.it_power_kw, 'exact')} on the {t.basis} basis "
                  f"(typical {fmt.kw(t.it_power_typical_kw, 'exact')}, nameplate {fmt.kw(t.it_power_nameplate_kw, 'exact')})")
        self._set("facility_kw", fmt.kw(t.facility_power_kw),
                  f"Facility power {fmt.kw(t.facility_power_kw, 'exact')}: IT power x PUE {fmt.number(t.pue, 'g')}")
        self._set("cdus", f"{t.cdus} / {t.cdus_placed}")
        net, cost = report.network, report.cost
        allreduce = net.allreduce_ms if net is not None else None
        tokens = net.tokens_per_s if net is not None else None
        why = _why_no_workload(report)
        work = report.workload
        if work is not None and work.inference is not None:
            self._set_serving(work)
        else:
            self._set_idle(work, allreduce, why)
            self._set("tokens_per_s", fmt.count(round(tokens)) if tokens is not None else None, why=why)
            self._set_workload(work, report.sections.get("goodput"), training_run_line(report))
        no_cost = "The report has no cost figures for this plan."
        self._set("capex", fmt.usd(cost.capex_usd) if cost is not None else None,
                  f"Capex {fmt.usd(cost.capex_usd, 'exact')}" if cost is not None else None, why=no_cost)
        schedule = report.sections.get("schedule")
        self._set_break_even(cost.break_even_months if cost is not None else None,
                             getattr(schedule, "break_even_month_after_order", None))
        self._set_energized(report.sections.get("schedule"))

    def _set_serving(self, work) -> None:
        """An inference plan's headline: requests/s served, TPOT, TTFT, cost per million output
        tokens and output per GPU (the workload section's inference sizing), in the training
        figures' slots."""
        inf = work.inference
        why = "The replica does not fit its GPUs, or the GPUs' memory bandwidth is unknown (Checks)."
        served = work.inference_requests_per_s
        per_gpu = inf.output_tokens_per_s_per_gpu
        self._set("tokens_per_s", None if served is None else fmt.number(served, ",.1f"),
                  None if served is None else SERVING["tokens_per_s"][1] + f": {fmt.number(served, ',.2f')}"
                  + (f"; each GPU produces {fmt.count(round(per_gpu))} output tokens/s, prefill included"
                     if per_gpu else ""), why=why, serving=True)
        tpot, ttft = (inf.tpot_s if inf.tpot_s is not None else inf.decode_s_per_token), inf.prefill_s
        ms = None if tpot is None else tpot * 1e3
        self._set("gpu_idle_pct", None if ms is None else f"{fmt.number(ms, ',.1f' if ms < 10 else ',.0f')} ms",
                  why=why, serving=True)
        self._set("idle_cause", None if ttft is None else f"{fmt.number(ttft * 1e3, ',.0f')} ms", why=why,
                  serving=True)
        costs = work.inference_usd_per_m_output_tokens or {}
        name = "rent_reserved_1yr" if "rent_reserved_1yr" in costs else next(iter(costs), None)
        self._set("time_to_train", None if name is None else fmt.usd(costs[name], "exact"),
                  None if name is None else SERVING["time_to_train"][1] + ":\n" + "\n".join(
                      f"{k.replace('_', ' ')}: {fmt.usd(v, 'exact')}" for k, v in costs.items()),
                  why="The plan has no prices to cost its tokens with.", serving=True)
        self._set("mfu", fmt.count(inf.batch) if inf.batch else None, why=why, serving=True)

    def _set_energized(self, s) -> None:
        """The month (or, with an order date, the month's date) the plan is energized; the tooltip
        names what gates it."""
        if s is None or not s.phases:
            self._set("energized", None, why="The plan has no racks to bring online.")
            return
        value = s.energized_date[:7] if s.energized_date else f"{s.energized_month} mo"
        gate = PART_NAMES.get(s.critical_part, "installation")
        lead = s.lead_weeks.get(s.critical_part)
        self._set("energized", value, f"Energized {energized_text(s)}: the {gate}"
                  + (f" ({fmt.number(lead, 'g')} weeks)" if lead else "") + " gates it; the first phase is online "
                  f"from month {s.first_ready_month} (Settings > Schedule: lead times and order date)")

    def _set_idle(self, work, allreduce_ms: float | None, why: str) -> None:
        """GPU idle is what the step loses (the workload section's split); beside it, its larger cause."""
        idle = work.idle_share if work is not None else None
        if idle is None:
            self._set("gpu_idle_pct", None, why=why)
            self._set("idle_cause", None, why=why)
            return
        comm = (work.exposed_comm_s, work.exposed_comm_share)
        bubble = (work.bubble_s, work.bubble_share)
        parts = (f"exposed communication {fmt.number(comm[0], ',.2f')} s ({fmt.number(100 * comm[1])} %): "
                 "tensor, pipeline and data-parallel traffic not hidden behind compute",
                 f"pipeline bubble {fmt.number(bubble[0], ',.2f')} s ({fmt.number(100 * bubble[1])} %): "
                 "stages waiting while the pipeline fills and drains")
        step = f"{fmt.number(work.step_time_s, ',.2f')} s"
        self._set("gpu_idle_pct", f"{fmt.number(100 * idle)} %",
                  f"The GPUs lose {fmt.number(100 * idle)} % of a {step} step:\n" + "\n".join(parts))
        larger = 0 if comm[1] >= bubble[1] else 1
        seconds, share = (comm, bubble)[larger]
        tip = parts[larger].capitalize() + f" of a {step} step"
        if allreduce_ms is not None:  # a part of the communication, not the idle's cause on its own
            tip += (f"\nOf the communication, the gradient all-reduce takes {fmt.number(allreduce_ms)} ms a step, "
                    "partly hidden behind the backward pass")
        self._set("idle_cause", f"{fmt.number(seconds, ',.2f')} s/step", tip)
        self.figures["idle_cause"].caption.setText(("exposed comm", "pipeline bubble")[larger])

    def _set_workload(self, work, goodput=None, calendar: str | None = None) -> None:
        """MFU and the days to train; the tooltip prices the run on the whole cluster and, with
        ``calendar``, on the build-out's calendar (``planner.report.schedule_text``)."""
        mfu = work.mfu if work is not None else None
        self._set("mfu", f"{fmt.number(100 * mfu)} %" if mfu is not None else None)
        days = work.time_to_train_days if work is not None else None
        if days is None:
            self._set("time_to_train", None)
            self.figures["time_to_train"].caption.setText(FIGURES["time_to_train"][0])  # no budget to name
            return
        tokens_b = work.train_tokens_b or 0.0
        budget = f"{fmt.number(tokens_b / 1000, '.3g')}T" if tokens_b >= 1000 else f"{fmt.number(tokens_b, '.3g')}B"
        failing = goodput.time_to_train_days if goodput is not None else None
        every = (f"an interruption every {duration_text(goodput.mtbf_h * 3600)}"
                 if goodput is not None and goodput.mtbf_h else "no interruptions")
        if goodput is not None and goodput.ettr is not None and failing is None:
            # the goodput model ran and gives no time: interruptions lose the whole day
            self._set("time_to_train", "never", (
                f"Never trains {budget} tokens with failures: {every}, each losing "
                f"{duration_text((goodput.lost_per_interruption_min or 0) * 60)}, leaves an effective training "
                f"time ratio (ETTR) of 0 % (Goodput chart: where it falls with scale). "
                f"{fmt.number(days, ',.1f')} days if nothing failed."))
            self.figures["time_to_train"].caption.setText(f"to train {budget} tokens")
            return
        shown_days = failing if failing is not None else days
        shown = f"{fmt.number(shown_days, ',.0f' if shown_days >= 10 else ',.1f')} days"
        costs = (goodput.run_cost_usd if failing is not None else None) or work.run_cost_usd or {}
        lines = [f"{k.replace('_', ' ')}: {fmt.usd(v)}" for k, v in costs.items()]
        if failing is None:
            head = f"Days to train {budget} tokens at this plan's throughput"
        else:
            head = (f"Days to train {budget} tokens: {fmt.number(failing, ',.1f')} with failures (ETTR "
                    f"{fmt.number(100 * goodput.ettr, '.1f')} %, {every}), {fmt.number(days, ',.1f')} if nothing "
                    "failed")
        self._set("time_to_train", shown, head + ("\nThe run's cost" + (" with failures" if failing is not None else "")
                                                 + ":\n" + "\n".join(lines) if lines else "")
                  + (f"\nOn the build-out's calendar, nothing failing: {calendar}" if calendar else ""))
        self.figures["time_to_train"].caption.setText(f"to train {budget} tokens")

    def _set_break_even(self, months: Any, after_order: Any = None) -> None:
        """Months of running until owning beats renting (the cost section's, from the day the
        cluster runs); the tooltip adds the Schedule's month counted from the order."""
        if not isinstance(months, dict) or not months:
            self._set("break_even", None, why="There is no rental option to compare with.")
            return
        # The guide's break-even is against reserved 1-yr rental; otherwise the first option.
        name = "reserved_1yr" if "reserved_1yr" in months else next(iter(months))
        value = months[name]
        lines = [f"{RENTAL_OPTIONS.get(k, k)}: {'never' if v is None else f'{v:,.1f} months'}" for k, v in months.items()]
        shown = "never" if value is None else f"{value:,.1f} mo"
        tip = "Months of running until owning beats renting, counted from the day the cluster runs:\n" + \
            "\n".join(lines)
        if isinstance(after_order, dict) and after_order:
            tip += "\nCounted from the order, the build-out's months first (Schedule):\n" + "\n".join(
                f"{RENTAL_OPTIONS.get(k, k)}: {'never' if v is None else f'month {v:,.1f}'}"
                for k, v in after_order.items())
        self._set("break_even", shown, tip)
        self.figures["break_even"].caption.setText(f"running to beat {RENT_SHORT.get(name, name.replace('_', ' '))}")


class SummaryArea(QScrollArea):
    """The strip, at most ``ROWS`` rows of figures high: in a narrow window the rest scroll
    (a scroll bar beside them) instead of pushing the rack view down. At 1,024 x 700 the strip
    wrapped to five rows and left the racks 160 px, none of their devices in sight."""

    ROWS = 2

    def __init__(self, strip: SummaryStrip):
        super().__init__()
        self.setObjectName("SummaryArea")
        self.strip = strip
        self.setWidget(strip)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # as high as ``fit`` says, or down to one row where the window is too short for it (the
        # area sets no floor under the window's own minimum height)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self._height = self.rows_height(1)

    def rows_height(self, rows: int) -> int:
        """The strip's height with ``rows`` rows of figures (every slot is one figure high)."""
        layout = self.strip.layout()
        m = layout.contentsMargins()
        row = max(f.sizeHint().height() for f in self.strip.figures.values())
        return m.top() + m.bottom() + rows * row + (rows - 1) * layout.line_spacing

    def fit(self) -> None:
        """As high as the strip at this width, up to ``ROWS`` rows."""
        m = self.contentsMargins()  # the border below the figures (the stylesheet's)
        # at the whole width, no scroll bar: one shown narrows the strip, and by that a third
        # row would keep it shown in a window wide enough for two
        width = self.width() - m.left() - m.right()
        whole, most = self.strip.layout().heightForWidth(max(1, width)), self.rows_height(self.ROWS)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if whole > most
                                        else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._height = min(whole, most) + m.top() + m.bottom()
        self.setMaximumHeight(self._height)
        self.setMinimumHeight(min(self._height, self.rows_height(1) + m.top() + m.bottom()))
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(super().sizeHint().width(), self._height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(super().minimumSizeHint().width(), self.minimumHeight())

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.fit()


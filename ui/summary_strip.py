"""The summary strip: the plan's headline figures from the report (totals and, when present,
the network and cost sections)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from planner.report.model import Report
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
        layout.setContentsMargins(10, 4, 10, 4)
        layout.setSpacing(0)
        layout.addWidget(self.value, alignment=Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.caption, alignment=Qt.AlignmentFlag.AlignLeft)
        self.setToolTip(tooltip)


# key: (caption, tooltip)
FIGURES: dict[str, tuple[str, str]] = {
    "gpus": ("GPUs", "GPUs in all placed nodes"),
    "nodes": ("nodes", "GPU servers placed"),
    "racks": ("racks", "racks in the plan"),
    "it_kw": ("IT power", "IT power on the plan's power basis"),
    "facility_kw": ("facility power", "IT power x PUE"),
    "cdus": ("CDUs needed / placed", "CDUs the liquid-cooled nodes need by the CDU policy, and CDUs placed"),
    "allreduce_ms": ("all-reduce", "gradient all-reduce time per step (network section)"),
    "gpu_idle_pct": ("GPU idle", "share of a step the GPUs wait for the network"),
    "tokens_per_s": ("tokens/s", "training throughput the cluster can compute"),
    "capex": ("capex", "purchase cost of the placed hardware"),
    "break_even": ("break-even", "months until owning beats renting (first rental option)"),
}


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
            layout.addWidget(fig)

    def text(self, key: str) -> str | None:
        """The shown value of a figure, or None when it is hidden."""
        fig = self.figures[key]
        return fig.value.text() if not fig.isHidden() else None

    def _set(self, key: str, value: str | None, tooltip: str | None = None) -> None:
        fig = self.figures[key]
        fig.setHidden(value is None)
        if value is not None:
            fig.value.setText(value)
        if tooltip:
            fig.setToolTip(tooltip)

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
        idle = net.gpu_idle_pct if net is not None else None
        tokens = net.tokens_per_s if net is not None else None
        self._set("allreduce_ms", f"{fmt.number(allreduce)} ms" if allreduce is not None else None)
        self._set("gpu_idle_pct", f"{fmt.number(idle)} %" if idle is not None else None)
        self._set("tokens_per_s", fmt.count(round(tokens)) if tokens is not None else None)
        self._set("capex", fmt.usd(cost.capex_usd) if cost is not None else None,
                  f"Capex {fmt.usd(cost.capex_usd, 'exact')}" if cost is not None else None)
        self._set_break_even(cost.break_even_months if cost is not None else None)

    def _set_break_even(self, months: Any) -> None:
        if not isinstance(months, dict) or not months:
            self._set("break_even", None)
            return
        # The guide's break-even is against reserved 1-yr rental; otherwise the first option.
        name = "reserved_1yr" if "reserved_1yr" in months else next(iter(months))
        value = months[name]
        lines = [f"{k}: {'never' if v is None else f'{v:,.1f} months'}" for k, v in months.items()]
        shown = "never" if value is None else f"{value:,.1f} mo"
        self._set("break_even", shown, "Months until owning beats renting:\n" + "\n".join(lines))
        self.figures["break_even"].caption.setText(f"break-even vs {name.replace('_', ' ')}")

"""Schedule: a Gantt of the plan's phases (the schedule section's ``phases``), each bar the
wait for its critical part from the order, then its install and commissioning, the critical
part named at the bar; and the GPUs online month by month (``gpus_online_by_month``) with
the GPUs the training run trains on, from its start to its end (``training_cost_by_month``)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from planner.report import palette
from planner.schedule.model import MONTH_DAYS, PART_NAMES
from planner.schedule.section import energized_text
from ui.charts.base import ACCENT, FOREGROUND, CategoryAxis, ChartView, pen, set_bars, set_columns

BAR_H = 0.6
NAMED_BARS = 16  # phases up to which each bar names its critical part (more would run together)
WAITING = palette.LOAD_HIGH
TRAINING = palette.SERIES_COLORS[2]  # teal: apart from the online line and the bars
NO_SCHEDULE = "No schedule: the plan has no racks"
MONTHS = "Months after the order"


def months(weeks: float) -> float:
    return weeks * 7 / MONTH_DAYS


class ScheduleChart(ChartView):
    title = "Schedule"
    compact_below = 420  # stacked, the two plots and the legend need this much
    titles_below = 260  # the dock at 1280 x 800: the legend says what the bars are
    plots_min_px = 560  # short and wide: the two plots side by side, with the phase names and axes

    def __init__(self, parent=None):
        super().__init__(parent)
        self.phase_axis = CategoryAxis("left", min_px=16)
        self.gantt = self.add_plot(0, 0, bottom=MONTHS, axis_items={"left": self.phase_axis},
                                   title="Phases: waiting for the critical part, then install")
        self.gantt.showGrid(x=True, y=False, alpha=0.15)
        self.gantt.setMouseEnabled(x=False, y=False)
        self.gantt.invertY(True)  # the first phase at the top
        empty = np.zeros(0)
        self.waiting = pg.BarGraphItem(x0=empty, x1=empty, y=empty, height=BAR_H, brush=pg.mkBrush(WAITING), pen=None)
        self.install = pg.BarGraphItem(x0=empty, x1=empty, y=empty, height=BAR_H, brush=pg.mkBrush(ACCENT), pen=None)
        self.gantt.addItem(self.waiting)
        self.gantt.addItem(self.install)
        self.energized = pg.InfiniteLine(angle=90, pen=pen(FOREGROUND, 1.2, Qt.PenStyle.DashLine))
        self.gantt.addItem(self.energized, ignoreBounds=True)
        self.part_labels: list[pg.TextItem] = []
        self.online_plot = self.add_plot(1, 0, left="GPUs online", bottom=MONTHS, title="GPUs online")
        self.online_plot.setMouseEnabled(x=False, y=False)
        self.online = pg.PlotDataItem(stepMode="center", pen=pen(ACCENT, 2.5))
        self.online_plot.addItem(self.online)
        # the run as a shaded area under the GPUs online: where it trains on all of them the
        # two would be one line
        fill = pg.mkColor(TRAINING)
        fill.setAlpha(90)
        self.training = pg.PlotDataItem(stepMode="center", pen=pen(TRAINING, 1.0), fillLevel=0.0, brush=fill)
        self.online_plot.addItem(self.training)
        self.training.setZValue(-1)  # under the GPUs online
        self.legend = self.add_legend(self.gantt)
        self.legend.addItem(self.waiting, "Waiting for the critical part")
        self.legend.addItem(self.install, "Install and commissioning")
        self.legend.addItem(self.online, "GPUs online")
        self.legend.addItem(self.training, "Training")
        self.energized_sample = pg.PlotDataItem(pen=pen(FOREGROUND, 1.2, Qt.PenStyle.DashLine))
        self.legend.addItem(self.energized_sample, "Energized")
        self.phase_names: list[str] = []
        self.critical_parts: list[str] = []
        self.training_text = ""
        self.legend_beside = False  # short and wide: right of the plots where the width holds it

    def lay_out(self, compact: bool) -> None:
        """Short and wide: the Gantt and the GPUs online side by side, the legend right of them
        where the width holds its longest entry, else in a strip under them; tall: stacked."""
        if compact:
            self.legend_beside = self._legend_fits_beside()
            self.place(self.online_plot, 0, 1)
            if self.legend_beside:
                self.place(self.legend, 0, 2)
                self.set_stretch({0: 1}, {0: 3, 1: 2})
            else:
                self.place(self.legend, 1, 0, colspan=2)
                self.set_stretch({0: 1}, {0: 3, 1: 2})
            set_columns(self.legend, 1 if self.legend_beside else 3)
            # a strip under the plots: its rows without the legend's margin above and below
            self.legend.layout.setContentsMargins(9, 9 if self.legend_beside else 0, 9, 9 if self.legend_beside else 0)
        else:
            self.place(self.online_plot, 1, 0)
            self.place(self.legend, 2, 0)
            self.set_stretch({0: 3, 1: 2}, {0: 1})
            set_columns(self.legend, 2)
            self.legend.layout.setContentsMargins(9, 9, 9, 9)
        self._align()

    def show_titles(self, shown: bool) -> None:
        """Short, the axis titles go too: the legend names the GPUs online line (its title, on
        its side, needs more height than the plot has) and says the months are after the order
        ("Energized month 10 after the order")."""
        super().show_titles(shown)
        self.online_plot.getAxis("left").showLabel(shown)
        for plot in (self.gantt, self.online_plot):
            plot.getAxis("bottom").showLabel(shown)

    def _align(self) -> None:
        """Stacked, the GPUs' left axis as wide as the phase names, so a month is at the same x in both."""
        self.online_plot.getAxis("left").setWidth(None if self.compact else max(self.phase_axis.minimumWidth(), 56))

    def _legend_fits_beside(self) -> bool:
        """Whether the plots keep their width with a one-column legend right of them: the
        longest entry's text, its sample and the legend's margins (about 40 px)."""
        widest = max((label.item.boundingRect().width() for _, label in self.legend.items), default=0.0)
        return self.width() >= self.plots_min_px + widest + 40

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._keep_legend_in_view()

    def _keep_legend_in_view(self) -> None:
        """Short and wide, the legend moves under the plots when the width no longer holds it
        beside them, and back: on a resize or a longer entry, never on every edit."""
        if self.compact and self._legend_fits_beside() != self.legend_beside:
            self.lay_out(True)
            self.ci.setGeometry(self.range)  # the view's size again: the layout kept the wider one

    def _set_legend(self, sample, text: str) -> None:
        entry = self.legend.getLabel(sample)
        if entry.text != text:  # a new text lays the legend out again: not on every edit
            entry.setText(text)
            self._keep_legend_in_view()

    def _label(self, i: int) -> pg.TextItem:
        while len(self.part_labels) <= i:
            item = pg.TextItem("", color=FOREGROUND, anchor=(0, 0.5))
            self.gantt.addItem(item, ignoreBounds=True)
            self.part_labels.append(item)
        return self.part_labels[i]

    def _set_training(self, s) -> None:
        """The run's months: the GPUs it trains on in each, from its start to its end (the last
        month's part); its legend entry and the plot's tooltip say when it starts and ends."""
        run = list(s.training_cost_by_month) if s is not None else []
        if not run:
            self.training.setData(np.zeros(0), np.zeros(0))
            self.training_text = "No training run"
        else:
            edges = [float(m["month"]) for m in run] + [float(s.training_done_month)]
            self.training.setData(np.array(edges), np.array([m["gpus_training"] for m in run], dtype=float))
            self.training_text = f"Training, months {s.training_start_month:g} to {s.training_done_month:,.1f}"
        self.online_plot.setToolTip(self.training_text)
        self._set_legend(self.training, self.training_text)

    def update_report(self, report, changes=None) -> None:
        s = report.sections.get("schedule")
        phases = s.phases if s is not None else ()
        n = len(phases)
        y = np.arange(n, dtype=float)
        lead = np.array([months(s.lead_weeks.get(p.critical_part, 0.0)) for p in phases], dtype=float)
        ready = np.array([months(p.ready_weeks) for p in phases], dtype=float)
        set_bars(self.waiting, x0=np.zeros(n), x1=lead, y=y, height=BAR_H, brushes=[], pens=[])
        set_bars(self.install, x0=lead, x1=ready, y=y, height=BAR_H, brushes=[], pens=[])
        self.phase_names = [p.name for p in phases]
        self.critical_parts = [p.critical_part for p in phases]
        self.phase_axis.set_names(self.phase_names)
        self._align()
        named = n <= NAMED_BARS
        # the part each bar waits for is named at its end only where the phases wait for
        # different parts (the legend names a part they all wait for): "power transformer,
        # month 33" ran past the plot's edge at the dock's width
        one_part = len({p.critical_part for p in phases}) == 1
        for i, p in enumerate(phases):
            item = self._label(i)
            part = "" if one_part else f"{PART_NAMES.get(p.critical_part, 'installation')}, "
            item.setText(f" {part}month {p.ready_month}")
            item.setPos(ready[i], y[i])
            item.setVisible(named)
        for item in self.part_labels[n:]:
            item.hide()
        online = list(s.gpus_online_by_month) if s is not None else []
        last = float(ready.max(initial=0.0))
        done = float(s.training_done_month or 0.0) if s is not None else 0.0
        # the order to the run's end, with room right of the last bar for its part's name
        right = max(last * (1.6 if named else 1.05), len(online) * 1.05, done * 1.02) or 1.0
        # month m's GPUs over [m, m + 1]; the last month's run on to the plot's right edge
        edges = np.append(np.arange(len(online), dtype=float), max(right, len(online))) if online else np.zeros(0)
        self.online.setData(edges, np.array(online, dtype=float))
        self._set_training(s)
        if s is not None and n:
            self.energized.setValue(last)
            self.energized.show()
            parts = sorted({PART_NAMES.get(p.critical_part, "installation") for p in phases})
            self._set_legend(self.waiting, "Waiting for the " + " / ".join(parts))
            self._set_legend(self.energized_sample, f"Energized {energized_text(s)}")
        else:
            self.energized.hide()
        for plot in (self.gantt, self.online_plot):  # one month scale for both
            plot.setXRange(0, right, padding=0)
        self.gantt.setYRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.online_plot.setYRange(0, max(online, default=0) * 1.1 or 1.0, padding=0)
        self.set_empty(None if n else NO_SCHEDULE)

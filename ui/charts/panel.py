"""The charts in tabs, fed one report per edit.

A chart is built the first time its tab is shown (or asked for), so opening the app pays
only for the visible one; it then catches up from the last report."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QTabWidget, QWidget

TABS = (
    ("rack_power", "Rack power", "ui.charts.rack_power", "RackPowerChart"),
    ("build_vs_rent", "Build vs rent", "ui.charts.build_vs_rent", "BuildVsRentChart"),
    ("fabrics", "Fabrics", "ui.charts.fabric_comparison", "FabricComparisonChart"),
    ("scaling", "Scaling", "ui.charts.scaling", "ScalingChart"),
    ("facility", "Facility", "ui.charts.facility", "FacilityChart"),
    ("goodput", "Goodput", "ui.charts.goodput", "GoodputChart"),
    ("power_dynamics", "Power dynamics", "ui.charts.power_dynamics", "PowerDynamicsChart"),
    ("schedule", "Schedule", "ui.charts.schedule", "ScheduleChart"),
)


class ChartsPanel(QTabWidget):
    """Tabs: Rack power, Build vs rent, Fabrics, Scaling, Facility, Goodput, Power dynamics, Schedule.

    ``update_report(report, changes)`` passes the report to every chart built so far;
    ``on_changed`` (connected to ``Document.changed``) does so while the panel can be seen,
    and a hidden panel catches up when it is shown; ``rackClicked`` repeats the rack power chart's signal (the window selects that rack)."""

    rackClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._built: dict[str, QWidget] = {}
        self._report = None
        self._hidden_report = None  # the last report while the panel could not be seen
        for _key, title, _module, _cls in TABS:
            self.addTab(QWidget(), title)
        self.currentChanged.connect(lambda index: self.chart_at(index))

    def on_changed(self, changes, report) -> None:
        if not self.isVisible():
            self._hidden_report = report
        elif changes is None or self._hidden_report is not None:
            self._hidden_report = None
            self.update_report(report, None)
        else:
            self.update_report(report, changes)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self._hidden_report is not None:
            self.on_changed(None, self._hidden_report)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().paintEvent(event)
        # Build the visible chart once the window has painted, so the window shows at once.
        if TABS[self.currentIndex()][0] not in self._built:
            QTimer.singleShot(0, self, self._build_current)  # dropped if the panel is gone

    def _build_current(self) -> None:
        self.chart_at(self.currentIndex())

    def chart_at(self, index: int):
        """The chart of tab ``index``, built on first use and brought up to date."""
        key, title, module, cls = TABS[index]
        chart = self._built.get(key)
        if chart is None:
            from importlib import import_module

            chart = getattr(import_module(module), cls)()
            self._built[key] = chart
            current = self.currentIndex()
            self.blockSignals(True)
            placeholder = self.widget(index)
            self.removeTab(index)
            self.insertTab(index, chart, title)
            self.setCurrentIndex(current)
            self.blockSignals(False)
            placeholder.deleteLater()
            if key == "rack_power":
                chart.rackClicked.connect(self.rackClicked)
            if self._report is not None:
                chart.update_report(self._report, None)
        return chart

    rack_power = property(lambda self: self.chart_at(0))
    build_vs_rent = property(lambda self: self.chart_at(1))
    fabrics = property(lambda self: self.chart_at(2))
    scaling = property(lambda self: self.chart_at(3))
    facility = property(lambda self: self.chart_at(4))
    goodput = property(lambda self: self.chart_at(5))
    power_dynamics = property(lambda self: self.chart_at(6))
    schedule = property(lambda self: self.chart_at(7))

    @property
    def charts(self):
        return [self.chart_at(i) for i in range(self.count())]

    def update_report(self, report, changes=None) -> None:
        self._report = report
        for chart in self._built.values():
            chart.update_report(report, changes)

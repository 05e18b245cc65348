"""The five charts in tabs, fed one report per edit."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget

from ui.charts.build_vs_rent import BuildVsRentChart
from ui.charts.fabric_comparison import FabricComparisonChart
from ui.charts.facility import FacilityChart
from ui.charts.rack_power import RackPowerChart
from ui.charts.scaling import ScalingChart


class ChartsPanel(QTabWidget):
    """Tabs: Rack power, Build vs rent, Fabrics, Scaling, Facility.

    ``update_report(report, changes)`` passes the report to every chart; ``rackClicked``
    repeats the rack power chart's signal (the window selects that rack)."""

    rackClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rack_power = RackPowerChart()
        self.build_vs_rent = BuildVsRentChart()
        self.fabrics = FabricComparisonChart()
        self.scaling = ScalingChart()
        self.facility = FacilityChart()
        for chart, name in ((self.rack_power, "Rack power"), (self.build_vs_rent, "Build vs rent"),
                            (self.fabrics, "Fabrics"), (self.scaling, "Scaling"), (self.facility, "Facility")):
            self.addTab(chart, name)
        self.rack_power.rackClicked.connect(self.rackClicked)

    @property
    def charts(self):
        return [self.widget(i) for i in range(self.count())]

    def update_report(self, report, changes=None) -> None:
        for chart in self.charts:
            chart.update_report(report, changes)

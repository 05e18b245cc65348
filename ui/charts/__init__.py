"""Charts of the report (pyqtgraph), each a widget the main window can dock or tab.

API of every chart (and of ``ChartsPanel``, which holds all five):

- ``update_report(report, changes=None)``: show a new ``planner.report.Report``; plot
  items are reused and fed with ``setData``/``setOpts`` (an edit never rebuilds a plot).
  ``changes`` is the edit's ``ChangeSet``; charts may skip work it does not touch.
- ``export(path)``: write the chart to ``.png`` or ``.svg`` (also "Export chart…" in the
  chart's context menu); raises ``ChartExportError`` (a ``PlannerError``) with a
  one-line message on a bad suffix or an unwritable path.
- ``RackPowerChart.rackClicked(str rack_id)`` (repeated by ``ChartsPanel.rackClicked``):
  the user clicked a rack's bars.
"""

from ui.charts.base import ChartExportError, ChartView
from ui.charts.build_vs_rent import BuildVsRentChart
from ui.charts.fabric_comparison import FabricComparisonChart
from ui.charts.facility import FacilityChart
from ui.charts.panel import ChartsPanel
from ui.charts.rack_power import RackPowerChart
from ui.charts.scaling import ScalingChart

__all__ = ["BuildVsRentChart", "ChartExportError", "ChartView", "ChartsPanel", "FabricComparisonChart",
           "FacilityChart", "RackPowerChart", "ScalingChart"]

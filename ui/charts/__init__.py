"""Charts of the report (pyqtgraph), each a widget the main window can dock or tab.

API of every chart (and of ``ChartsPanel``, which holds them all):

- ``update_report(report, changes=None)``: show a new ``planner.report.model.Report``; plot
  items are reused and fed with ``setData``/``setOpts`` (an edit never rebuilds a plot).
  ``changes`` is the edit's ``ChangeSet``; charts may skip work it does not touch.
- ``export(path)``: write the chart to ``.png`` or ``.svg`` (also "Export chart…" in the
  chart's context menu); raises ``ChartExportError`` (a ``PlannerError``) with a
  one-line message on a bad suffix or an unwritable path.
- ``RackPowerChart.rackClicked(str rack_id)`` (repeated by ``ChartsPanel.rackClicked``):
  the user clicked a rack's bars.
"""

# Imported on first use, so opening the app loads only the chart it shows.
_WHERE = {
    "ChartExportError": "ui.charts.base", "ChartView": "ui.charts.base",
    "BuildVsRentChart": "ui.charts.build_vs_rent", "FabricComparisonChart": "ui.charts.fabric_comparison",
    "FacilityChart": "ui.charts.facility", "GoodputChart": "ui.charts.goodput", "ChartsPanel": "ui.charts.panel",
    "RackPowerChart": "ui.charts.rack_power", "ScalingChart": "ui.charts.scaling",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'ui.charts' has no attribute {name!r}")

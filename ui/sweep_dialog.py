"""The Sweep dialog: a grid of design choices over the plan shown, run in worker processes
with a progress bar and Cancel; the results as a table and a Pareto chart, from which any
point opens as a new variant.

The grid, the layout of each point, the figures and the Pareto front all come from
``planner.sweep``; this dialog only collects the choices and shows the rows.

Why it is long: the grid editor, the progress and cancel handling, the results table and the
Pareto chart belong to one dialog.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QThread, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QProgressBar, QPushButton, QSizePolicy,
                               QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from planner.errors import PlannerError
from planner.network.technologies import TECHNOLOGIES
from planner.plan.variants import CreateVariant, resolve_variant
from planner.report import palette
from planner.report.compare import METRIC
from planner.safefile import write_file
from planner.sweep import (AXES, SweepError, available_cores, base_gpu_system, build_point, default_axes,
                           pareto_front, parse_grid, point_label, rack_choice_text, rows_to_csv, run_sweep)
from planner.sweep_ray import INSTALL_HINT, ray_installed
from ui.charts import theme
from ui.charts.base import ACCENT, MUTED, ChartView, DollarAxis, UnitAxis
from ui.fmt import value_text
from ui.last_folder import last_folder, remember_folder
from ui import file_dialogs


# The table's headings of the choices (the figures' are the compare view's labels).
_HEADINGS = {"pareto": "On the front", "gpu_system": "GPU system", "switch_device": "Switch",
             "layout": "Training layout", "error_codes": "Error codes"}


_COLUMN_MAX_PX = 180


class SweepThread(QThread):
    progressed = Signal(int, int)

    def __init__(self, base, grid, parent=None, *, engine: str = "process", address: str | None = None):
        super().__init__(parent)
        self.base, self.grid = base, grid
        self.engine, self.address = engine, address
        self.result = None
        self.error: str | None = None
        self._cancel = False

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:
        try:
            if self.engine == "ray":
                from planner.sweep_ray import run_sweep_ray

                self.result = run_sweep_ray(self.base, self.grid, address=self.address,
                                            progress=self.progressed.emit, cancelled=lambda: self._cancel)
            else:
                self.result = run_sweep(self.base, self.grid, progress=self.progressed.emit,
                                        cancelled=lambda: self._cancel)
        except PlannerError as exc:  # Ray missing, or its cluster unreachable: the core's sentence
            self.error = str(exc)
        except Exception as exc:  # shown in the dialog: a worker that could not start
            self.error = f"the sweep stopped: {exc}"


def _numbers(text: str, kind=float) -> list:
    out = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if part:
            try:
                out.append(kind(part))
            except ValueError:
                raise SweepError(f"'{part}' is not a number") from None
    return out


class FigureAxis(UnitAxis):
    """Dollar ticks for a money figure, numbers with the figure's unit for any other."""

    dollars = True

    def tickStrings(self, values, scale, spacing):
        if self.dollars:
            return DollarAxis.tickStrings(self, values, scale, spacing)
        return super().tickStrings(values, scale, spacing)


NO_POINTS = "No points yet: choose the ranges and press Run"


class ParetoChart(ChartView):
    """Every point of the sweep, the Pareto front drawn over them; a click picks a point."""

    title = "Pareto front"
    pointClicked = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.axis = {"bottom": FigureAxis("bottom", ""), "left": FigureAxis("left", "")}
        self.plot = self.add_plot(left="", bottom="", axis_items=self.axis)
        self.others = pg.ScatterPlotItem(size=8, pen=pg.mkPen(MUTED), brush=pg.mkBrush(MUTED))
        self.front_line = pg.PlotDataItem(pen=pg.mkPen(ACCENT, width=2))
        self.front = pg.ScatterPlotItem(size=11, pen=pg.mkPen(palette.CHART_BACKGROUND), brush=pg.mkBrush(ACCENT))
        self.chosen = pg.ScatterPlotItem(size=18, pen=pg.mkPen(palette.LOAD_HIGH, width=3), brush=None)
        for item in (self.others, self.front_line, self.front, self.chosen):
            self.plot.addItem(item)
        self.others.sigClicked.connect(self._clicked)
        self.front.sigClicked.connect(self._clicked)
        self.legend = self.add_legend(self.plot)
        self.legend.addItem(self.front, "on the Pareto front")
        self.legend.addItem(self.others, "other points")
        self.set_empty(NO_POINTS)

    def _clicked(self, _item, points, *_):
        if len(points):
            self.pointClicked.emit(int(points[0].data()))

    def show_rows(self, rows, front, x: str, y: str) -> None:
        mx, my = METRIC[x], METRIC[y]
        for side, metric in (("bottom", mx), ("left", my)):
            self.axis[side].dollars = metric.unit.startswith("$")
            self.axis[side].unit = metric.unit
        for side, metric in (("bottom", mx), ("left", my)):  # the unit is on every tick
            theme.set_axis_title(self.plot, side,
                                 f"{metric.label} ({'lower' if metric.better == 'lower' else 'higher'} is better)")
        on = set(front)
        pts = [(r[x], r[y], i) for i, r in enumerate(rows) if r.get(x) is not None and r.get(y) is not None]
        rest = [p for p in pts if p[2] not in on]
        best = sorted((p for p in pts if p[2] in on), key=lambda p: p[0])
        self.others.setData([p[0] for p in rest], [p[1] for p in rest], data=[p[2] for p in rest])
        self.front.setData([p[0] for p in best], [p[1] for p in best], data=[p[2] for p in best])
        self.front_line.setData([p[0] for p in best], [p[1] for p in best])
        self.chosen.setData([], [])
        self.set_empty(None if pts else NO_POINTS)
        self.plot.autoRange()

    def mark(self, row) -> None:
        self.chosen.setData([row[0]], [row[1]])

    def update_report(self, report, changes=None) -> None:  # fed by the dialog
        pass


class SweepDialog(QDialog):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Design sweep")
        self.setObjectName("SweepDialog")
        self.doc = doc
        self.thread: SweepThread | None = None
        self.rows: list[dict] = []
        self.points: list[dict] = []
        self.front: list[int] = []
        self.base = resolve_variant(doc.plan, doc.plan.current_variant)
        catalog = doc.catalog
        system, nodes = base_gpu_system(self.base, catalog)
        s = self.base.settings

        form_box = QWidget()
        form = QFormLayout(form_box)
        self.systems = QListWidget()
        for d in catalog.by_category("gpu_server"):
            item = QListWidgetItem(f"{d.title}")
            item.setToolTip(d.title)  # the list elides a long name; its tooltip gives it whole
            item.setData(Qt.ItemDataRole.UserRole, d.id)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if d.id == system else Qt.CheckState.Unchecked)
            self.systems.addItem(item)
        self.systems.setMaximumHeight(150)
        self.systems.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.systems.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        form.addRow("GPU systems", self.systems)
        self.nodes = QLineEdit(", ".join(str(n) for n in sorted({max(1, nodes // 2), nodes, nodes * 2})) if nodes
                               else "8, 16")
        self.nodes.setToolTip("GPU node counts, separated by commas")
        form.addRow("Nodes", self.nodes)
        self.fabrics = QListWidget()
        for t in TECHNOLOGIES.values():
            item = QListWidgetItem(t.title)
            item.setData(Qt.ItemDataRole.UserRole, t.id)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if t.id == s.fabric.technology else Qt.CheckState.Unchecked)
            self.fabrics.addItem(item)
        self.fabrics.setMaximumHeight(150)
        self.fabrics.setToolTip("Each technology takes the plan's fabric switch if it speaks it at its line rate, "
                                "else the catalog's switch that does with the most ports")
        form.addRow("Fabrics", self.fabrics)
        self.caps = QLineEdit("")
        self.caps.setPlaceholderText("the plan's GPU racks")
        self.caps.setToolTip("GPU rack power caps in kW, separated by commas; empty keeps the plan's GPU rack")
        form.addRow("GPU rack cap (kW)", self.caps)
        self.rack_type = QComboBox()
        self.rack_type.addItem("the plan's GPU rack", None)
        for rt in catalog.rack_types.values():
            self.rack_type.addItem(rt.id, rt.id)
        form.addRow("GPU rack type", self.rack_type)
        basis = QWidget()
        bl = QHBoxLayout(basis)
        bl.setContentsMargins(0, 0, 0, 0)
        self.typical = QCheckBox("typical")
        self.nameplate = QCheckBox("nameplate")
        (self.typical if s.facility.power_basis == "typical" else self.nameplate).setChecked(True)
        bl.addWidget(self.typical)
        bl.addWidget(self.nameplate)
        form.addRow("Power basis", basis)
        self.engine = QComboBox()
        self.engine.addItem("This computer (worker processes)", "process")
        self.engine.addItem("Ray cluster", "ray")
        self.engine.setToolTip("Where the points run: one worker process per core here, or Ray tasks on a Ray "
                               "cluster (a local one when no address is given)")
        if not ray_installed():
            item = self.engine.model().item(1)
            item.setEnabled(False)
            item.setToolTip(f"Ray is not installed; install it with {INSTALL_HINT}")
        form.addRow("Run on", self.engine)
        self.address = QLineEdit()
        self.address.setPlaceholderText("empty: a local Ray for this sweep")
        self.address.setToolTip("The Ray cluster's address as ray.init takes it, e.g. ray://head:10001")
        self.address.setEnabled(False)
        self.engine.currentIndexChanged.connect(
            lambda *_: self.address.setEnabled(self.engine.currentData() == "ray"))
        form.addRow("Ray address", self.address)
        self.count = QLabel()
        form.addRow("", self.count)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        form.addRow(buttons)
        self.progress = QProgressBar()
        self.progress.setFormat("%v of %m points")
        form.addRow(self.progress)
        self.message = QLabel()
        # the column's width is the fields', not a message's: a long one wraps instead of
        # widening the column (and narrowing the lists) as it changes
        for label in (self.count, self.message):
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        form.addRow(self.message)
        for w in (self.systems, self.fabrics):
            w.itemChanged.connect(lambda *_: self._update_count())
        for w in (self.nodes, self.caps):
            w.textChanged.connect(lambda *_: self._update_count())
        self.rack_type.currentIndexChanged.connect(lambda *_: self._update_count())
        self.typical.toggled.connect(lambda *_: self._update_count())
        self.nameplate.toggled.connect(lambda *_: self._update_count())

        self.chart = ParetoChart()
        self.chart.pointClicked.connect(self.choose)
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._table_selected)
        self.open_button = QPushButton("Open the chosen point as a new variant")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(lambda: self.open_point())
        self.save_button = QPushButton("Save the results as CSV…")
        self.save_button.setToolTip("Every point's choices and figures, one row a point, as `cluster-planner sweep` "
                                    "writes them; the Pareto column follows the two figures chosen above")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(lambda: self.save_csv())
        axes = QWidget()
        al = QHBoxLayout(axes)
        al.setContentsMargins(0, 0, 0, 0)
        self.x_axis, self.y_axis = QComboBox(), QComboBox()
        for combo, text in ((self.x_axis, "Pareto front of"), (self.y_axis, "against")):
            for m in METRIC.values():
                if m.better is not None:
                    combo.addItem(m.label, m.key)
            combo.currentIndexChanged.connect(lambda *_: self._show_front())
            al.addWidget(QLabel(text))
            al.addWidget(combo)
        al.addStretch(1)
        self.x_axis.setCurrentIndex(self.x_axis.findData("capex_usd"))
        # an inference plan's sweep is read by the output it serves, a training plan's by its days
        self.y_axis.setCurrentIndex(self.y_axis.findData(
            "served_tokens_per_s" if self._serving() else "time_to_train_with_failures_days"))
        chart_box = QWidget()
        cl = QVBoxLayout(chart_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(axes)
        cl.addWidget(self.chart, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(chart_box)
        lower = QWidget()
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button, 1)
        buttons.addWidget(self.save_button)
        ll.addLayout(buttons)
        right.addWidget(lower)
        right.setSizes([380, 260])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(form_box)
        split.addWidget(right)
        split.setSizes([360, 840])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.chosen: int | None = None
        self.resize(1250, 720)
        self._update_count()

    # -- the grid ----------------------------------------------------------------------
    def _checked(self, w: QListWidget) -> list[str]:
        return [w.item(i).data(Qt.ItemDataRole.UserRole) for i in range(w.count())
                if w.item(i).checkState() == Qt.CheckState.Checked]

    def grid_dict(self) -> dict:
        racks = [{"power_cap_kw": kw} for kw in _numbers(self.caps.text())]
        if self.rack_type.currentData():
            racks = [{"rack_type": self.rack_type.currentData(), **r} for r in racks] or [
                {"rack_type": self.rack_type.currentData()}]
        grid = {"gpu_system": self._checked(self.systems), "nodes": _numbers(self.nodes.text(), int),
                "fabric": self._checked(self.fabrics), "rack": racks,
                "power_basis": [b for b, box in (("typical", self.typical), ("nameplate", self.nameplate))
                                if box.isChecked()]}
        return {k: v for k, v in grid.items() if v}

    def grid(self):
        return parse_grid(self.grid_dict(), self.doc.catalog, "grid")

    def _update_count(self) -> None:
        try:
            g = self.grid()
        except SweepError as exc:
            self.count.setText(str(exc))
            self.run_button.setEnabled(False)
            return
        names = [a.replace("_", " ") for a in AXES if a in g.axes]
        self.count.setText(f"{g.size:,} point{'s' if g.size != 1 else ''} ({' x '.join(names) or 'the plan as it is'})")
        self.run_button.setEnabled(self.thread is None)

    # -- running -------------------------------------------------------------------------
    def start(self) -> bool:
        try:
            grid = self.grid()
        except SweepError as exc:
            self.message.setText(str(exc))
            return False
        self.base = resolve_variant(self.doc.plan, self.doc.plan.current_variant)  # the plan as it is now
        self.points = grid.points()
        self.progress.setRange(0, grid.size)
        self.progress.setValue(0)
        engine, address = self.engine.currentData(), self.address.text().strip() or None
        if engine == "ray":
            self.message.setText(f"Running on the Ray cluster at {address}…" if address
                                 else "Starting a local Ray for the sweep…")
        else:
            workers = min(available_cores(), grid.size)  # run_sweep takes one per core at most
            self.message.setText(f"Running in {workers} worker process{'es' if workers != 1 else ''} "
                                 f"(one per core available)…")
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.thread = SweepThread(self.base, grid, self, engine=engine, address=address)
        self.thread.progressed.connect(lambda done, _total: self.progress.setValue(done))
        self.thread.finished.connect(self._finished)
        self.thread.start()
        return True

    def cancel(self) -> None:
        if self.thread is not None:
            self.thread.cancel()
            self.message.setText("Cancelling…")

    def _finished(self) -> None:
        thread, self.thread = self.thread, None
        self.cancel_button.setEnabled(False)
        self._update_count()
        if thread.error:
            self.message.setText(thread.error)
            return
        result = thread.result
        self.rows = result.rows
        self.points = self.points[:len(self.rows)]
        x, y = default_axes(self.rows)
        for combo, key in ((self.x_axis, x), (self.y_axis, y)):
            combo.blockSignals(True)
            combo.setCurrentIndex(combo.findData(key))
            combo.blockSignals(False)
        self._show_front()
        self.save_button.setEnabled(bool(self.rows))
        problems = sum(1 for r in self.rows if r["problem"])
        done = f"{len(self.rows):,} of {result.total:,} points" + (" (cancelled)" if result.cancelled else "")
        self.message.setText(f"{done}; {len(self.front)} on the Pareto front of {METRIC[x].label.lower()} and "
                             f"{METRIC[y].label.lower()}"
                             + (f"; {problems} could not be laid out (see the problem column)" if problems else ""))


    def _show_front(self) -> None:
        """The Pareto front of the two chosen figures (``planner.sweep.pareto_front``), drawn and listed."""
        if not self.rows:
            return
        x, y = self.x_axis.currentData(), self.y_axis.currentData()
        self.axes = (x, y)
        self.front = pareto_front(self.rows, x, y)
        self.chart.show_rows(self.rows, self.front, x, y)
        self._fill_table()

    def _serving(self) -> bool:
        return self.base.settings.workload.inference

    def _fill_table(self) -> None:
        figures = (["served_tokens_per_s", "decode_tokens_per_s"] if self._serving()
                   else ["tokens_per_s", "time_to_train_with_failures_days"])
        cols = ["pareto", "gpu_system", "nodes", "fabric", "switch_device", "rack", "power_basis", "gpus", "layout",
                "capex_usd", "tco_usd", *figures, "facility_power_kw", "racks",
                "errors", "warnings", "error_codes", "problem"]
        t = self.table
        t.setColumnCount(len(cols))
        t.setHorizontalHeaderLabels([METRIC[c].label if c in METRIC else _HEADINGS.get(c, c.replace("_", " ").capitalize())
                                     for c in cols])
        catalog = self.doc.catalog
        t.setRowCount(len(self.rows))
        on = set(self.front)
        for r, row in enumerate(self.rows):
            for c, key in enumerate(cols):
                if key == "pareto":
                    text = "yes" if r in on else ""
                elif key in METRIC:
                    text = value_text(row.get(key), METRIC[key].unit)
                elif key == "rack":  # the CSV keeps the choice as JSON; the table says it in words
                    text = (rack_choice_text(row.get(key) or "", catalog, row.get("gpu_rack_kw"),
                                             row.get("gpu_rack_cooling"))
                            or self.rack_type.itemText(0))
                elif key in ("gpu_system", "switch_device") and row.get(key) in catalog:  # the CSV keeps ids
                    text = catalog[row[key]].model
                elif key == "fabric" and row.get(key) in TECHNOLOGIES:
                    text = TECHNOLOGIES[row[key]].title
                elif key == "power_basis" and row.get(key):
                    text = str(row[key]).capitalize()
                else:
                    text = "" if row.get(key) is None else str(row.get(key))
                item = QTableWidgetItem(text)
                item.setToolTip(text)  # whole, where the column is narrower
                t.setItem(r, c, item)
        t.resizeColumnsToContents()
        for c in range(t.columnCount()):  # a long model name does not push the figures out of view
            t.setColumnWidth(c, min(t.columnWidth(c), _COLUMN_MAX_PX))

    # -- choosing a point ----------------------------------------------------------------
    def choose(self, index: int) -> None:
        self.chosen = index
        self.open_button.setEnabled(not self.rows[index]["problem"])
        x, y = self.axes
        if self.rows[index].get(x) is not None and self.rows[index].get(y) is not None:
            self.chart.mark((self.rows[index][x], self.rows[index][y]))
        self.table.blockSignals(True)
        self.table.selectRow(index)
        self.table.blockSignals(False)

    def _table_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.choose(rows[0].row())

    def point_name(self, index: int) -> str:
        """The variant's name, in the table's words ("Sweep: NVIDIA DGX B200, 16 nodes, 400GbE
        (RoCE v2), typical"), not the CSV's ids."""
        label = point_label(self.points[index])
        catalog = self.doc.catalog
        system, fabric = label["gpu_system"], label["fabric"]
        parts = [catalog[system].model if system in catalog else system,
                 f"{label['nodes']} nodes" if label["nodes"] != "" else "",
                 TECHNOLOGIES[fabric].title if fabric in TECHNOLOGIES else fabric, label["power_basis"]]
        name = "Sweep: " + ", ".join(p for p in parts if p) if any(parts) else f"Sweep point {index + 1}"
        taken = set(self.doc.plan.variant_names)
        out, n = name[:100], 2
        while out in taken:
            out = f"{name[:94]} ({n})"
            n += 1
        return out

    def open_point(self, index: int | None = None) -> bool:
        index = self.chosen if index is None else index
        if index is None:
            return False
        try:
            plan = build_point(self.base, self.points[index], self.doc.catalog)
        except PlannerError as exc:
            self.message.setText(str(exc))
            return False
        ok = self.doc.apply(CreateVariant(self.point_name(index), source=plan))
        if ok:
            self.message.setText(f"Opened point {index + 1} as the variant '{self.doc.plan.current_variant}'")
        return ok

    def save_csv(self, path: str | None = None) -> bool:
        """The rows as the CLI's CSV (``planner.sweep.rows_to_csv``), written whole or not at all;
        ``path`` None: asked for."""
        if not self.rows:
            return False
        if path is None:
            start = str(last_folder() / "sweep.csv")
            path, _ = file_dialogs.save_file_name(self, "Save the sweep's results", start, "CSV files (*.csv)")
            if not path:
                return False
        try:
            written = write_file(path, rows_to_csv(self.rows, self.front).encode("utf-8"), kind="")
        except PlannerError as exc:
            self.message.setText(f"Not saved: {exc}")
            return False
        remember_folder(written)
        self.message.setText(f"Saved {len(self.rows):,} points to {written}")
        return True

    def closeEvent(self, event) -> None:
        if self.thread is not None:
            self.thread.cancel()
            self.thread.wait(5000)
        super().closeEvent(event)

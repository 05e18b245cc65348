"""The floor overview: every rack as a block coloured by load, the visible area framed; click to go there.

It draws from the rack view's FloorItem (rack rectangles, colours) into an image that is
redrawn whole only after a relayout or a resize; an edit repaints just the touched racks'
blocks. A click (or drag) centres the rack view on the rack under the pointer.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QDockWidget, QSizePolicy, QWidget

from planner.report import palette
from ui import theme

BACKGROUND = QColor(palette.OVERVIEW_BACKGROUND)
VISIBLE_FRAME = QColor(palette.OVERVIEW_FRAME)
# Aisles between rows alternate cold and hot, as the core's floor model lays them out
# (planner.facility.floor: a cold aisle between the first and second row).
COLD_AISLE = QColor(60, 120, 200, 90)
HOT_AISLE = QColor(210, 80, 60, 90)


class FloorOverview(QWidget):
    def __init__(self, view, parent=None):
        super().__init__(parent)
        self.view = view
        self.setObjectName("FloorOverview")
        self.setMinimumSize(160, 120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole floor: racks in their rows (in their halls and buildings), cold aisles "
                        "blue and hot aisles red between them; click a rack to go to it")
        self._image: QImage | None = None
        self._scale = 1.0
        self._offset = QPointF()
        view.floorChanged.connect(self._floor_changed)
        view.visibleAreaChanged.connect(self.update)

    def sizeHint(self) -> QSize:
        return QSize(260, 220)

    # -- scene <-> widget ---------------------------------------------------------------
    def _fit(self) -> None:
        campus = self.view.campus
        floor = campus.bounds() if campus.outlined else self.view.floor.boundingRect()
        if floor.isEmpty():
            self._scale, self._offset = 1.0, QPointF()
            return
        self._scale = min((self.width() - 8) / floor.width(), (self.height() - 8) / floor.height())
        self._offset = QPointF((self.width() - floor.width() * self._scale) / 2 - floor.left() * self._scale,
                               (self.height() - floor.height() * self._scale) / 2 - floor.top() * self._scale)

    def to_widget(self, rect: QRectF) -> QRectF:
        s = self._scale
        return QRectF(rect.left() * s + self._offset.x(), rect.top() * s + self._offset.y(),
                      rect.width() * s, rect.height() * s)

    def to_scene(self, point: QPointF) -> QPointF:
        return QPointF((point.x() - self._offset.x()) / self._scale, (point.y() - self._offset.y()) / self._scale)

    # -- drawing ------------------------------------------------------------------------
    def _floor_changed(self, rack_ids) -> None:
        if rack_ids is None or self._image is None:
            self._image = None  # relayout: redraw everything on the next paint
        else:
            painter = QPainter(self._image)
            for rid in rack_ids:
                self._draw_rack(painter, rid)
            painter.end()
        self.update()

    def _draw_rack(self, painter: QPainter, rack_id: str) -> None:
        rect = self.view.floor.rack_rect(rack_id)
        if rect is None:
            return
        r = self.to_widget(rect)
        painter.fillRect(r, QColor(self.view.floor.colour(rack_id) or palette.FLOOR_UNKNOWN))
        if self.view.floor.has_error(rack_id):
            painter.setPen(QPen(QColor(palette.FLOOR_ERROR), 1))
            painter.drawRect(r)

    def _render(self) -> QImage:
        self._fit()
        image = QImage(self.size(), QImage.Format.Format_RGB32)
        image.fill(BACKGROUND)
        painter = QPainter(image)
        self._draw_campus(painter)
        for rows in self.view.floor.hall_rows():
            self._draw_aisles(painter, rows)
        for _top, _bottom, ids in self.view.floor.rows():
            for rid in ids:
                self._draw_rack(painter, rid)
        self._draw_names(painter)
        painter.end()
        return image

    def _draw_campus(self, painter: QPainter) -> None:
        """The buildings' and halls' outlines (a plan of one hall has none)."""
        campus = self.view.campus
        if not campus.outlined:
            return
        for boxes, fill, line in ((campus.buildings, theme.BUILDING_FILL, theme.BUILDING_LINE),
                                  (campus.halls, theme.HALL_FILL, theme.HALL_LINE)):
            painter.setPen(QPen(line, 1))
            painter.setBrush(fill)
            for box in boxes:
                painter.drawRect(self.to_widget(box.rect))

    def _draw_names(self, painter: QPainter) -> None:
        """Each building's name in its top-left corner, where the outline is wide enough for it."""
        campus = self.view.campus
        if not campus.outlined:
            return
        font = QFont(self.font())
        font.setPixelSize(11)
        font.setBold(True)
        metrics = QFontMetricsF(font)
        painter.setFont(font)
        for b in campus.buildings:
            box = self.to_widget(b.rect).adjusted(3, 2, -3, -2)
            if box.width() < metrics.averageCharWidth() * 4 or box.height() < metrics.height():
                continue
            text = metrics.elidedText(b.name, Qt.TextElideMode.ElideRight, box.width())
            plate = QRectF(box.left(), box.top(), metrics.horizontalAdvance(text) + 4, metrics.height())
            painter.fillRect(plate, theme.LABEL_PLATE)
            painter.setPen(theme.RACK_TEXT)
            painter.drawText(QPointF(plate.left() + 2, plate.top() + metrics.ascent()), text)

    def _draw_aisles(self, painter: QPainter, rows) -> None:
        """A band between each pair of one hall's rows, blue for a cold aisle and red for a hot one."""
        if not rows:
            return
        left = min(self.view.floor.rack_rect(ids[0]).left() for _t, _b, ids in rows if ids)
        right = max(self.view.floor.rack_rect(ids[-1]).right() for _t, _b, ids in rows if ids)
        for i in range(len(rows) - 1):
            gap = QRectF(left, rows[i][1], right - left, rows[i + 1][0] - rows[i][1])
            painter.fillRect(self.to_widget(gap), COLD_AISLE if i % 2 == 0 else HOT_AISLE)

    def resizeEvent(self, event) -> None:
        self._image = None
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        if self._image is None or self._image.size() != self.size():
            self._image = self._render()
        painter = QPainter(self)
        painter.drawImage(0, 0, self._image)
        visible = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        frame = self.to_widget(visible).intersected(QRectF(self.rect()).adjusted(1, 1, -1, -1))
        painter.setPen(QPen(VISIBLE_FRAME, 1.5))
        painter.setBrush(QColor(255, 255, 255, 40))
        painter.drawRect(frame)
        selected = self.view.floor.selected if self.view.floor_mode else self.view._rack_of_selection()
        if selected and self.view.floor.rack_rect(selected) is not None:
            painter.setPen(QPen(theme.SELECTION, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.to_widget(self.view.floor.rack_rect(selected)).adjusted(-2, -2, 2, 2))

    # -- navigation ---------------------------------------------------------------------
    def go_to(self, point: QPointF) -> str | None:
        """Centre the rack view on the rack under ``point`` (widget coordinates), or on the spot."""
        scene = self.to_scene(point)
        rid = self.view.floor.rack_at(scene.x(), scene.y())
        if rid is not None:
            self.view.centre_on_rack(rid)
        else:
            self.view.centerOn(scene)
        return rid

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.go_to(event.position())
            event.accept()

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.view.centerOn(self.to_scene(event.position()))
            event.accept()


def add_overview_dock(window) -> QDockWidget:
    """A "Floor overview" dock on the main window, listed in its View menu."""
    dock = QDockWidget("Floor overview", window)
    dock.setObjectName("OverviewDock")
    dock.setWidget(FloorOverview(window.view))
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    return dock

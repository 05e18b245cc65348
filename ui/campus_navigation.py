"""Zoom by campus level -- rack, hall, building, campus -- in the rack view (mixed into ``RackView``).

On a plan of several halls Page Up / Page Down (``ui.rack_navigation.VIEW_KEYS``) zoom out /
in a level around the selected rack or the middle of the view, a double-click beside the
racks zooms in a level towards the pointer, and View > Go to hall or building or the context
menu beside the racks zoom to one outline. A level is a step only when it is farther out (or
closer in) than the zoom now: from a hall zoomed to by hand, Page Up goes to its building.
Closer in than a hall, where its outline's name is off screen, the view's bottom-left corner
says which building and hall the middle of the view is in (``place_label``).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QLabel

from ui.rack_items import DeviceItem, RackItem
from ui.rack_navigation import READABLE_ZOOM

FIT_MARGIN = 0.03  # of an area zoomed to (a hall, a building): room around its outline
LEVEL_STEP = 1.03  # a level this little closer or farther than the zoom now is not a step


class CampusNavigation:
    def make_place_label(self) -> QLabel:
        """The "Building 2 › Hall 3" corner label, kept up to date as the view moves."""
        label = QLabel(self)
        label.setObjectName("CampusPlace")
        label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        label.hide()
        self.visibleAreaChanged.connect(self.update_place)
        return label

    def update_place(self) -> None:
        """Show where the view is when the hall's own name is off screen: the hall the middle
        of the view is in (or the nearest), with its building."""
        label, campus = self.place_label, getattr(self, "campus", None)
        if campus is None or not campus.outlined or not campus.halls:
            label.hide()
            return
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        hall = _nearest(campus.halls, self._view_centre())
        if shown.contains(hall.rect.topLeft()):  # its outline's name is on screen
            label.hide()
            return
        building = campus.building(hall.building)
        label.setText(f"{building.name} › {hall.name}" if building else hall.name)
        label.adjustSize()  # bottom left: off the rack names at the top
        vp = self.viewport().geometry()
        label.move(vp.left() + 8, vp.bottom() - label.height() - 8)
        label.show()

    def area_zoom(self, rect: QRectF) -> float:
        """The zoom at which ``rect`` (and a margin) fills the viewport."""
        vp = self.viewport().rect()
        m = 1 + 2 * FIT_MARGIN
        return min(vp.width() / (rect.width() * m), vp.height() / (rect.height() * m)) if not rect.isEmpty() else 1.0

    def zoom_to_area(self, rect: QRectF) -> None:
        """Fit ``rect`` (a hall's or building's outline) in the view, never closer than 1:1."""
        self._auto_zoom = False
        zoom = min(1.0, self.area_zoom(rect))
        self.scale(zoom / self.transform().m11(), zoom / self.transform().m11())
        self.centerOn(rect.center())
        self.update_detail()

    def zoom_to_hall(self, hall_id: str) -> bool:
        hall = self.campus.hall(hall_id)
        if hall is not None:
            self.zoom_to_area(hall.rect)
        return hall is not None

    def zoom_to_building(self, building_id: str) -> bool:
        building = self.campus.building(building_id)
        if building is not None:
            self.zoom_to_area(building.rect)
        return building is not None

    def zoom_to_rack(self, rack_id: str) -> bool:
        """Close enough to read the rack's devices, the rack in the middle."""
        if self.floor.rack_rect(rack_id) is None:
            return False
        self._auto_zoom = False
        self.set_zoom(max(READABLE_ZOOM, self.transform().m11()))
        self.centre_on_rack(rack_id)
        return True

    def campus_levels(self, point: QPointF, rack_id: str | None = None) -> list[tuple[QRectF, object]]:
        """(area, how to zoom to it) from the rack to the campus, around ``rack_id`` or the
        scene ``point``: the building and hall it is in (or the nearest), the rack (or the spot)."""
        campus = self.campus
        hall = campus.hall_of(rack_id) if rack_id else None
        building = campus.building(hall.building) if hall else _nearest(campus.buildings, point)
        if hall is None:
            hall = _nearest([campus.hall(h) for h in building.halls], point)
        if rack_id is None:
            rack_id = self.floor.rack_at(point.x(), point.y())
        spot = self.floor.rack_rect(rack_id) if rack_id else QRectF(point, point)
        return [(spot, lambda: self.zoom_to_rack(rack_id) if rack_id else self._zoom_to_spot(point)),
                (hall.rect, lambda: self.zoom_to_area(hall.rect)),
                (building.rect, lambda: self.zoom_to_area(building.rect)),
                (self.scene().sceneRect(), self.zoom_to_fit)]

    def _zoom_to_spot(self, point: QPointF) -> None:
        self._auto_zoom = False
        self.set_zoom(max(READABLE_ZOOM, self.transform().m11()))
        self.centerOn(point)

    def _level_zoom(self, index: int, rect: QRectF) -> float:
        return max(READABLE_ZOOM, self.transform().m11()) if index == 0 else min(1.0, self.area_zoom(rect))

    def zoom_level_out(self, point: QPointF, rack_id: str | None = None) -> bool:
        """To the smallest of hall, building, campus that is farther out than the zoom now."""
        now = self.transform().m11()
        for i, (rect, go) in enumerate(self.campus_levels(point, rack_id)):
            if i and self._level_zoom(i, rect) * LEVEL_STEP < now:
                go()
                return True
        return False

    def zoom_level_in(self, point: QPointF, rack_id: str | None = None) -> bool:
        """To the largest of building, hall, rack that is closer than the zoom now."""
        now = self.transform().m11()
        levels = self.campus_levels(point, rack_id)
        for i in (2, 1, 0):
            rect, go = levels[i]
            if self._level_zoom(i, rect) > now * LEVEL_STEP:
                go()
                return True
        return False

    def _view_centre(self) -> QPointF:
        return self.mapToScene(self.viewport().rect().center())

    # Page Down goes back in where Page Up went out from: each step out keeps the zoom and the
    # view's centre before it, as long as the view is not moved or zoomed otherwise in between
    # (else the middle of the view, or the selected rack, as before). A step in goes towards
    # the last kept centre and forgets those no closer than where it lands (a level the way in
    # skips: campus-1m's halls and buildings are about as wide on screen).
    def _key_level_out(self, _key) -> bool:
        if not self.campus.outlined:
            return False  # one hall: the keys scroll as they always did
        trail, state = self._unmoved_trail(), self._view_state()
        if self.zoom_level_out(state[1], self._rack_of_selection()):
            self._keep_trail(trail + [state])
        return True

    def _key_level_in(self, _key) -> bool:
        if not self.campus.outlined:
            return False
        trail = self._unmoved_trail()
        point = trail[-1][1] if trail else self._view_centre()
        if self.zoom_level_in(point, self._rack_of_selection()):
            now = self.transform().m11()
            self._keep_trail([(zoom, centre) for zoom, centre in trail if zoom > now * LEVEL_STEP])
        return True

    def _view_state(self) -> tuple[float, QPointF]:
        return self.transform().m11(), self._view_centre()

    def _keep_trail(self, trail: list[tuple[float, QPointF]]) -> None:
        self._zoom_trail, self._trail_state = trail, self._view_state()

    def _unmoved_trail(self) -> list[tuple[float, QPointF]]:
        """The points the steps out started from, if the view is about where the last step left
        it: a zoom within a level step, the middle within a quarter of the view (the view settles
        a few pixels after a step, as the zoomed-out floor's scroll range catches up)."""
        state = getattr(self, "_trail_state", None)
        if state is None:
            return []
        zoom, centre = state
        now_zoom, now_centre = self._view_state()
        vp = self.viewport().rect()
        moved = (max(now_zoom / zoom, zoom / now_zoom) > LEVEL_STEP
                 or (now_centre - centre).manhattanLength() * now_zoom > min(vp.width(), vp.height()) / 4)
        return [] if moved else list(self._zoom_trail)

    def mouseDoubleClickEvent(self, event) -> None:
        """Beside the racks (or on a block of the zoomed-out floor) of a campus: zoom in a
        level towards the pointer."""
        scene_pos = self.mapToScene(event.position().toPoint())
        beside = self.floor_mode or not any(isinstance(i, (RackItem, DeviceItem)) for i in self.scene().items(scene_pos))
        if self.campus.outlined and event.button() == Qt.MouseButton.LeftButton and beside:
            self.zoom_level_in(scene_pos)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)


def _nearest(boxes, point: QPointF):
    """The box containing ``point``, else the one whose outline is nearest to it."""
    def distance(box) -> float:
        r = box.rect
        dx = max(r.left() - point.x(), 0.0, point.x() - r.right())
        dy = max(r.top() - point.y(), 0.0, point.y() - r.bottom())
        return dx * dx + dy * dy
    return min(boxes, key=distance)

"""The device palette: the catalog grouped by category, searchable; entries drag into racks."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QDrag, QIcon, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QLabel, QLineEdit, QTreeView, QVBoxLayout, QWidget

from planner.hardware.catalog import CATEGORY_TITLES, Catalog
from planner.hardware.search import matches
from ui import fmt, theme
from ui.mime import DragPayload, to_mime

DEVICE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_TITLE_ROLE = Qt.ItemDataRole.UserRole + 2  # a category group's title, without its count


def _swatch(category: str) -> QIcon:
    pix = QPixmap(12, 12)
    pix.fill(theme.category_colour(category))
    return QIcon(pix)


class _CatalogModel(QStandardItemModel):
    def mimeTypes(self):
        from ui.mime import DEVICE_MIME

        return [DEVICE_MIME]

    def mimeData(self, indexes):
        for index in indexes:
            device = index.data(DEVICE_ID_ROLE)
            if device:
                return to_mime(DragPayload(device))
        return None


class _SearchProxy(QSortFilterProxyModel):
    """Shows the devices the core's catalog search matches, and their category groups."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.query = ""
        self.catalog: Catalog | None = None

    def set_query(self, query: str) -> None:
        self.beginFilterChange()
        self.query = query
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row, parent) -> bool:
        index = self.sourceModel().index(row, 0, parent)
        device_id = index.data(DEVICE_ID_ROLE)
        if device_id is None:  # a category group: shown while any of its devices is
            return any(self.filterAcceptsRow(r, index) for r in range(self.sourceModel().rowCount(index)))
        device = self.catalog.get(device_id) if self.catalog is not None else None
        return device is not None and matches(device, self.query)


class _DeviceTree(QTreeView):
    """The palette's tree; a drag carries a small swatch below-right of the pointer, not the whole
    row, so the target slot and the ghost's label stay in sight."""

    def startDrag(self, actions) -> None:  # noqa: N802 (Qt API)
        indexes = self.selectedIndexes()
        mime = self.model().mimeData(indexes) if indexes else None
        if mime is None:
            return
        drag = QDrag(self)
        drag.setMimeData(mime)
        icon = indexes[0].data(Qt.ItemDataRole.DecorationRole)
        if isinstance(icon, QIcon):
            drag.setPixmap(icon.pixmap(DRAG_PIXMAP_PX, DRAG_PIXMAP_PX))
            drag.setHotSpot(QPoint(-DRAG_PIXMAP_PX // 2, -DRAG_PIXMAP_PX // 2))  # off the pointer's tip
        drag.exec(Qt.DropAction.CopyAction)


DRAG_PIXMAP_PX = 14


class DevicePalette(QWidget):
    def __init__(self, catalog: Catalog, parent=None):
        super().__init__(parent)
        self.search = QLineEdit(placeholderText="Search devices…", clearButtonEnabled=True)
        self.model = _CatalogModel(self)
        self.search.setToolTip("Model, vendor, category or technology words: switch, infiniband, 400G, liquid, H100")
        self.proxy = _SearchProxy(self)
        self.proxy.setSourceModel(self.model)
        self.tree = _DeviceTree(headerHidden=True, rootIsDecorated=True, uniformRowHeights=False)
        self.tree.setModel(self.proxy)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setAlternatingRowColors(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.no_match = QLabel()
        self.no_match.setObjectName("NoDevicesMatch")
        self.no_match.setWordWrap(True)
        self.no_match.hide()
        layout.addWidget(self.search)
        layout.addWidget(self.no_match)
        layout.addWidget(self.tree)
        self.search.textChanged.connect(self._filter)
        self.set_catalog(catalog)

    def set_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.proxy.catalog = catalog
        self.model.clear()
        for category, title in CATEGORY_TITLES.items():
            devices = catalog.by_category(category)
            if not devices:
                continue
            group = QStandardItem(f"{title}  ({len(devices)})")
            group.setData(title, GROUP_TITLE_ROLE)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = group.font()
            font.setBold(True)
            group.setFont(font)
            for d in devices:
                spec = f"{d.u_height}U · {fmt.watts(d.power_typical_w)} typ · {fmt.watts(d.power_max_w)} max"
                item = QStandardItem(_swatch(category), f"{d.title}\n{spec}")
                item.setData(d.id, DEVICE_ID_ROLE)
                # the row elides in a narrow dock: its tooltip has both lines whole
                item.setToolTip(f"{d.title} ({d.id})\n{spec}\nDrag into a rack.\nSource: {d.source}")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
                item.setForeground(QColor(self.palette().text().color()))
                group.appendRow(item)
            self.model.appendRow(group)
        self.tree.expandAll()
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        self.proxy.set_query(text.strip())
        self.tree.expandAll()
        for g in range(self.model.rowCount()):  # each group counts what it shows: "Switches (3 of 9)"
            group = self.model.item(g)
            total = group.rowCount()
            shown = self.proxy.rowCount(self.proxy.mapFromSource(group.index()))
            label = f"{group.data(GROUP_TITLE_ROLE)}  ({shown:,} of {total:,})" if text.strip() else \
                f"{group.data(GROUP_TITLE_ROLE)}  ({total:,})"
            if group.text() != label:
                group.setText(label)
        empty = bool(text.strip()) and not self.visible_device_ids()
        self.no_match.setText(f"No devices match “{text.strip()}”. Try a model (H100), a vendor, a category "
                              "(switch) or a technology (infiniband, 400G, liquid)." if empty else "")
        self.no_match.setVisible(empty)

    def visible_device_ids(self) -> list[str]:
        out = []
        for g in range(self.proxy.rowCount()):
            parent = self.proxy.index(g, 0)
            for r in range(self.proxy.rowCount(parent)):
                out.append(self.proxy.index(r, 0, parent).data(DEVICE_ID_ROLE))
        return out

    def mime_for(self, device_id: str):
        """The drag payload the palette produces for a device (what the view receives)."""
        for g in range(self.model.rowCount()):
            group = self.model.item(g)
            for r in range(group.rowCount()):
                item = group.child(r)
                if item.data(DEVICE_ID_ROLE) == device_id:
                    return self.model.mimeData([item.index()])
        return None

"""A state dump for tests that drive the running app from outside (real X11 input).

With ``CLUSTER_PLANNER_STATE_DUMP=FILE`` set, the app writes FILE (JSON: the plan, the
status bar's message, the undo stack's position and the name of the step Undo would undo,
the window title, the ghost's state) after every edit and every status message, and
whenever a popup menu or dialog opens or closes (checked every 200 ms), replacing it whole
each time. Unset, nothing is written.
Its geometry says where the racks, the palette's rows and the checks list's rows and Fix
buttons are on the screen.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.checks_panel import FINDING_ROLE
from ui.device_palette import DEVICE_ID_ROLE

STATE_DUMP_ENV = "CLUSTER_PLANNER_STATE_DUMP"


def install_state_dump(window) -> None:
    target = os.environ.get(STATE_DUMP_ENV, "").strip()
    if not target:
        return
    path = Path(target)
    last = {"text": ""}

    def write(*_args) -> None:
        view = window.view
        state = {
            "plan": json.loads(window.doc.plan_json()),
            "status": window.statusBar().currentMessage(),
            "undo_index": window.doc.undo_stack.index(),
            "undo_count": window.doc.undo_stack.count(),
            "undo_text": window.doc.undo_stack.undoText(),
            "title": window.windowTitle(),
            "ghost": view.ghost_state if view.ghost.isVisible() else None,
            "ghost_label": view.ghost_words,
            "selected_devices": view.selected_devices(),
            "selected_rack": view.selected_rack(),
            "floor_mode": view.floor_mode,
            "geometry": _geometry(window),
            "popup": _title(QApplication.activePopupWidget()),
            "dialog": _title(QApplication.activeModalWidget()),
        }
        text = json.dumps(state)
        if text == last["text"]:
            return
        last["text"] = text
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)

    window.doc.changed.connect(write)
    window.doc.undo_stack.indexChanged.connect(write)
    window.statusBar().messageChanged.connect(write)
    window.view.selectionChangedTo.connect(write)
    window.view.visibleAreaChanged.connect(write)
    window.palette_panel.search.textChanged.connect(write)
    timer = QTimer(window)  # menus and dialogs open without a signal the window sees
    timer.setInterval(200)
    timer.timeout.connect(write)
    timer.start()
    write()


def _title(widget) -> str | None:
    if widget is None:
        return None
    return widget.windowTitle() or (widget.title() if hasattr(widget, "title") else "") or type(widget).__name__


def _geometry(window) -> dict:
    """Where things are on the screen (global pixels), so a test can point at them."""

    view = window.view
    vp = view.viewport()
    top_left = vp.mapToGlobal(vp.rect().topLeft())
    visible = vp.rect()
    racks = {}
    for rid, item in view.racks.items():
        x_local = theme.GUTTER_W + theme.RACK_BODY_W / 2

        def at(u: int):
            p = vp.mapToGlobal(view.mapFromScene(item.mapToScene(x_local, item.slot_top(u) + theme.U_PX / 2)))
            return p.x(), p.y()
        (x, y1), (_, y_top) = at(1), at(item.rack.height_u)
        body = view.mapFromScene(item.mapRectToScene(item.body_rect())).boundingRect()
        racks[item.rack.name] = {"id": rid, "x": x, "y_u1": y1, "u_px": (y1 - y_top) / max(1, item.rack.height_u - 1), "height_u": item.rack.height_u,
                                 "visible": visible.contains(body)}
    palette = {}
    tree = window.palette_panel.tree
    proxy = tree.model()
    for g in range(proxy.rowCount()):
        parent = proxy.index(g, 0)
        for r in range(proxy.rowCount(parent)):
            index = proxy.index(r, 0, parent)
            rect = tree.visualRect(index)
            if rect.isValid() and tree.viewport().rect().contains(rect.center()):
                p = tree.viewport().mapToGlobal(rect.center())
                palette[index.data(DEVICE_ID_ROLE)] = [p.x(), p.y()]
    search = window.palette_panel.search
    centre = search.mapToGlobal(search.rect().center())
    campus = {f"{kind}:{box.id}": _global_rect(vp, view.mapFromScene(box.rect).boundingRect())
              for kind, boxes in (("building", view.campus.buildings), ("hall", view.campus.halls))
              for box in boxes} if view.campus.outlined else {}  # each outline on the screen
    settings = {f"{section}.{name}": _global_rect(editor.widget, editor.widget.rect())
                for section, form in window.settings_panel.forms.items()
                for name, editor in form.editors.items() if editor.widget.isVisible()}  # each field shown
    inspector = {key: _global_rect(w, w.rect()) for key, w in window.inspector.fields.items() if w.isVisible()}
    return {"view": [top_left.x(), top_left.y(), vp.width(), vp.height()], "racks": racks, "palette": palette,
            "search": [centre.x(), centre.y()], "checks": _checks(window.checks), "campus": campus,
            "settings": settings, "inspector": inspector}


def _global_rect(widget, rect) -> list[int]:
    p = widget.mapToGlobal(rect.topLeft())
    return [p.x(), p.y(), rect.width(), rect.height()]


def _checks(checks) -> dict:
    """The checks list's rows on screen (code, severity, where, the finding's remedy label, the
    row's global rectangle, whether it is the current row) and its Fix and Fix all buttons."""
    vp = checks.viewport()
    rows = []
    model = checks.model()
    for i in range(model.rowCount()):
        index = model.index(i)
        finding = index.data(FINDING_ROLE)
        rect = checks.visualRect(index).intersected(vp.rect())  # the part on screen
        if finding is None or rect.isEmpty():
            continue
        rows.append({"code": finding.code, "severity": finding.severity, "where": finding.where,
                     "remedy": finding.remedy.label if finding.remedy is not None else None,
                     "rect": _global_rect(vp, rect), "current": index == checks.currentIndex()})

    def button(b) -> dict:
        return {"rect": _global_rect(b, b.rect()), "enabled": b.isEnabled(), "visible": b.isVisible(),
                "text": b.text(), "tooltip": b.toolTip()}

    return {"rows": rows, "fix": button(checks.fix_button), "fix_all": button(checks.fix_all_button),
            "title": checks.title}

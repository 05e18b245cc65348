"""The rack view on a big plan: level of detail, lazy device items, the floor overview,
keyboard navigation and edits that redraw only the touched racks.

A few-hundred-rack plan keeps CI fast: ``massive`` with 1,500 nodes gives 426 racks and
2,728 devices (the frontier-100k figures are in benchmarks/app_*_frontier.py).
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtWidgets import QApplication

from planner.design.templates import build_template
from planner.plan.commands import MoveDevice
from planner.plan.space import lowest_free_u
from ui import theme
from ui.floor import FLOOR_BELOW_LOD, LABELS_FROM_LOD
from ui.rack_items import RackItem


@pytest.fixture(scope="module")
def big_plan_json(catalog):
    from planner.plan.fileio import plan_to_json
    return plan_to_json(build_template("massive", nodes=1500, catalog=catalog))


@pytest.fixture
def big(qtbot, catalog, big_plan_json):
    from planner.plan.fileio import plan_from_json
    from ui.app import ensure_application
    from ui.document import Document
    from ui.main_window import MainWindow

    ensure_application()
    w = MainWindow(Document(plan_from_json(big_plan_json), catalog))
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def paint(view):
    view.viewport().repaint()
    QApplication.processEvents()  # deferred device items are created after the paint
    view.viewport().repaint()


def test_the_big_plan_fixture_is_a_few_hundred_racks(big):
    plan = big.doc.plan
    kinds = Counter(r.name.split("-")[0] for r in plan.racks)
    devices = Counter(p.device for p in plan.placements)
    # 1,500 nodes and 23 spares (1,500 x 2.9e-3 x 3 days = 13.1 in repair at once on average,
    # fewer than 23 at 99.2 % of failures, Poisson): the job's fabric has ceil(1,500 / 32) = 47
    # units of 32, 1,504 slots, 4 free; stocked, the other 19 would leave each GPU or host
    # failure waiting for a node and a cold restart below 90 %, so all 23 are placed hot: 1,523
    # placed. 381 GPU racks (4 per 30 kW rack); 960 QM9700 (48 units x 8 rails = 384 leaves in
    # 12 pods of 32, 12 x 32 = 384 spines, 384 x 32 / 64 = 192 cores); storage to the 10 GB/s
    # per node target for the job's nodes (the spares write nothing): 1,500 x 10 = 15,000 GB/s /
    # 25 GB/s an appliance -> 600;
    # 51 CDUs by capacity (1,523 x 10.2 kW x 0.8 = 12,428 kW / 250 -> 50, + 1 spare)
    assert kinds["GPU"] == 381 and devices["hgx-h100-8"] == 1523
    assert devices["qm9700"] == 384 + 384 + 192 and devices["pfs-appliance"] == 600
    assert devices["cdu-inrack-250"] == 51
    assert 400 < len(plan.racks) < 600  # with the network, storage and CDU racks


def test_zoomed_out_the_floor_draws_blocks_and_zoomed_in_racks_show_labelled_devices(big):
    view = big.view
    view.zoom_to_fit()
    paint(view)
    assert view.zoom_level() < FLOOR_BELOW_LOD
    assert view.floor_mode and view.floor.isVisible() and not view.layer.isVisible()
    # device items exist only for the few racks seen close up at the start, not for the floor
    assert sum(r.materialised for r in view.racks.values()) <= 2 * theme.RACKS_PER_ROW
    first = view.doc.plan.racks[0].id
    # every rack has a block in the floor, coloured by its load like the rack's power bar
    assert view.floor.colour(first) == view.racks[first].power_bar_colour().name()

    view.set_zoom(1.0)
    view.centre_on_rack(first)
    paint(view)
    assert not view.floor_mode and view.layer.isVisible() and not view.floor.isVisible()
    rack = view.racks[first]
    assert rack.materialised and rack.isVisible()
    devices = rack._devices
    assert len(devices) == len(view.doc.plan.rack_members(first)) > 0
    assert all(d.isVisible() for d in devices.values())
    far = view.doc.plan.racks[-1].id  # never drawn close up: still plain blocks, no items
    assert not view.racks[far].materialised


def test_medium_zoom_shows_racks_without_device_items(big):
    view = big.view
    view.set_zoom((FLOOR_BELOW_LOD + LABELS_FROM_LOD) / 2)
    view.centre_on_rack(view.doc.plan.racks[200].id)
    paint(view)
    assert not view.floor_mode and view.layer.isVisible()
    on_screen = [i for i in view.items(view.viewport().rect()) if isinstance(i, RackItem)]
    assert len(on_screen) > 12  # many racks in sight ...
    assert not any(r.materialised for r in on_screen)  # ... drawn as blocks without text
    # asking for a rack's devices (selection, a finding) creates them
    rid = on_screen[0].rack_id
    pid = next(iter(view.doc.plan.rack_members(rid)))
    assert view.select(pid) and view.selected_devices() == [pid]


def test_selection_survives_zooming_out_to_the_floor_and_back(big):
    view = big.view
    rid = view.doc.plan.racks[5].id
    view.set_zoom(1.0)
    assert view.select(rid)
    view.zoom_to_fit()
    assert view.floor_mode and view.selected_rack() == rid and view.floor.selected == rid
    view.set_zoom(1.0)
    assert not view.floor_mode and view.selected_rack() == rid and view.racks[rid].isSelected()


def test_clicking_a_rack_in_the_overview_centres_the_view_on_it(big, qtbot):
    view, overview = big.view, big.overview
    view.set_zoom(1.0)
    target = view.doc.plan.racks[len(view.doc.plan.racks) // 2].id
    rect = view.floor.rack_rect(target)
    assert view.mapToScene(view.viewport().rect()).boundingRect().intersects(rect) is False
    overview.repaint()
    spot = overview.to_widget(rect).center().toPoint()
    qtbot.mouseClick(overview, Qt.MouseButton.LeftButton, pos=spot)
    centre = view.mapToScene(view.viewport().rect().center())
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    # centred within a couple of pixels (one device pixel is one scene unit at zoom 1); a rack
    # taller than the view with its top, its name and power bar, just inside the view's top
    assert abs(centre.x() - rect.center().x()) < 3
    if rect.height() <= shown.height():
        assert abs(centre.y() - rect.center().y()) < 3
    else:
        assert shown.top() < rect.top() < shown.top() + 0.05 * shown.height()


def test_arrow_keys_walk_from_rack_to_rack_along_rows(big, qtbot):
    view = big.view
    view.set_zoom(1.0)
    rows = view.rows
    assert len(rows) > 1 and len(rows[0]) > 2
    view.select(rows[0][1])
    view.setFocus()
    qtbot.keyClick(view.viewport(), Qt.Key.Key_Right)
    assert view.selected_rack() == rows[0][2]
    qtbot.keyClick(view.viewport(), Qt.Key.Key_Down)
    assert view.selected_rack() == rows[1][2]
    qtbot.keyClick(view.viewport(), Qt.Key.Key_Left)
    assert view.selected_rack() == rows[1][1]
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.intersects(view.floor.rack_rect(rows[1][1]))
    qtbot.keyClick(view.viewport(), Qt.Key.Key_Home)  # the whole floor
    assert view.floor_mode
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(view.floor.boundingRect().adjusted(4, 4, -4, -4))


def test_zoom_out_reaches_the_whole_floor(big):
    view = big.view
    view.set_zoom(1.0)
    for _ in range(60):
        view.zoom_by(0.8)
    assert view.zoom_level() == pytest.approx(view.fit_zoom())


def test_an_edit_redraws_only_the_touched_racks_without_rebuilding_the_scene(big, monkeypatch):
    view, doc = big.view, big.doc
    before = dict(view.racks)
    count_before = len(view.scene().items())
    synced: list[str] = []
    original = RackItem.sync

    def counting_sync(self, rack, *args, **kwargs):
        synced.append(rack.id)
        return original(self, rack, *args, **kwargs)

    monkeypatch.setattr(RackItem, "sync", counting_sync)
    monkeypatch.setattr(view, "rebuild", lambda: pytest.fail("the scene was rebuilt for one move"))
    p = doc.plan.placements[0]
    source = p.rack
    dest = next(r for r in doc.plan.racks[100:]
                if lowest_free_u(doc.plan, doc.catalog, r, doc.catalog[p.device].u_height) is not None)
    u = lowest_free_u(doc.plan, doc.catalog, dest, doc.catalog[p.device].u_height)
    assert doc.apply(MoveDevice(p.id, dest.id, u))
    assert sorted(synced) == sorted({source, dest.id})  # 2 of 426 racks
    assert all(view.racks[rid] is item for rid, item in before.items())  # the same items, not new ones
    # nothing created (devices of unseen racks stay lazy); the moved device's item leaves its
    # source rack if that rack had been drawn with its devices
    assert not view.racks[dest.id].materialised
    assert len(view.scene().items()) == count_before - (1 if view.racks[source].materialised else 0)
    assert p.id in view.racks[dest.id].devices and p.id not in view.racks[source].devices



def test_the_overview_shades_cold_and_hot_aisles_between_rows(big):
    overview = big.overview
    overview.resize(400, 400)
    image = overview._render()
    rows = big.view.floor.rows()
    assert len(rows) > 2

    def gap_colour(i):
        top, bottom = rows[i][1], rows[i + 1][0]
        first = big.view.floor.rack_rect(rows[i][2][0])  # the row's first rack
        point = overview.to_widget(QRectF(first.left(), top, first.width(), bottom - top)).center().toPoint()
        return image.pixelColor(point)

    cold, hot = gap_colour(0), gap_colour(1)  # row 1 | cold aisle | row 2 | hot aisle | row 3
    assert cold.blue() > cold.red() and hot.red() > hot.blue()


def test_on_the_floor_a_drop_goes_to_the_pointed_u_if_free_else_the_lowest_free_slot(big):
    """A U is under a pixel on the zoomed-out floor: a drop on a rack's block goes to the U
    pointed at when the device fits there, else to the rack's lowest free slot."""
    from planner.plan.space import slot_near

    plan, catalog = big.doc.plan, big.doc.catalog
    gpu = [r for r in plan.racks if r.name.startswith("GPU-")]
    node = next(iter(plan.rack_members(gpu[0].id).values()))
    device = catalog[node.device]  # a 4U direct-liquid-cooled HGX H100 node; GPU racks hold four at U1-U16
    target = gpu[2]
    assert sorted(p.u for p in plan.rack_members(target.id).values()) == [1, 5, 9, 13]
    assert slot_near(plan, catalog, target, 30, device) == 30  # U30-U33 is free
    assert slot_near(plan, catalog, target, 6, device) == 17  # U6 is node 2's: the lowest free slot
    assert slot_near(plan, catalog, target, 40, device) == 17  # U40-U43 sticks out of the 42U rack
    # the node's own slot is free when it is the one moving within its rack
    assert slot_near(plan, catalog, gpu[0], node.u, device, frozenset({node.id})) == node.u
    net = next(r for r in plan.racks if r.cooling == "air")
    assert slot_near(plan, catalog, net, 30, device) == 30  # refused there for its cooling, not moved


def test_a_press_on_a_floor_block_picks_the_device_at_that_height_or_the_one_selected(big):
    view = big.view
    view.zoom_to_fit()
    assert view.floor_mode
    plan = big.doc.plan
    rack = next(r for r in plan.racks if r.name.startswith("GPU-"))
    members = sorted(plan.rack_members(rack.id).values(), key=lambda p: p.u)  # U1, U5, U9, U13
    item = view.racks[rack.id]

    def at_u(u):
        return item.mapToScene(theme.GUTTER_W + 5, item.slot_top(u) + theme.U_PX / 2)
    assert view.floor_device(rack.id, at_u(6)) == members[1].id  # U6 is inside U5-U8
    assert view.floor_device(rack.id, at_u(30)) == members[3].id  # nothing at U30: the nearest, U13-U16
    assert view.floor_device(rack.id, at_u(2), selected=[members[2].id]) == members[2].id
    empty = next((r for r in plan.racks if not plan.rack_members(r.id)), None)
    if empty is not None:
        assert view.floor_device(empty.id, at_u(2)) is None


def test_on_the_floor_two_far_apart_racks_redrawn_look_as_the_whole_floor_drawn_afresh(big):
    # A move repaints two blocks; Qt hands the floor the bounding rectangle of both (most of the
    # floor) and clips to the two: the floor draws just the racks in the clip. The picture must
    # be the one a full redraw gives: no block left out, none in the wrong colour.
    from types import SimpleNamespace

    view = big.view
    view.zoom_to_fit()
    paint(view)
    assert view.floor_mode
    first, last = view.floor.rows()[0][2][0], view.floor.rows()[-1][2][-1]
    over = SimpleNamespace(load_fraction=1.2, findings=[SimpleNamespace(severity="error")])
    for rid in (first, last):
        assert view.floor.colour(rid) != theme.bar_colour(1.2).name()
        view.floor.set_state(rid, over)
    view.viewport().repaint()
    partial = view.viewport().grab().toImage()
    view.floor.update()  # everything drawn again into the floor's cache
    view.viewport().repaint()
    full = view.viewport().grab().toImage()
    assert partial == full
    for rid in (first, last):  # and the two blocks did change: red, outlined
        centre = view.mapFromScene(view.floor.rack_rect(rid).center())
        assert full.pixelColor(centre).name() == theme.bar_colour(1.2).name()


def test_the_floor_finds_the_racks_an_area_meets_by_row_and_by_edge(big):
    floor = big.view.floor
    rects = {rid: floor.rack_rect(rid) for _, _, ids in floor.rows() for rid in ids}
    for area in (QRectF(rects[floor.rows()[1][2][3]]).adjusted(-5, -5, 5, 5),  # one rack and its edges
                 QRectF(0, 0, 1, 1), floor.boundingRect(), QRectF(-100, -100, 10, 10),
                 QRectF(rects[floor.rows()[0][2][0]].center(), rects[floor.rows()[2][2][4]].center())):
        expected = {rid for rid, r in rects.items() if r.intersects(area) or r.intersected(area) == r}
        got = floor.racks_in(area)
        assert len(got) == len(set(got)) and set(got) >= expected
        assert all(rects[rid].adjusted(-0.01, -0.01, 0.01, 0.01).intersects(area) for rid in got)

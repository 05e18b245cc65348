"""A rack-scale system's compute trays are the fabric's nodes in the cable schedule, as the
fabric sizing counts them: rail i of every tray goes to leaf i of its scalable unit, so a
partial last unit is wired to the leaves the sizing gave it (none left unrouted)."""

from __future__ import annotations

from collections import Counter

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule

CAT = default_catalog()


def test_every_tray_of_two_nvl72_is_wired_to_its_units_leaves():
    # 2 GB200 NVL72 = 36 trays of 4 x 400G NICs on 64-port QM9700 leaves of 32 down-ports:
    # units of 32 trays, 4 leaves each (one a rail): ceil(36 / 32) = 2 units, 8 leaves
    plan = design(Intent(system="gb200-nvl72", nodes=2, spare_nodes=0, fabric="ib400", switch="qm9700"), CAT).plan
    sched = build_schedule(plan, CAT)
    assert not sched.unrouted
    node_leaf = [lk for lk in sched.links if lk.tier == "node-leaf"]
    assert len(node_leaf) == 36 * 4
    # trays 0-31 (the first rack's 18 and the second's first 14) on leaves 0-3, 32 links each;
    # trays 32-35 (the second rack's last 4) on leaves 4-7, 4 links each
    leaves = sorted({lk.b.device for lk in node_leaf}, key=lambda d: [lk.b.device for lk in node_leaf].index(d))
    per_leaf = Counter(lk.b.device for lk in node_leaf)
    assert [per_leaf[d] for d in leaves] == [32] * 4 + [4] * 4
    # at the system, tray t's rail i is port 4t + i + 1: the second rack's tray 14 (unit 2's
    # first tray) rail 0 is its port 57, on the first leaf of unit 2
    second = sorted({lk.a.rack for lk in node_leaf})[1]
    first_of_unit_2 = [lk for lk in node_leaf if lk.b.device == leaves[4]]
    assert [(lk.a.rack, lk.a.port) for lk in first_of_unit_2] == [(second, 4 * t + 1) for t in range(14, 18)]

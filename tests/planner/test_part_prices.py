"""Cables, optics and facility power priced by part: cables by medium and length from the
cable schedule, optics by speed, form factor and reach, power distribution per kW; the
workbook recalculated by LibreOffice agrees."""

import math
from collections import Counter

import pytest

from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import find_soffice, named, recalc, recalc_edited

CAT = default_catalog()
# Cages that take one twin-port 2 x 400G OSFP module for two links (REFERENCE; DGX SuperPOD
# H100 RA): QM9700's and SN5600's 2 x 400G cages. The HGX H100's compute NICs are
# single-port ConnectX-7 adapters, and its storage NICs single-port: one 400G OSFP SR4
# module per link.
TWIN_SWITCHES = {"qm9700", "sn5600-400"}


def cost_of(plan):
    return evaluate(plan, CAT).sections["cost"]


def bom(plan):
    return {line.item: line for line in cost_of(plan).bom}


def test_medium_optics_count_times_unit_price_by_module_type():
    plan = build_template("medium")
    sched = build_schedule(plan, CAT)
    # Counted from the schedule: at every device, its fibre runs (multimode here: every
    # run within 50 m) fill its cages, two links to a twin-port cage.
    ends = Counter()
    for link in sched.links:
        if link.medium.name in ("MMF", "SMF"):
            for end in (link.a, link.b):
                twin = end.device_type in TWIN_SWITCHES
                ends[(link.network, end.rack, end.u, twin)] += 1
    assert {link.medium.name for link in sched.links if link.medium.transceivers} == {"MMF"}
    modules = Counter()
    for (network, _rack, _u, twin), n in ends.items():
        modules[(network, twin)] += math.ceil(n / 2) if twin else n
    assert modules == {("compute", True): 64, ("compute", False): 125, ("storage", True): 14,
                       ("storage", False): 28}
    lines = bom(plan)
    twin = "800G twin-port OSFP transceiver (2 x 400G SR4)"
    fabric, storage_twin = lines[f"Transceiver, fabric: {twin}"], lines[f"Storage transceiver: {twin}"]
    single = lines["Storage transceiver: 400G OSFP SR4 transceiver (single-port)"]
    nic_end = lines["Transceiver, fabric: 400G OSFP SR4 transceiver (single-port)"]
    # catalog prices: twin-port 2 x 400G SR $1,200, single-port 400G SR4 $700
    assert (fabric.quantity, fabric.total_usd) == (64, 64 * 1_200)
    assert (nic_end.quantity, nic_end.total_usd) == (125, 125 * 700)
    assert (storage_twin.quantity, storage_twin.total_usd) == (14, 14 * 1_200)
    assert (single.quantity, single.total_usd) == (28, 28 * 700)
    assert "xcvr-2x400g-osfp-sr8" in fabric.source and "Planner assumption" in fabric.source
    optics = [line for line in lines.values() if "ransceiver" in line.item]
    assert sum(line.total_usd for line in optics) == 76_800 + 87_500 + 16_800 + 19_600


@pytest.mark.parametrize("template", ["medium", "massive", "inference"])
def test_bom_cable_lines_sum_to_the_schedule_by_medium(template):
    plan = build_template(template)
    sched = build_schedule(plan, CAT)
    lines = [line for line in cost_of(plan).bom if " cable, " in line.item]
    assert sum(line.quantity for line in lines) == len(sched.links) + sum(sched.unrouted.values())
    titles = {"DAC": "passive copper DAC", "ACC": "active copper cable", "AOC": "active optical cable",
              "MMF": "multimode fibre", "SMF": "single-mode fibre", "Cat6A": "Cat6A"}
    for medium, figures in sched.by_medium().items():
        assert sum(line.quantity for line in lines if titles[medium] in line.item) == figures["count"], medium
    # the compute fabric's cables are the fabric sizing's: medium 256, massive 3 x 384
    fabric = sum(line.quantity for line in lines if line.counts_as == "cable")
    assert fabric == evaluate(plan, CAT).sections["network"]["cables"]


def test_cables_priced_by_medium_and_length_bucket():
    lines = bom(build_template("massive"))
    # each run at the catalog cable of its medium whose length is the next at or above it
    dac = lines["Fabric cable, 400G passive copper DAC, 1.5 m"]
    assert (dac.unit_usd, dac.part) == (150, "NVIDIA 400G OSFP passive copper cable (DAC), 2 m")
    assert lines["Fabric cable, multimode fibre (OM4), 7 m"].unit_usd == 35  # 10 m trunk
    assert lines["Fabric cable, multimode fibre (OM4), 15 m"].unit_usd == 60  # 30 m trunk
    assert lines["Storage cable, 200G active optical cable, 10 m"].unit_usd == 250  # 200G AOC 10 m
    # the storage leaf-spine's uplinks, in the storage switches' own rack
    assert lines["Storage cable, 400G passive copper DAC, 1.5 m"].unit_usd == 150  # 400G DAC 2 m
    assert lines["Management cable, 1G Cat6A patch cord, 15 m"].unit_usd == 30  # Cat6A 30 m
    assert lines["Management cable, 1G Cat6A patch cord, 2 m"].unit_usd == 6  # Cat6A 3 m


def test_100gbe_is_not_priced_as_400g_osfp_optics():
    lines = bom(build_template("inference"))
    cabling = [line for line in lines.values() if line.category == "Cabling"]
    assert not any("OSFP" in line.part or "400G" in line.part for line in cabling)
    # 100G runs: QSFP28 DAC ($80, 5 m) and AOC ($120, 10 m); no separate optics
    assert lines["Fabric cable, 100G passive copper DAC, 5 m"].unit_usd == 80
    assert lines["Fabric cable, 100G active optical cable, 10 m"].unit_usd == 120
    assert not any("ransceiver" in item for item in lines)


def test_facility_power_per_kw_and_doubling_the_rate_in_the_workbook_moves_capex_by_that_line(tmp_path):
    soffice = find_soffice()
    plan = build_template("medium")
    report = evaluate(plan, CAT)
    line = next(x for x in report.cost.bom if x.item == "Facility power distribution")
    # IT power on the typical basis 142.648 kW (test_check_text) x $670/kW = 95,574.16
    assert line.total_usd == pytest.approx(142.648 * 670, abs=0.005)
    path = tmp_path / "m.xlsx"
    write_workbook(plan, CAT, path, report)
    base = recalc(soffice, path, tmp_path)
    assert named(base, "capex") == pytest.approx(report.cost.capex_usd, abs=0.005)
    after = recalc_edited(soffice, path, tmp_path, facility_power_usd_per_kw=1_340)
    assert named(after, "capex") - named(base, "capex") == pytest.approx(142.648 * 670, abs=0.01)


def test_a_move_reprices_the_cables_as_a_fresh_evaluation_does():
    from planner.plan.commands import MoveDevice
    from planner.report.evaluate import Evaluator

    plan = build_template("medium")
    ev = Evaluator(plan, CAT)
    before = ev.evaluate().sections["cost"]
    # a GPU node from GPU-01 to the liquid-cooled CDU rack at the end of the row: longer runs
    node = next(p for p in plan.placements if p.rack == plan.racks[0].id and p.device == "hgx-h100-8")
    cdu_rack = next(r for r in plan.racks if r.name == "CDU-01")
    changes = MoveDevice(node.id, cdu_rack.id, 30).do(plan, CAT)
    after = ev.evaluate(changes).sections["cost"]
    fresh = evaluate(plan, CAT).sections["cost"]
    assert [x.to_json() for x in after.bom] == [x.to_json() for x in fresh.bom]
    assert after.capex_usd == fresh.capex_usd != before.capex_usd

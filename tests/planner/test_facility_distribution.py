"""Power distribution, cooling plant and floor loading of a rack, with the figures worked by hand."""

from __future__ import annotations

import pytest

from planner.facility.heat import water_l_min
from planner.hardware.catalog import default_catalog
from planner.plan.model import Rack
from planner.report.evaluate import evaluate
from planner.settings import FacilitySettings
from tests.planner.cost_helpers import plan_with

CAT = default_catalog()
FOUR_DGX = [("dgx-h100", 1), ("dgx-h100", 9), ("dgx-h100", 17), ("dgx-h100", 25)]  # 4 x 10.2 kW = 40.8 kW
# the direct-liquid-cooled HGX H100: the same 10.2 kW nameplate and 7 kW typical, with cold plates
FOUR_HGX = [("hgx-h100-8", 1), ("hgx-h100-8", 9), ("hgx-h100-8", 17), ("hgx-h100-8", 25)]


def rack_report(devices=FOUR_DGX, rack=None, **settings):
    rack = rack or Rack(id="R1", name="R1", power_cap_kw=45, cooling="liquid")
    report = evaluate(plan_with([(rack, devices)], **settings), CAT)
    return report, report.rack("R1")


def codes(report):
    return {f.code for f in report.findings}


# -- 1. power distribution --------------------------------------------------------------

def test_415v_32a_three_phase_pdu_capacity():
    # sqrt(3) x 415 V x 32 A = 1.7321 x 13,280 = 23,002 VA = 23.0 kVA; x 0.8 = 18.4 kW
    pdu = CAT["pdu-415v-3ph-32a"]
    assert pdu.pdu.kva == pytest.approx(23.0, abs=0.01)
    assert pdu.pdu_kw(0.8) == pytest.approx(18.4, abs=0.01)
    # the other circuits of REFERENCE: 415 V 60 A -> 34.5 kW, 208 V 60 A -> 17.3 kW;
    # one phase: 230 V x 32 A = 7.36 kVA -> 5.89 kW
    assert CAT["pdu-3ph-60a"].pdu_kw(0.8) == pytest.approx(34.5, abs=0.01)
    assert CAT["pdu-208v-3ph-60a"].pdu_kw(0.8) == pytest.approx(17.3, abs=0.01)
    assert CAT["pdu-230v-1ph-32a"].pdu_kw(0.8) == pytest.approx(5.888)


def test_2n_rack_needs_three_32a_pdus_per_feed_and_survives_losing_feed_a():
    # 40.8 kW nameplate / 18.4 kW = 2.2 -> 3 PDUs on each feed; each feed alone 3 x 18.4 =
    # 55.2 kW >= 40.8: losing A leaves B carrying all 40.8 kW. Normal share 20.4 kW each.
    report, r = rack_report(power={"pdu_device": "pdu-415v-3ph-32a", "max_pdus_per_feed": 3})
    a, b = r.feeds
    assert (a.name, a.pdus, b.name, b.pdus) == ("A", 3, "B", 3)
    assert a.capacity_kw == pytest.approx(55.2, abs=0.01) and b.capacity_kw == pytest.approx(55.2, abs=0.01)
    assert a.load_kw == pytest.approx(20.4) and b.load_on_loss_kw == pytest.approx(40.8)
    assert r.pdus == 6  # six circuits to the rack
    assert not codes(report) & {"rack.power.feed_loss", "rack.power.single_feed", "rack.power.pdu_positions"}
    # the 6 DGX power supplies per node (C20 inlets) split 3 on A, 3 on B: 12 C19 cords per
    # feed against 3 PDUs x 6 C19 = 18 outlets
    assert (a.cords_c19, a.outlets_c19) == (12, 18)
    feeds = report.to_json()["racks"][0]["feeds"]
    assert [(f["name"], f["pdus"], f["capacity_kw"], f["load_kw"]) for f in feeds] == [
        ("A", 3, 55.204, 20.4), ("B", 3, 55.204, 20.4)]


def test_single_feed_is_a_warning_naming_the_rack_and_the_figures():
    report, r = rack_report(power={"pdu_device": "pdu-415v-3ph-32a", "feed_redundancy": "N",
                                   "max_pdus_per_feed": 4})
    # power needs 3 PDUs, but all 4 x 6 = 24 C19 cords now hang on feed A: 24 / 6 C19 per PDU = 4
    assert [f.pdus for f in r.feeds] == [4]
    single = [f for f in report.findings if f.code == "rack.power.single_feed"]
    assert len(single) == 1 and single[0].severity == "warning"
    assert "R1" in single[0].message and "40.8 kW" in single[0].message and "feed A" in single[0].message


def test_n_plus_1_survives_a_pdu_but_not_a_feed():
    # 3 PDUs for 40.8 kW + 1 spare = 4, 2 on A and 2 on B: losing A leaves 2 x 18.4 = 36.8 < 40.8 kW
    report, r = rack_report(power={"pdu_device": "pdu-415v-3ph-32a", "feed_redundancy": "N+1"})
    assert [f.pdus for f in r.feeds] == [2, 2]
    loss = [f for f in report.findings if f.code == "rack.power.feed_loss"]
    assert len(loss) == 1 and "36.8 kW" in loss[0].message and "40.8 kW" in loss[0].message


def test_pdu_positions_and_outlets_are_checked():
    # the default of two PDU positions per feed cannot take the three 32 A PDUs a feed needs
    report, _ = rack_report(power={"pdu_device": "pdu-415v-3ph-32a"})
    pos = [f for f in report.findings if f.code == "rack.power.pdu_positions"]
    assert pos and "feed A" in pos[0].message and "3 x 18.4 kW" in pos[0].message
    # cords decide too: 1 node at 10.2 kW fits one 60 A PDU per feed; the 1-phase 32 A PDU
    # (5.9 kW, 4 C19) needs ceil(10.2 / 5.888) = 2 PDUs per feed by power
    _, r = rack_report([("dgx-h100", 1)], power={"pdu_device": "pdu-230v-1ph-32a"})
    assert [f.pdus for f in r.feeds] == [2, 2]


def test_colocation_bills_the_committed_kw_by_default():
    # one 45 kW rack: committed 45 kW x $200 = $9,000 a month; nameplate 40.8 x 200 = 8,160;
    # typical 4 x 7 kW = 28 x 200 = 5,600
    def facility_usd(basis):
        report, _ = rack_report(costs={"colocation_basis": basis})
        return report.sections["cost"]["facility_usd_per_month"]
    assert facility_usd("committed") == pytest.approx(9_000)
    assert facility_usd("nameplate") == pytest.approx(8_160)
    assert facility_usd("typical") == pytest.approx(5_600)


def test_facility_ups_and_generators_with_their_redundancy():
    # IT nameplate 40.8 kW. Sized from the load (the default): UPS ceil(40.8 / 500) = 1 unit of
    # 40.8 rounded up to 50 kW, N+1 -> 2 x 50 = 100 kW; generators carry 40.8 x PUE 1.56 =
    # 63.6 kW: 1 set of 100 kW, N+1 -> 200 kW.
    report, _ = rack_report()
    fac = report.to_json()["facility"]
    assert (fac["ups_kw"], fac["generator_kw"]) == (100, 200)
    assert fac["generator_load_kw"] == pytest.approx(63.648)
    assert not [f for f in report.findings if f.code.startswith("facility.")]
    # Entered set sizes: N+1 of 500 kW modules -> 1,000 kW; N+1 of 2,000 kW sets -> 4,000 kW,
    # more than twice the 100 and 200 kW the load needs: a warning for each.
    report, _ = rack_report(power={"plant_sizing": "entered"})
    fac = report.to_json()["facility"]
    assert (fac["ups_kw"], fac["generator_kw"]) == (1_000, 4_000)
    codes = {f.code for f in report.findings if f.severity == "warning"}
    assert {"facility.ups.far_above_load", "facility.generator.far_above_load"} <= codes
    # 2N UPS of 20 kW modules: ceil(40.8 / 20) = 3 (a share of 13.6 kW rounds up to 50, above
    # the 20 kW module: 20), doubled -> 6 x 20 = 120 kW.
    report, _ = rack_report(power={"ups_redundancy": "2N", "ups_module_kw": 20})
    assert report.to_json()["facility"]["ups_kw"] == 120


# -- 2. cooling ----------------------------------------------------------------------

def test_120_kw_to_liquid_at_10_k_needs_172_litres_a_minute():
    # Q = P / (c_p x rho x dT) = 120 / (4.18 x 0.995 x 10) = 2.885 l/s = 173.1 l/min; the
    # issue's 172 l/min (at rho = 1) within 1 %
    assert water_l_min(120, FacilitySettings()) == pytest.approx(172, rel=0.01)
    # a 25 % propylene glycol mix (c_p 3.9, rho 1.02) needs more: 120 / (3.9 x 1.02 x 10) x 60 = 181.0
    glycol = FacilitySettings(coolant_cp_kj_kg_k=3.9, coolant_density_kg_l=1.02)
    assert water_l_min(120, glycol) == pytest.approx(181.0, abs=0.05)


def test_liquid_rack_heat_splits_and_the_air_remainder_counts():
    # 4 cold-plate HGX H100 (40.8 kW nameplate) in a liquid rack at the default 0.8 capture:
    # 32.64 kW to liquid, 8.16 kW to air; water 32.64 / (4.18 x 0.995 x 10) x 60 = 47.09 l/min
    report, r = rack_report(FOUR_HGX)
    assert (r.heat_liquid_kw, r.heat_air_kw) == (pytest.approx(32.64), pytest.approx(8.16))
    assert r.water_l_min == pytest.approx(47.09, abs=0.01)
    assert "rack.cooling.air_remainder" not in codes(report)  # 4 x 7 x 0.2 = 5.6 kW typical to air
    # the air remainder counts against the air limit: at 0.5 capture the typical basis puts
    # 4 x 7 x 0.5 = 14 kW into the air; with a 10 kW limit that is a warning
    report, _ = rack_report(FOUR_HGX, facility={"liquid_capture": 0.5, "air_cooling_limit_kw": 10})
    assert "rack.cooling.air_remainder" in codes(report)
    # air-cooled DGX H100 in the same liquid rack have no cold plates: all 40.8 kW into the air,
    # no water; 4 x 7 = 28 kW typical is above the 25 kW air limit
    report, r = rack_report()
    assert (r.heat_liquid_kw, r.heat_air_kw, r.water_l_min) == (0, pytest.approx(40.8), 0)
    assert "rack.cooling.air_remainder" in codes(report) and report.totals.cdus == 0
    # an air rack puts everything into the air; a rear door moves up to its capacity to water
    air = Rack(id="R1", name="R1", power_cap_kw=45, cooling="air")
    _, r = rack_report(rack=air)
    assert (r.heat_liquid_kw, r.heat_air_kw, r.water_l_min) == (0, pytest.approx(40.8), 0)
    door = Rack(id="R1", name="R1", power_cap_kw=45, cooling="air", rear_door_hx=True)
    report, r = rack_report(rack=door, facility={"rear_door_kw": 30})
    assert (r.heat_liquid_kw, r.heat_air_kw) == (pytest.approx(30), pytest.approx(10.8))
    # typical 28 kW - 28 kW through the door = 0 kW into the room: no air-limit warning
    assert "rack.cooling.air_limit" not in codes(report)


def test_cdus_sized_on_design_heat_with_a_spare():
    # 32.64 kW design heat to liquid -> one 250 kW CDU; N+1 -> 2; N -> 1; 2N -> 2;
    # the guide's rule: 4 nodes / 8 per CDU -> 1
    for redundancy, cdus in (("N+1", 2), ("N", 1), ("2N", 2)):
        report, _ = rack_report(FOUR_HGX, facility={"cdu_redundancy": redundancy})
        assert report.totals.cdus == cdus, redundancy
    report, _ = rack_report(FOUR_HGX, facility={"cdu_policy": "per_nodes"})
    assert report.totals.cdus == 1


# -- 3. floor ------------------------------------------------------------------------

def test_a_1360_kg_rack_overloads_a_1200_kg_floor():
    # 1,360 kg on 0.6 x 1.2 = 0.72 m2 -> 1,888.9 kg/m2 > 1,200: an error. Equipment
    # 4 x 130.45 = 521.8 kg + an enclosure of 838.2 kg = 1,360 kg.
    report, r = rack_report(floor={"enclosure_kg": 838.2, "floor_rating_kg_m2": 1200})
    assert r.total_weight_kg == pytest.approx(1360)
    assert r.floor_load_kg_m2 == pytest.approx(1888.9, abs=0.05)
    over = [f for f in report.findings if f.code == "rack.floor.over_rating"]
    assert len(over) == 1 and over[0].severity == "error" and "1,889 kg/m²" in over[0].message
    # counting 1,050 mm of aisle with the rack: 1,360 / (0.6 x 2.25) = 1,007.4 kg/m2: fine
    report, r = rack_report(floor={"enclosure_kg": 838.2, "floor_rating_kg_m2": 1200, "aisle_share_mm": 1050})
    assert r.floor_load_kg_m2 == pytest.approx(1007.4, abs=0.05)
    assert "rack.floor.over_rating" not in codes(report)
    assert report.to_json()["racks"][0]["floor_load_kg_m2"] == pytest.approx(1007.4)

"""Design from intent: the plan the design function makes, checked against figures worked
out by hand from the catalog's datasheet figures.

DGX B200 (dgx-b200, NVIDIA DGX B200 user guide): 8 x B200, 10U, 142.4 kg, 14.3 kW
nameplate, 10 kW typical, air-cooled, 8 x 400G compute NICs + 2 x 400G storage NICs.
Quantum-2 QM9700: 64 x NDR 400G. Fat tree (Al-Fares et al., SIGCOMM 2008): two
non-blocking tiers of radix-k switches hold k^2/2 endpoints; leaves = ceil(N / (k/2)),
spines = ceil(leaf uplinks / k). Air-cooling limit 25 kW; rear-door heat exchanger 50 kW;
250 kW CDUs by capacity, N+1.

Why it is long: each of the design's sizing rules (nodes, fabric, spares, racks under their
caps, cooling, storage, the refusals) is checked here on the plan the same call makes, each
with its figures worked by hand from the datasheets above.
"""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from planner.design.build import DesignError, design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from tests.planner.spares_by_hand import spares_for

CAT = default_catalog()


@pytest.fixture(scope="module")
def b200():
    intent = Intent(system="dgx-b200", gpus=1024, rack_kw=40, fabric="ib400", model="llama3-70b")
    result = design(intent, CAT)
    return result, evaluate(result.plan, CAT)


def test_1024_b200_in_40_kw_racks_on_ndr400(b200):
    result, report = b200
    plan = result.plan
    # 1,024 / 8 = 128 DGX B200, no rounding.
    assert not [f for f in result.findings if f.code == "design.gpus.rounded"]
    # Hot spares (Llama 3 rates, section 3.3.4): 268 GPU interruptions / (16,384 x 54) GPU-days =
    # 0.3029 and 53 host interruptions / (2,048 x 54) node-days = 0.4792 per 1,000; 128 nodes x
    # (8 x 0.3029 + 0.4792) / 1,000 per day x 3 repair days = 1.11 nodes in repair at once; a
    # failure finds fewer than 5 in repair with 99.4 % (Poisson; fewer than 4: 97.3 %) -> 5
    # spares. The job's 128 nodes fill 4 scalable units of 32 (below): no free port, so all
    # are stocked, not placed, and no fifth unit of fabric is opened for them.
    assert (report.totals.gpus, report.totals.nodes) == (1024, 128)
    goodput = report.sections["goodput"]
    assert (goodput["job_gpus"], goodput["spare_nodes"], goodput["spares_stocked"]) == (1024, 0, 5)
    assert goodput["node_failures_per_repair"] == pytest.approx(1.115, abs=0.001)
    assert spares_for(goodput["node_failures_per_repair"]) == 5
    note = next(f for f in result.findings if f.code == "design.spares")
    assert note.severity == "info" and "5 stocked" in note.message and "99% of failures" in note.message
    # the five stocked spares are a line of the bill at the DGX B200's price
    line = next(x for x in report.sections["cost"]["bom"] if x["item"] == "Spare nodes (stocked, not placed)")
    assert (line["quantity"], line["unit_usd"]) == (5, CAT["dgx-b200"].price_usd)
    assert report.sections["cost"]["spares_usd"] == {"hot": 0.0, "stocked": 5 * CAT["dgx-b200"].price_usd}
    # 40 kW cap on typical draw: 40 / 10 = 4 nodes a rack (4 x 10U = 40U of 42; 4 x 142.4 kg);
    # 128 / 4 = 32 GPU racks at 40.0 kW.
    gpu_racks = [r for r in report.racks if r.nodes]
    assert sorted((r.nodes, r.power_kw) for r in gpu_racks) == [(4, pytest.approx(40.0))] * 32
    # 40 kW is above the 25 kW air limit for an air-cooled system: rear doors on the GPU racks.
    assert all(plan.rack(r.id).rear_door_hx and plan.rack(r.id).cooling == "air" for r in gpu_racks)
    # Fabric, rail-optimised: scalable units of 32 nodes (k/2 of 64 ports), 128 / 32 = 4 units
    # x 8 rails = 32 leaves of 32 uplinks, two to each of 16 spines (16 x 2 = 32 uplinks, 32
    # leaves x 2 = 64 spine ports): 48 QM9700, 48 x 64 = 3,072 ports, every NIC on one.
    net = report.network
    assert (net.tiers, net.leaf_switches, net.spine_switches) == (2, 32, 16)
    assert Counter(p.device for p in plan.placements)["qm9700"] == 48
    assert net.switch_ports_placed >= net.switch_ports_needed == 3072
    # CDUs: each full rack puts 57.2 kW nameplate into the air, the door takes 50 kW to water:
    # 32 x 50 = 1,600 kW / 250 = 6.4 -> 7, + 1 = 8.
    assert (report.totals.cdus, report.totals.cdus_placed) == (8, 8)
    # No errors; the one warning is the typical-basis layout's nameplate over the cap.
    assert not [f for f in report.findings if f.severity == "error"]
    assert {f.code for f in report.findings if f.severity == "warning"} <= {"rack.power.nameplate_over_cap"}
    # The parallelism uses every GPU of the job (not the spares) and the job fits.
    w = plan.settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 1024
    assert report.workload.fits is True


def test_the_reference_architectures_127_dgx_h100_keep_its_fabric_with_their_spares():
    # DGX SuperPOD H100 RA, 4 scalable units: 127 DGX H100. Spares: 127 x (8 x 0.3029 + 0.4792)
    # / 1,000 per day x 3 repair days = 127 x 2.9024 / 1,000 x 3 = 1.106 nodes in repair; fewer
    # than 5 are in repair at a failure with 99.4 % (Poisson; fewer than 4: 97.4 %) -> 5.
    # Fabric: QM9700, 64 ports, non-blocking leaves of 32 ports down and 32 up; rail-optimised,
    # a scalable unit is 32 nodes x 8 rails, one leaf a rail. ceil(127 / 32) = 4 units = 32
    # leaves and 4 x 32 = 128 node slots: one free (each of unit 4's rail leaves has 31 nodes on
    # 32 down-ports, its 32 uplinks cabled as a full unit's). 32 leaves x 32 uplinks = 1,024 =
    # 16 spines x 64 ports, two links from each leaf to each spine. A 129th node would open a
    # fifth unit (8 more leaves, 40 x 32 uplinks over more spines). So one spare is placed on
    # the free ports, the other four stocked.
    result = design(Intent(system="dgx-h100", nodes=127), CAT)
    report = evaluate(result.plan, CAT)
    net = report.network
    assert (net.tiers, net.leaf_switches, net.spine_switches) == (2, 32, 16)
    assert Counter(p.device for p in result.plan.placements)["qm9700"] == 48
    assert report.totals.nodes == 128
    goodput = report.sections["goodput"]
    assert goodput["node_failures_per_repair"] == pytest.approx(1.106, abs=0.001)
    assert (goodput["job_nodes"], goodput["job_gpus"]) == (127, 1016)
    assert (goodput["spare_unit"], goodput["spare_nodes"], goodput["spares_stocked"]) == ("node", 1, 4)
    assert "goodput.spares.short" not in {f.code for f in report.findings}
    note = next(f for f in result.findings if f.code == "design.spares")
    assert "1 more DGX H100 placed as hot spare" in note.message and "4 stocked" in note.message
    price = CAT["dgx-h100"].price_usd
    assert report.sections["cost"]["spares_usd"] == {"hot": price, "stocked": 4 * price}
    line = next(x for x in report.sections["cost"]["bom"] if x["item"] == "Spare nodes (stocked, not placed)")
    assert (line["quantity"], line["total_usd"]) == (4, 4 * price)


def test_spares_that_would_take_the_fabric_to_a_third_tier_stay_in_stock():
    # 1,024 MI300X platforms on Spectrum-X at 400G: SN5600s split to 128 x 400G ports. Two
    # non-blocking tiers hold 128^2 / 2 = 8,192 ports, the job's 1,024 x 8 NICs exactly:
    # 16 units of 64 nodes x 8 rails = 128 leaves, 128 x 64 uplinks / 128 ports = 64 spines.
    # Spares: 1,024 x 2.9024 / 1,000 x 3 days = 8.9 in repair, fewer than 18 at a failure with
    # 99.5 % (Poisson; fewer than 17: 99.0 %, just short) -> 18; placed, they would need a
    # third tier (a layer of switches and every leaf's uplinks re-cabled) for 18 nodes: they
    # are stocked. Each GPU or host failure then waits 30 min (the pool's wait, shorter than a
    # stocked spare's 60-min swap), and a cold restart still reaches 90 %.
    result = design(Intent(system="amd-mi300x-8", nodes=1024, fabric="spx400", model="llama3-405b"), CAT)
    report = evaluate(result.plan, CAT)
    net = report.network
    assert (net.tiers, net.leaf_switches, net.spine_switches, net.core_switches) == (2, 128, 64, 0)
    assert Counter(p.device for p in result.plan.placements)["amd-mi300x-8"] == 1024
    rel = result.plan.settings.reliability
    assert (rel.spare_nodes, rel.spares_stocked) == (0, 18)
    codes = {f.code for f in result.findings}
    assert "design.spares.hot" not in codes
    g = report.sections["goodput"]
    assert g.recovery["restart_s"]["wait_for_node"] > 0 and g.ettr >= rel.min_ettr


def test_racks_asked_above_what_their_pdus_carry_are_capped_there_and_warned():
    # Two 415 V 3-phase 60 A PDUs a feed: sqrt(3) x 415 x 60 x 0.8 = 34.5 kW each, 69.0 kW a
    # rack on 2N feeds. An MI355X platform's nameplate is 15 kW: 4 a rack (60 kW; 5 would be
    # 75). Asked for 130 kW racks, the racks still hold 4, and a 130 kW cap would commit
    # 8 x 130 kW that no device draws: capped at 69 kW, said so.
    result = design(Intent(system="amd-mi355x-8", nodes=32, rack_kw=130, fabric="spx400"), CAT)
    plan = result.plan
    gpu_racks = {p.rack for p in plan.placements if p.device == "amd-mi355x-8"}
    assert len(gpu_racks) == 8
    assert {plan.rack(r).power_cap_kw for r in gpu_racks} == {69.0}
    warning = next(f for f in result.findings if f.code == "design.power.pdus")
    assert warning.severity == "warning" and "130 kW" in warning.message and "capped at 69 kW" in warning.message
    assert "power.max_pdus_per_feed" in warning.message
    # with four PDU positions a feed (138 kW) the PDUs no longer bound the racks (the floor
    # does: 7 x 95 kg, an eighth past the weight the floor carries under a rack), and the racks
    # keep the cap asked
    wider = design(Intent(system="amd-mi355x-8", nodes=32, rack_kw=130, fabric="spx400",
                          settings={"power": {"max_pdus_per_feed": 4}}), CAT)
    assert "design.power.pdus" not in {f.code for f in wider.findings}
    per_rack = Counter(p.rack for p in wider.plan.placements if p.device == "amd-mi355x-8")
    assert max(per_rack.values()) == 7 and {wider.plan.rack(r).power_cap_kw for r in per_rack} == {130.0}


def test_the_intent_may_set_the_hot_spares_itself():
    # 2 spares asked on 4 nodes, where the model expects 4 x 2.9e-3 x 3 = 0.03 in repair: kept.
    result = design(Intent(system="dgx-b200", nodes=4, spare_nodes=2), CAT)
    assert sum(1 for p in result.plan.placements if p.device == "dgx-b200") == 6
    assert result.plan.settings.reliability.spare_nodes == 2
    # None asked and fewer than one expected in repair: no spare.
    result = design(Intent(system="dgx-b200", nodes=4), CAT)
    assert result.plan.settings.reliability.spare_nodes == 0
    assert not [f for f in result.findings if f.code == "design.spares"]


def test_gpus_round_up_to_whole_systems_and_the_design_says_so():
    # 1,001 GPUs on 8-GPU nodes: ceil(1001 / 8) = 126 nodes = 1,008 GPUs.
    # (126 x 2.9e-3 x 3 = 1.1 nodes in repair: 2 hot spares beside them.)
    result = design(Intent(system="dgx-b200", gpus=1001), CAT)
    assert sum(1 for p in result.plan.placements if p.device == "dgx-b200") == 126 + 2
    assert result.plan.settings.reliability.spare_nodes == 2
    note = next(f for f in result.findings if f.code == "design.gpus.rounded")
    assert note.severity == "info" and "1,008" in note.message
    # 100 GPUs on GB200 NVL72 racks (72 GPUs each): 2 racks, 144 GPUs.
    result = design(Intent(system="gb200-nvl72", gpus=100), CAT)
    assert sum(1 for p in result.plan.placements if p.device == "gb200-nvl72") == 2


def test_an_air_cooled_system_asked_into_liquid_racks_warns_about_the_cooling():
    result = design(Intent(system="dgx-b200", nodes=4, cooling="liquid"), CAT)
    warning = next(f for f in result.findings if f.severity == "warning")
    assert warning.code == "design.cooling.intent" and warning.message.startswith("cooling:")
    # a DGX B200 has no cold plates: its heat goes into the air whatever the rack, so its racks
    # are air racks within the air limit, and no CDU is bought for heat that never reaches water
    assert "its racks are air-cooled" in warning.message
    assert {r.cooling for r in result.plan.racks if r.name.startswith("GPU")} == {"air"}
    report = evaluate(result.plan, CAT)
    assert report.totals.cdus == 0
    assert not {f.code for f in report.findings} & {"rack.cooling.air_limit", "rack.cooling.air_remainder"}


def test_the_floor_rating_limits_what_a_rack_carries():
    # 600 mm x (1,200 + aisle share) footprint: the heaviest device load a rack may carry is
    # rating x area - enclosure; with a 500 kg/m² floor no rack goes over it.
    result = design(Intent(system="hgx-h100-8", nodes=64, floor_rating_kg_m2=500), CAT)
    report = evaluate(result.plan, CAT)
    assert not [f for f in report.findings if f.code == "rack.floor.over_rating"]
    assert max(r.floor_load_kg_m2 for r in report.racks) <= 500


def test_bad_intents_say_what_is_wrong():
    with pytest.raises(ValidationError, match="give a GPU count"):
        Intent(system="dgx-b200")
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        Intent(system="dgx-b200", gpus=0)
    with pytest.raises(ValidationError, match="Extra inputs"):
        Intent(system="dgx-b200", gpus=8, colour="red")
    with pytest.raises(DesignError, match="^system: the catalog has no GPU system 'dgx-z9'"):
        design(Intent(system="dgx-z9", gpus=8), CAT)
    with pytest.raises(DesignError, match="^system: .*'qm9700'"):
        design(Intent(system="qm9700", gpus=8), CAT)  # a switch is no GPU system


def test_an_intent_round_trips_through_json():
    intent = Intent(system="dgx-b200", gpus=1024, rack_kw=40, fabric="ib400", model="llama3-70b")
    assert Intent.model_validate_json(intent.model_dump_json()) == intent


def test_storage_targets_size_the_appliances():
    # pfs-appliance: 25 GB/s write, 250 TB (datasheet figures of the catalog). 16 H100 nodes
    # x 10 GB/s (the guide's per-node floor) = 160 GB/s -> 7 appliances (175 GB/s).
    def storage(**targets):
        result = design(Intent(system="hgx-h100-8", nodes=16, model="llama3-70b", **targets), CAT)
        return result, evaluate(result.plan, CAT).sections["storage"].to_json()

    _, st = storage()
    assert st["storage_devices"] == 7
    # A 70B checkpoint (70.6e9 parameters x 14 bytes = 988 GB) within 1 s: 988 GB/s / 25 =
    # 39.5 -> 40 appliances (1,000 GB/s; the nodes' 16 x 2 x 400 Gb/s links carry 1,600 GB/s).
    # The 32 + 160 storage ports outgrow one 128-port switch: at the default 3:1 the nodes
    # writing at once would get 1,600 / 3 = 533 GB/s, so the design makes the storage network
    # non-blocking
    result, st = storage(checkpoint_write_s=1)
    assert st["storage_devices"] == 40 and st["checkpoint_write_s"] <= 1
    assert result.plan.settings.fabric.storage_oversubscription == 1 and st["storage_oversubscription"] == 1
    assert "design.storage.non_blocking" in {f.code for f in result.findings}
    # the 16 nodes' 10 GB/s each: 160 GB/s, well within 533, keeps 3:1
    result, _ = storage()
    assert result.plan.settings.fabric.storage_oversubscription == 3
    # 5,000 TB asked: 5,000 / 250 = 20 appliances.
    _, st = storage(storage_capacity_tb=5000)
    assert st["storage_devices"] == 20 and st["capacity_tb"] == 5000
    # Within 0.5 s would need 1,976 GB/s, more than the links' 1,600: the design says so and
    # places what the links can fill (1,600 / 25 = 64).
    result, st = storage(checkpoint_write_s=0.5)
    warning = next(f for f in result.findings if f.code == "design.storage.write_time")
    assert warning.severity == "warning" and warning.message.startswith("checkpoint_write_s:")
    assert st["storage_devices"] == 64


def test_an_inference_target_sizes_the_gpus():
    # The intent's serving figures reach the workload settings; with no GPU count the
    # requests per second size it: the inference model's requests/s a replica (one GPU
    # here) gives the GPUs needed, in whole 2-GPU nodes.
    intent = Intent(system="h100x2-inference", inference=True, requests_per_s=50, model="llama3-8b",
                    prompt_tokens=2048, output_tokens=128, latency_ms_per_token=40)
    result = design(intent, CAT)
    w = result.plan.settings.workload
    assert (w.prompt_tokens, w.output_tokens, w.latency_ms_per_token, w.requests_per_s) == (2048, 128, 40, 50)
    report = evaluate(result.plan, CAT)
    serving = report.sections["workload"].to_json()["inference"]
    per_replica = serving["requests_per_s_per_replica"]
    assert serving["gpus_needed"] == -(-50 // per_replica)  # ceil(50 / requests per replica) replicas of 1 GPU
    assert report.totals.gpus == 2 * -(-serving["gpus_needed"] // 2)
    assert any(f.code == "design.inference.sized" for f in result.findings)
    assert not [f for f in report.findings if f.code == "workload.inference.capacity"]


def test_a_rack_scale_systems_spares_are_compute_trays_in_stock():
    # A GPU or host interruption takes one compute tray out, the unit the vendor swaps; host
    # failures count on each of an NVL72's 18 trays: 40 x (72 x 0.3029 + 18 x 0.4792) / 1,000
    # per day x 3 repair days = 40 x 30.434 / 1,000 x 3 = 3.65 trays in repair at once; fewer
    # than 10 at a failure with 99.6 % (Poisson; fewer than 9: 98.7 %) -> 10 spare trays
    # stocked; no rack placed as a spare.
    result = design(Intent(system="gb200-nvl72", nodes=40), CAT)
    assert sum(1 for p in result.plan.placements if p.device == "gb200-nvl72") == 40
    rel = result.plan.settings.reliability
    assert (rel.spare_nodes, rel.spares_stocked) == (0, 10)
    note = next(f for f in result.findings if f.code == "design.spares")
    assert "3.7 of the job's 720 compute trays" in note.message and "10 spare compute trays" in note.message
    report = evaluate(result.plan, CAT)
    goodput = report.sections["goodput"]
    assert (goodput["job_gpus"], goodput["job_hosts"]) == (2880, 720)
    assert goodput["node_failures_per_repair"] == pytest.approx(3.652, abs=0.001)
    assert (goodput["spare_unit"], goodput["spares_stocked"]) == ("compute tray", 10)
    assert "goodput.spares.short" not in {f.code for f in report.findings}
    # priced as the catalog's GB200 compute tray: 10 x its price
    line = next(x for x in report.sections["cost"]["bom"] if x["item"] == "Spare compute trays (stocked, not placed)")
    assert (line["quantity"], line["part"], line["total_usd"]) == (10, CAT["gb200-compute-tray"].model,
                                                         10 * CAT["gb200-compute-tray"].price_usd)


@pytest.mark.parametrize("system,tech,switch", [
    # HGX B300: eight 800 Gb/s ConnectX-8 InfiniBand NICs (NVIDIA HGX B300 datasheet): XDR on Quantum-X800
    ("hgx-b300-8", "ib800", "q3400"),
    # GB300 NVL72: 72 ConnectX-8 at 800 Gb/s, one per GPU (NVIDIA GB300 NVL72 datasheet)
    ("gb300-nvl72", "ib800", "q3400"),
    # MI355X platform: eight 400 Gb/s Ethernet NICs (AMD Pensando Pollara 400): RoCE on a 400GbE switch
    ("amd-mi355x-8", "eth400_roce", "sn5600-400"),
    # DGX A100: eight 200 Gb/s ConnectX-6 HDR NICs (NVIDIA DGX A100 datasheet), 4 x 50G lanes: not the
    # 128-port NDR200 split (2 x 100G lanes) but a QM9700 at HDR, one HDR link a 4-lane port
    ("dgx-a100", "ib200", "qm9700-hdr"),
])
def test_without_a_fabric_in_the_intent_the_fabric_is_the_one_the_nics_speak(system, tech, switch):
    d = design(Intent(system=system, gpus=576), CAT)
    fabric = d.plan.settings.fabric
    assert (fabric.technology, fabric.switch_device) == (tech, switch)
    assert "design.fabric.nics" in {f.code for f in d.findings}
    report = evaluate(d.plan, CAT)
    assert report.counts_by_severity()["error"] == 0
    assert not {f.code for f in report.findings} & {"network.nic.technology", "network.nic.faster_than_switch"}


def test_a_fabric_the_intent_names_is_kept():
    d = design(Intent(system="hgx-b300-8", gpus=64, fabric="ib400"), CAT)
    assert d.plan.settings.fabric.technology == "ib400"
    assert "design.fabric.nics" not in {f.code for f in d.findings}
    # the default matches the nodes' NICs: nothing changes, nothing said
    d = design(Intent(system="hgx-h100-8", gpus=64), CAT)
    assert d.plan.settings.fabric.technology == "ib400" and "design.fabric.nics" not in {f.code for f in d.findings}


def test_a_switch_named_alone_sets_the_fabric_and_says_so_where_the_nics_speak_another():
    # Quantum-X800 Q3400 ports are 800G XDR; a DGX H100's ConnectX-7 run 400G NDR: the fabric
    # is the switch's, said; a QM9700 (NDR) is what the NICs speak anyway: nothing said
    d = design(Intent(system="dgx-h100", gpus=128, switch="q3400"), CAT)
    assert d.plan.settings.fabric.technology == "ib800"
    said = next(f for f in d.findings if f.code == "design.fabric.from_switch")
    assert "XDR" in said.message and "400 Gb/s compute NICs run at their own rate" in said.message
    d = design(Intent(system="dgx-h100", gpus=128, switch="qm9700"), CAT)
    assert "design.fabric.from_switch" not in {f.code for f in d.findings}


def test_more_spares_than_the_job_are_placed_as_asked_and_warned():
    # 8 DGX H100 with 100 spares asked: 108 nodes, 864 GPUs placed, 800 of them spares; a
    # job's share of the spares the design would take is 0 here (the warning says so).
    result = design(Intent(system="dgx-h100", gpus=64, spare_nodes=100), CAT)
    warning = next(f for f in result.findings if f.code == "design.spares.many")
    assert warning.severity == "warning"
    assert "100 hot spares asked for a job of 8 x DGX H100" in warning.message
    assert "(864 GPUs, 800 of them idle spares)" in warning.message
    assert evaluate(result.plan, CAT).totals.gpus == 864
    # as many spares as the job has nodes, or fewer, is the user's call: nothing said
    assert "design.spares.many" not in {f.code for f in design(Intent(system="dgx-h100", gpus=64, spare_nodes=8),
                                                                CAT).findings}


@pytest.mark.parametrize("template", ["inference", "single-node"])
def test_a_template_of_air_cooled_nodes_given_a_liquid_cooled_system_gets_its_cdus(template):
    """The inference and single-node templates hold air-cooled nodes; with a direct-liquid-
    cooled HGX H100 (8 x 700 W to cold plates) the design places the CDUs its heat needs."""
    from planner.design.templates import design_template

    plan = design_template(template, system="hgx-h100-8").plan
    report = evaluate(plan, default_catalog())
    assert not [f for f in report.findings if f.code == "cooling.cdu.short"]
    assert report.totals.cdus >= 1 and report.totals.cdus_placed == report.totals.cdus


def test_hot_spares_asked_beyond_the_free_ports_say_what_fabric_they_add():
    # 2,048 DGX H100 GPUs = 256 nodes x 8 rails on 64-port QM9700: 8 units of 32 nodes, 64 leaves
    # of 32 down and 32 up, 64 x 32 / 64 = 32 spines: two tiers full (64^2 / 2 = 2,048 ports). A
    # hot spare asked for has no free port: its 8 NICs take the fabric to three tiers. Asked, it
    # is placed (the intent's count is kept) and the design warns with the switches it adds.
    result = design(Intent(system="dgx-h100", gpus=2048, fabric="ib400", spare_nodes=1), CAT)
    warning = next(f for f in result.findings if f.code == "design.spares.fabric")
    assert warning.severity == "warning"
    assert "(64 leaves, 32 spines) grows to three tiers" in warning.message
    assert "it has no free port for a spare" in warning.message and "--spares 0" in warning.message
    net = evaluate(result.plan, CAT).network
    grown = net.leaf_switches + net.spine_switches + net.core_switches
    assert net.tiers == 3 and f"{grown - 96} switches more" in warning.message
    # the reference architecture's 127 nodes: one free node slot (see above), two spares asked
    two = design(Intent(system="dgx-h100", nodes=127, fabric="ib400", spare_nodes=2), CAT)
    warning = next(f for f in two.findings if f.code == "design.spares.fabric")
    assert "(32 leaves, 16 spines) grows to 40 leaves" in warning.message
    assert "its free ports hold 1 spare" in warning.message
    one = design(Intent(system="dgx-h100", nodes=127, fabric="ib400", spare_nodes=1), CAT)
    assert "design.spares.fabric" not in {f.code for f in one.findings}


def test_air_asked_for_a_liquid_cooled_server_gives_liquid_racks_and_says_so():
    # the MI355X platform is direct liquid cooled (cold plates): air racks cannot take it, as a
    # GB200 NVL72's own rack cannot be air. Its racks are liquid, with the design's warning,
    # not a refusal naming a rack the user has not seen.
    result = design(Intent(system="amd-mi355x-8", gpus=64, cooling="air"), CAT)
    gpu_racks = {p.rack for p in result.plan.placements if p.device == "amd-mi355x-8"}
    assert {result.plan.rack(r).cooling for r in gpu_racks} == {"liquid"}
    assert "design.cooling.intent" in {f.code for f in result.findings}


def test_a_floor_rating_no_aisle_can_spread_a_system_over_is_refused():
    # a DGX H100 with its enclosure weighs 130.45 + 160 = 290.45 kg: on 600 mm of width, a floor
    # of 1 kg/m2 carries it over 290.45 / (1 x 0.6) = 484.08 m of depth; less the rack's 1.2 m,
    # 482.88 m, in whole 50 mm 482.9 m, far past the 5 m an aisle share may be: refused with the
    # floor's usual rating, not a plan spreading each rack's load over half a kilometre
    from planner.design.intent import DesignError

    with pytest.raises(DesignError, match=r"floor_rating_kg_m2: one DGX H100 weighs 290 kg: .* over 482.9 m of aisle, more than the 5 m"):
        design(Intent(system="dgx-h100", gpus=64, floor_rating_kg_m2=1), CAT)


def test_an_aisle_share_that_was_set_is_widened_only_with_a_warning():
    # GB300 NVL72 rack: 1,360 kg (its rack included) on 600 x 1,200 mm is 1,360 / 0.72 = 1,889
    # kg/m2, over a 1,000 kg/m2 floor. Left to the design, the racks stand further apart: 1,360 /
    # (1,000 x 0.6) = 2.267 m of depth, so 1,067 mm of aisle, 1,100 in whole 50 mm: a note. Set to
    # 0 (every rack's load on its footprint), it is widened the same, with a warning naming the
    # 0 mm set (it was widened with only a note that the plan holds another value); a share that
    # carries the racks is kept.
    spread = design(Intent(system="gb300-nvl72", nodes=2, floor_rating_kg_m2=1000), CAT)
    assert spread.plan.settings.floor.aisle_share_mm == 1100
    note = next(f for f in spread.findings if f.code == "design.floor.spread")
    assert note.severity == "info" and "raised" not in note.message
    asked = design(Intent(system="gb300-nvl72", nodes=2, floor_rating_kg_m2=1000,
                          settings={"floor": {"aisle_share_mm": 0}}), CAT)
    assert asked.plan.settings.floor.aisle_share_mm == 1100
    warned = next(f for f in asked.findings if f.code == "design.floor.spread")
    assert warned.severity == "warning" and "1,100 mm aisle share, raised from the 0 mm set" in warned.message
    kept = design(Intent(system="gb300-nvl72", nodes=2, floor_rating_kg_m2=1000,
                         settings={"floor": {"aisle_share_mm": 1200}}), CAT)
    assert kept.plan.settings.floor.aisle_share_mm == 1200
    assert "design.floor.spread" not in {f.code for f in kept.findings}


def test_the_designs_own_hot_spares_carry_no_warning_to_change_a_count_never_given():
    # massive at 2,048 nodes: the design places its 18 spares hot (see the templates' test), and
    # says why; no warning asks the user to change a --spares they did not give
    from planner.design.templates import design_template

    result = design_template("massive", nodes=2048, catalog=CAT)
    codes = {f.code for f in result.findings}
    assert "design.spares.hot" in codes and "design.spares.fabric" not in codes


def test_a_spare_on_a_full_one_switch_fabric_says_it_takes_two_tiers():
    # 16 MI355X platforms x 8 NICs = 128 ports: one 128-port SN5600 (split to 400G); a spare's 8
    # more take it to two tiers
    result = design(Intent(system="amd-mi355x-8", gpus=128, spare_nodes=1), CAT)
    warning = next(f for f in result.findings if f.code == "design.spares.fabric")
    assert "need (one switch) grows to two tiers" in warning.message and "keep it in stock" in warning.message


def test_the_designs_storage_links_are_the_checks_each_nic_at_its_ports_rate():
    # 16 DGX H100, two 400G storage NICs each, on a 100GbE storage switch (SN4600C): each NIC
    # runs at 100 Gb/s, 2 x 100 / 8 = 25 GB/s a node, 400 GB/s for 16 (the check's figure;
    # at the NICs' own rate it would be 1,600). Llama 3 70B's checkpoint (70.6B x 14 B =
    # 988 GB) in 1 s needs 988 GB/s: more than the links carry, said with their 400.
    result = design(Intent(system="dgx-h100", gpus=128, model="llama3-70b", checkpoint_write_s=1,
                           settings={"fabric": {"storage_switch_device": "sn4600c"}}), CAT)
    said = next(f for f in result.findings if f.code == "design.storage.write_time")
    assert "the 16 nodes' storage links carry 400 GB/s" in said.message
    report = evaluate(result.plan, CAT)
    assert report.sections["storage"].node_storage_gbs == pytest.approx(25.0)


def test_a_plan_too_big_because_of_its_spares_or_its_requests_names_them():
    # 16 HGX H100 nodes with 100,000 hot spares: 29,209 racks, past the 25,000 a plan may hold;
    # the spares made it so, not the rack cap. A billion requests a second of Llama 3 70B on
    # GB200 NVL72 would take millions of systems: the requests are named, not the racks.
    from planner.design.intent import DesignError

    with pytest.raises(DesignError, match=r"^spare_nodes: .*100,000 hot spares beside the job's 16 nodes"):
        design(Intent(system="hgx-h100-8", nodes=16, spare_nodes=100_000), CAT)
    with pytest.raises(DesignError, match=r"^requests_per_s: 1,000,000,000 requests a second take [\d,]+ nodes"):
        design(Intent(system="gb200-nvl72", inference=True, requests_per_s=1e9), CAT)


def test_saving_to_a_folder_names_it():
    from planner.save_target import SaveError, check_target

    with pytest.raises(SaveError, match=r"cannot save to \.: it is a folder; give a file name"):
        check_target(".")

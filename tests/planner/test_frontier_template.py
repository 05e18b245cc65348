"""The frontier-100k template: 100,000 GPUs that really fit a three-tier fabric, with no
error findings. (How long it takes to lay out is measured by benchmarks/frontier_core.py.)"""

import pytest

from planner.cli import main
from planner.errors import PlannerError
from planner.report.evaluate import evaluate
from planner.design.templates import build_template, design_template
from tests.planner.spares_by_hand import spares_for


@pytest.fixture(scope="module")
def frontier(catalog):
    plan = build_template("frontier-100k", catalog=catalog)
    return plan, evaluate(plan, catalog)


def test_frontier_counts(frontier, catalog):
    plan, report = frontier
    t = report.totals
    # The job: 12,500 nodes x 8 GPUs = 100,000. Spares for the nodes in repair at once (Llama 3
    # rates: 8 x 0.3029 + 0.4792 = 2.9024 interruptions per 1,000 node-days that take a node
    # out; x 12,500 nodes x 3 repair days / 1,000 = 108.8 on average, Poisson): fewer than 135
    # are in repair at a failure with 99.15 % (fewer than 134: 98.92 %): 135 spares. The fabric
    # the job needs (below: units of 144 nodes) has ceil(12,500 / 144) = 87 units, 12,528
    # slots: 28 would fit its free ports, the rest stocked; stocked, each GPU or host failure
    # would wait for a node (the 28 hot ones are all in use at nearly every failure), and the
    # design places all 135 hot (the fabric grows by a unit, not a tier): 12,635 placed.
    goodput = report.sections["goodput"]
    assert goodput["node_failures_per_repair"] == pytest.approx(108.84, abs=0.01)
    assert spares_for(108.84) == 135
    assert (goodput["job_nodes"], goodput["job_gpus"], goodput["spare_nodes"]) == (12_500, 100_000, 135)
    assert goodput["spares_stocked"] == 0
    assert (t.nodes, t.gpus) == (12_635, 101_080)
    # 12,635 direct-liquid-cooled nodes of 4U in 42U racks capped at 69 kW on the nameplate
    # basis: 6 per rack (6 x 10.2 = 61.2 kW; 7 would be 71.4 kW; 24U of 42U) -> ceil(12,635 / 6)
    # = 2,106 GPU racks
    assert report.power_basis == "nameplate"
    assert t.gpu_racks == 2_106
    counts = {}
    for p in plan.placements:
        counts[p.device] = counts.get(p.device, 0) + 1
    # Storage: the guide's 1.2 PB per 384 GPUs x 100,000 / 384 = 312.5 PB = 1,250 x 250 TB
    assert counts["pfs-appliance"] == 1_250
    assert report.sections["storage"]["capacity_tb"] == 312_500
    # CDUs by capacity on the design heat to liquid, N+1: 12,635 x 10.2 kW x 0.8 = 103,101.6 kW
    # / 250 kW = 412.4 -> 413, + 1 spare = 414
    assert t.cdus == t.cdus_placed == 414
    # Storage network: 12,635 nodes x 2 storage NICs + 1,250 appliances x 4 = 30,270 ports on
    # 128-port SN5600s in 400GbE mode, a leaf-spine at 3:1: leaves of 96 ports down and 32 up,
    # ceil(30,270 / 96) = 316, more than a spine's 128 ports reach, so pods of 64 leaves (4 and
    # one of 60), each leaf's 32 uplinks to its pod's 32 spines: 5 x 32 = 160; 316 x 32 =
    # 10,112 spine uplinks over 128-port cores: 79. 316 + 160 + 79 = 555 switches
    assert counts["sn5600-400"] == 555
    # Checkpoints to peers' memory each step at most: the interval is not shorter than a step
    # (it read 0.053 min = 3.18 s against a 3.20 s step when minutes were kept to 3 decimals)
    recovery = goodput["recovery"]
    assert goodput["checkpoint_interval_min"] * 60 >= recovery["step_s"] - 1e-3


def test_frontier_fabric_is_three_tiers_of_q3400_split_to_400g(frontier):
    plan, report = frontier
    net = report.sections["network"]
    # Q3400: 144 x 800G ports, each split to 2 x 400G for the nodes' 400G NICs: k = 288.
    # Non-blocking leaves take k/2 = 144 nodes (one rail each):
    # The job's 12,500 nodes and 135 hot spares, 12,635:
    #   scalable units = ceil(12,635 / 144) = 88 (87 full, the last with 107 nodes)
    #   leaves = 88 x 8 rails = 704 > k = 288, so two tiers cannot hold them: three tiers
    #   pods of k/2 = 144 leaves: ceil(704 / 144) = 5 pods (<= k: it fits; 64-port
    #   switches would need 98 pods of 32 leaves, more than 64)
    #   spines: pods 1-4 have 144 leaves x 144 uplinks / 144 ports down = 144 each -> 576;
    #   pod 5 has 128 leaves, each needing 144 up; spread evenly (ECMP) over S spines of
    #   144 ports down, m = ceil(144 / S) links from each leaf and 128 x m <= 144 -> m = 1,
    #   S = 144; 4 x 144 + 144 = 720
    #   core: 704 x 144 = 101,376 spine uplinks / 288 = 352
    assert net["tiers"] == 3
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (704, 720, 352)
    # 704 + 720 + 352 = 1,776 switches x 288 ports = 511,488, all placed
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 511_488
    assert sum(1 for p in plan.placements if p.device == "q3400-400") == 1_776


def test_frontier_has_no_error_findings(frontier):
    _, report = frontier
    assert [f.code for f in report.findings if f.severity == "error"] == []


def test_64_port_switches_cannot_hold_100k_gpus_clean_message(catalog):
    # QM9700 (64 ports): k^3/4 = 65,536 endpoints < 100,000. Named by the intent, it stays and
    # the design says why it cannot hold.
    with pytest.raises(PlannerError, match="choose a switch with more ports"):
        build_template("massive", nodes=12_500, catalog=catalog, settings={"fabric": {"switch_device": "qm9700"}})


def test_the_design_takes_a_larger_switch_when_the_default_cannot_hold(catalog):
    # massive names no switch: at 12,500 nodes the design takes the next NDR switch of the
    # catalog, Q3400 split to 288 x 400G (k^3/4 = 5,971,968 endpoints), and says so.
    result = design_template("massive", nodes=12_500, catalog=catalog)
    assert result.plan.settings.fabric.switch_device == "q3400-400"
    assert any(f.code == "design.fabric.switch" for f in result.findings)


def test_resized_template_is_named_by_its_node_count(catalog, tmp_path, capsys):
    plan = build_template("massive", nodes=4000, catalog=catalog)
    assert plan.name.startswith("4,000-node cluster (32,000 x H100")  # 4,000 x 8 GPUs
    assert "48-node" not in plan.name
    assert build_template("massive", catalog=catalog).name.startswith("48-node cluster")
    assert main(["new", "--template", "massive", "--nodes", "4000", "-o", str(tmp_path / "p.json")]) == 0
    assert "4,000-node cluster" in capsys.readouterr().out

"""The frontier-100k template: 100,000 GPUs that really fit a three-tier fabric, with no
error findings, laid out quickly."""

import time

import pytest

from planner.cli import main
from planner.errors import PlannerError
from planner.report.evaluate import evaluate
from planner.plan.templates import build_template


@pytest.fixture(scope="module")
def frontier(catalog):
    t0 = time.perf_counter()
    plan = build_template("frontier-100k", catalog=catalog)
    seconds = time.perf_counter() - t0
    return plan, evaluate(plan, catalog), seconds


def test_frontier_counts(frontier, catalog):
    plan, report, _ = frontier
    t = report.totals
    assert t.nodes == 12_500
    assert t.gpus == 100_000  # 12,500 nodes x 8 GPUs
    # 12,500 nodes of 8U in 42U racks: 5 per rack by space (40U; 5 x 10.2 kW = 51 kW nameplate
    # is under the 69 kW cap) -> 12,500 / 5 = 2,500 GPU racks
    assert t.gpu_racks == 2_500
    counts = {}
    for p in plan.placements:
        counts[p.device] = counts.get(p.device, 0) + 1
    # Storage: the guide's 1.2 PB per 384 GPUs x 100,000 / 384 = 312.5 PB = 1,250 x 250 TB
    assert counts["pfs-appliance"] == 1_250
    assert report.sections["storage"]["capacity_tb"] == 312_500
    # CDUs by capacity on design heat to liquid, N+1: nodes 12,500 x 10.2 kW x 0.8 = 102,000 kW
    # + liquid-cooled Q3400 switches 3,476 x 6 kW x 0.8 = 16,684.8 kW -> 118,684.8 / 250 = 474.7
    # -> 475 + 1 spare = 476
    assert t.cdus == t.cdus_placed == 476
    # Storage network: 12,500 nodes x 2 storage NICs + 1,250 appliances x 4 = 30,000 ports,
    # / 128 ports per SN5600 in 400GbE mode = 234.4 -> 235 switches
    assert counts["sn5600-400"] == 235


def test_frontier_fabric_is_three_tiers_of_q3400(frontier):
    plan, report, _ = frontier
    net = report.sections["network"]
    # k = 144 ports; non-blocking leaves take k/2 = 72 nodes (one rail each):
    #   scalable units = ceil(12,500 / 72) = 174 (173 full, the last with 44 nodes)
    #   leaves = 174 x 8 rails = 1,392 > k = 144, so two tiers cannot hold them: three tiers
    #   pods of k/2 = 72 leaves: ceil(1,392 / 72) = 20 pods (<= k = 144: it fits; 64-port
    #   switches would need 98 pods of 32 leaves, more than 64)
    #   spines: pods 1-19 have 72 leaves x 72 uplinks / 72 ports down = 72 each -> 1,368;
    #   pod 20 has 24 leaves: 16 x 72 + 8 x 44 = 1,504 uplinks / 72 = 20.9 -> 21; total 1,389
    #   core: 100,000 spine uplinks / 144 = 694.4 -> 695
    assert net["tiers"] == 3
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (1_392, 1_389, 695)
    # 1,392 + 1,389 + 695 = 3,476 switches x 144 ports = 500,544, all placed
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 500_544
    assert sum(1 for p in plan.placements if p.device == "q3400") == 3_476


def test_frontier_has_no_error_findings(frontier):
    _, report, _ = frontier
    assert [f.code for f in report.findings if f.severity == "error"] == []


def test_frontier_is_generated_in_under_5_s(frontier):
    assert frontier[2] < 5.0


def test_64_port_switches_cannot_hold_100k_gpus_clean_message(catalog):
    # massive uses QM9700 (64 ports): k^3/4 = 65,536 endpoints < 100,000
    with pytest.raises(PlannerError, match="choose a switch with more ports"):
        build_template("massive", nodes=12_500, catalog=catalog)


def test_resized_template_is_named_by_its_node_count(catalog, tmp_path, capsys):
    plan = build_template("massive", nodes=4000, catalog=catalog)
    assert plan.name.startswith("4,000-node cluster (32,000 x H100")  # 4,000 x 8 GPUs
    assert "48-node" not in plan.name
    assert build_template("massive", catalog=catalog).name.startswith("48-node cluster")
    assert main(["new", "--template", "massive", "--nodes", "4000", "-o", str(tmp_path / "p.json")]) == 0
    assert "4,000-node cluster" in capsys.readouterr().out

"""A plan too large to route every run still buys its storage and management networks: a
storage cable for each storage port and a management cord for each powered device, as the
routed cable schedule wires them, with a multimode module at each storage end."""

from __future__ import annotations

from collections import Counter

import pytest

import planner.costs.section as cost_section
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()


def network_bill(plan, monkeypatch, limit: int) -> tuple[Counter, dict[str, int]]:
    """(storage and management cables, storage modules by line) with routing up to ``limit`` links."""
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", limit)
    report = evaluate(plan, CAT)
    cables: Counter = Counter()
    modules: dict[str, int] = {}
    for line in report.sections["cost"].bom:
        if line.item.startswith(("Storage cable", "Management cable")):
            cables[line.item.split(",")[0]] += line.quantity
        elif line.item.startswith("Storage transceiver"):
            modules[line.item] = line.quantity
    return cables, modules


def test_medium_per_network_worked_by_hand(monkeypatch):
    # medium: 16 HGX H100 with 2 x 400G storage ports each (32 links) and 7 storage
    # appliances with 4 x 200G ports each (28 links): 60 storage cables. Management: a port on
    # each powered device but the management switch: 16 nodes + 10 QM9700 + 7 appliances +
    # 2 CDUs + 1 SN5600 = 36 cords.
    plan = build_template("medium", catalog=CAT)
    cables, modules = network_bill(plan, monkeypatch, 10)
    assert cables == {"Storage cable": 60, "Management cable": 36}
    # modules: 32 single 400G SR4 at the nodes; the SN5600's twin-port cages take the 32 400G
    # links two a module (16); 28 200G modules at the appliances and 28 at the switch's ends
    assert modules == {"Storage transceiver: 400G OSFP SR4 transceiver (single-port)": 32,
                       "Storage transceiver: 800G twin-port OSFP transceiver (2 x 400G SR4)": 16,
                       "Storage transceiver: 200G QSFP56 SR4 transceiver": 56}


@pytest.mark.parametrize("template", ["medium", "massive", "gb200-nvl72-su"])
def test_the_estimate_counts_the_runs_the_routed_schedule_wires(template, monkeypatch):
    plan = build_template(template, catalog=CAT)
    routed, _ = network_bill(plan, monkeypatch, 20_000)
    estimated, _ = network_bill(plan, monkeypatch, 10)
    assert routed and estimated == routed


def test_a_hundred_thousand_gpus_buy_their_storage_and_management_networks():
    # frontier-100k: 12,500 HGX H100 with two storage ports each at least, every device a
    # management port: the bill had no storage or management line at all above the limit
    plan = build_template("frontier-100k", catalog=CAT)
    report = evaluate(plan, CAT)
    bom = {line.item: line.quantity for line in report.sections["cost"].bom}
    assert bom["Storage cable"] >= 2 * 12_500
    assert bom["Management cable"] >= 12_500
    assert any(item.startswith("Storage transceiver") for item in bom)

"""A plan too large to route every run still buys its storage and management networks: a
storage cable for each storage port and a management cord for each powered device, as the
routed cable schedule wires them, each run on the medium and length its hall gives it
(active optical and copper cables need no module, a fibre run one at each end), close to
what the routed schedule buys on plans small enough to route."""

from __future__ import annotations

from collections import Counter

import pytest

import planner.costs.section as cost_section
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()


def network_bill(plan, monkeypatch, limit: int) -> tuple[Counter, Counter]:
    """(storage and management cables by network, their modules by catalog part) with routing
    up to ``limit`` links."""
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", limit)
    report = evaluate(plan, CAT)
    cables: Counter = Counter()
    modules: Counter = Counter()
    for line in report.sections["cost"].bom:
        if line.item.startswith(("Storage cable", "Management cable")):
            cables[line.item.split(",")[0]] += line.quantity
        elif line.item.startswith(("Storage transceiver", "Management transceiver")):
            modules[line.part_id] += line.quantity
    return cables, modules


def test_medium_per_network_worked_by_hand(monkeypatch):
    # medium: 16 HGX H100 with 2 x 400G storage ports each (32 links) and 7 storage
    # appliances with 4 x 200G ports each (28 links): 60 storage cables. Management: a port on
    # each powered device but the management switch: 16 nodes + 10 QM9700 + 7 appliances +
    # 2 CDUs + 1 SN5600 = 36 cords.
    plan = build_template("medium", catalog=CAT)
    cables, modules = network_bill(plan, monkeypatch, 10)
    assert cables == {"Storage cable": 60, "Management cable": 36}
    # a 200G run from another rack of the hall is past passive copper (3 m at 200G) and up to
    # 30 m: an active optical cable (NVIDIA LinkX MFS1S50, 3-30 m), which needs no module, so
    # no 200G module is bought (the routed schedule buys none either, where the per-port
    # count bought 56); a 400G run past active copper (5 m) is fibre with a module at each end:
    # a single-port SR4 at the node, the SN5600's twin-port cages one for two runs
    assert not any("200g" in part for part in modules)
    single, twin = modules["xcvr-400g-osfp-sr4"], modules["xcvr-2x400g-osfp-sr8"]
    assert single <= 32 and twin == -(-single // 2)


# The tolerance, per catalog transceiver: the estimate stacks each hall's devices as its
# fabric nodes and switches stand and samples its racks in rows from the switches' rack,
# where the routed schedule wires each device in order to a switch of its hall; a run near
# a medium or stock-length boundary (5 m active copper, 7 m multimode) lands on the other
# side. Measured: medium 31 and 16 estimated against 28 and 14 routed (+11 %, +14 %),
# massive 94 / 48 against 96 / 48, gb200-nvl72-su 220 / 110 against 288 / 144 (-24 %): its five
# storage switches, a leaf-spine, stand in a rack of their own after the fabric's, farther from
# the trays than the fabric switches' rack the estimate measures from (their 128 switch-to-switch
# runs stay in that rack, on copper, in both).
@pytest.mark.parametrize("template,tolerance", [("medium", 0.15), ("massive", 0.05), ("gb200-nvl72-su", 0.25)])
def test_the_estimate_buys_the_modules_the_routed_schedule_buys(template, tolerance, monkeypatch):
    plan = build_template(template, catalog=CAT)
    routed_cables, routed = network_bill(plan, monkeypatch, 20_000)
    estimated_cables, estimated = network_bill(plan, monkeypatch, 10)
    assert routed_cables and estimated_cables == routed_cables  # a cable a port, as wired
    assert set(estimated) == set(routed)  # the same parts
    for part, n in routed.items():
        assert estimated[part] == pytest.approx(n, rel=tolerance), part


def test_a_hundred_thousand_gpus_buy_their_storage_and_management_networks():
    # frontier-100k: 12,500 HGX H100 with two storage ports each at least, every device a
    # management port: the bill had no storage or management line at all above the limit
    plan = build_template("frontier-100k", catalog=CAT)
    report = evaluate(plan, CAT)
    bom: Counter = Counter()
    for line in report.sections["cost"].bom:
        bom[line.item.split(",")[0].split(":")[0]] += line.quantity
    assert bom["Storage cable"] >= 2 * 12_500
    assert bom["Management cable"] >= 12_500
    assert bom["Storage transceiver"] > 0


def test_a_device_declaring_its_storage_ports_in_two_blocks_buys_the_same_modules():
    # 7 appliances' 4 x 200G storage ports (28 links), all on 50 m multimode: a module at each
    # end, whether the catalog gives the ports as one block of 4 or as blocks of 1 and 3 (each
    # block's share was dealt to the type once but bought once a block: 72 modules, not 56)
    from copy import copy

    from planner.costs.per_tier import network_lines
    from planner.settings.costs import CostSettings

    plan = build_template("medium", catalog=CAT)
    switch = plan.settings.fabric.storage_switch_device
    runs = {("storage", 200.0): Counter({("MMF", 50.0): 28})}

    def modules(catalog) -> Counter:
        lines = network_lines({"pfs-appliance": 7}, catalog, switch, CostSettings(), {}, runs, "")
        return Counter({line.part_id: line.quantity for line in lines if line.part_kind == "transceiver"})

    split = copy(CAT)
    split._devices = dict(CAT._devices)
    block = CAT["pfs-appliance"].nics[0]
    split._devices["pfs-appliance"] = CAT["pfs-appliance"].model_copy(
        update={"nics": (block.model_copy(update={"count": 1}), block.model_copy(update={"count": 3}))})
    whole = modules(CAT)
    assert sum(whole.values()) == 2 * 28  # a 200G module at each end of each run
    assert modules(split) == whole

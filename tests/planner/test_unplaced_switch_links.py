"""Links to a switch not yet placed are priced as the plan's placed links of that kind cost
on average, so adding the switches a fabric lacks raises capex by what they cost. Priced at the
fallback assumptions ($1,000 a transceiver, two a link), 32 DGX B200 and one node more carried
$1.1M of such optics: adding the 12 QM9700 the fabric needed ($516,000) made capex fall."""

from __future__ import annotations

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.plan.commands import AddDevice, CommandError, History
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CAT = default_catalog()


def _one_node_more(history) -> None:
    for rack in history.plan.racks:
        for u in range(1, 40):
            try:
                history.apply(AddDevice("dgx-b200", rack.id, u))
                return
            except CommandError:
                continue
    raise AssertionError("no room for a node")


def test_adding_the_switches_a_fabric_lacks_raises_capex():
    history = History(design(Intent(system="dgx-b200", gpus=256), CAT).plan, CAT)
    _one_node_more(history)
    report = evaluate(history.plan, CAT)
    assert "network.ports.short" in {f.code for f in report.findings}
    bom = report.sections["cost"]["bom"]
    unplaced = [line for line in bom if "(switch not placed)" in line["item"]]
    optics = [line for line in unplaced if line["item"].startswith("Transceiver")]
    assert optics and all("placed" in line["part"] and "runs cost on average" in line["source"] for line in unplaced)
    # half of what a placed link's optics cost: a 400G link ends in half an $1,200 twin-port module
    # at the switch, so no module is priced at the $1,000 fallback, nor above what a link costs
    assert all(300 < line["unit_usd"] < 1_000 for line in optics)
    before = report.sections["cost"]["capex_usd"]
    result = fix_all(history)
    added = [c.label for c in result.applied if "QM9700" in c.label]
    assert added and "Add 12 x" in added[0]
    after = evaluate(history.plan, CAT).sections["cost"]["capex_usd"]
    assert after > before + 12 * 43_000 * 0.5, (before, after)  # the switches' price, less the optics' estimate


def test_the_price_source_counts_each_placed_run_once():
    # massive without the last two of its three storage switches (a leaf and the spine): the
    # first leaf's 96 storage runs stay placed (the storage tier is named as its network:
    # counted once, not twice), the other 80 and the 64 leaf-to-spine uplinks are not
    from planner.design.templates import build_template
    from planner.plan.commands import RemoveDevices

    plan = build_template("massive")
    RemoveDevices([p.id for p in plan.placements if p.device == "sn5600-400"][-2:]).do(plan, CAT)
    bom = evaluate(plan, CAT).sections["cost"]["bom"]
    placed = sum(line["quantity"] for line in bom if line["item"].startswith("Storage cable")
                 and "not placed" not in line["item"])
    unplaced = {line["item"]: line for line in bom if "(switch not placed)" in line["item"]
                and line["item"].startswith("Storage cable")}
    assert placed == 96
    storage = unplaced["Storage cable, storage (switch not placed)"]
    assert storage["quantity"] == 80 and storage["source"].endswith("as the 96 placed storage runs cost on average")
    # no uplink is placed: priced as the storage network's placed runs
    uplinks = unplaced["Storage cable, storage leaf to spine (switch not placed)"]
    assert uplinks["quantity"] == 64
    assert uplinks["source"].endswith("as the 96 placed storage network runs cost on average")

"""A fabric changed in the settings after the switches were placed: the old switches are
flagged as serving no network and fix takes them out, a switch that does not speak the new
fabric is swapped for one that does, and the racks fix opens stand in a row."""

from __future__ import annotations

from collections import Counter

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CAT = default_catalog()


def placed(plan) -> Counter:
    return Counter(p.device for p in plan.placements)


def test_roce_to_infiniband_swaps_the_fabric_switches():
    # 256 H100 designed on 400G RoCE (SN5600 split, 128 ports, also the storage switch), then
    # set to NDR InfiniBand on QM9700 by hand. Fix adds the InfiniBand fabric: 256 NICs on
    # 64-port switches, 32 down and 32 up a leaf: 8 leaves, 8 x 32 / 64 = 4 spines, 12 QM9700;
    # and takes out the SN5600s beyond what the storage network needs.
    plan = design(Intent(system="dgx-h100", gpus=256, fabric="eth400_roce", spare_nodes=0), CAT).plan
    assert placed(plan)["qm9700"] == 0 and placed(plan)["sn5600-400"] > 1
    plan.settings.fabric = plan.settings.fabric.model_copy(update={"technology": "ib400", "switch_device": "qm9700"})
    history = History(plan, CAT)
    fix_all(history)
    report = evaluate(plan, CAT)
    assert placed(plan)["qm9700"] == 12
    assert report.counts_by_severity()["error"] == 0
    assert "network.switch.unused" not in {f.code for f in report.findings}
    assert all(r.row for r in plan.racks)  # the network rack fix opened stands in a row


def test_a_switch_of_the_old_fabric_is_swapped_and_taken_out():
    # 128 H100 on NDR InfiniBand (QM9700) set to 400G RoCE, the switch left as it was: the
    # mismatch's fix is the catalog's 400GbE switch with the most ports, and the QM9700s then
    # serve no network: their fix takes them out.
    plan = design(Intent(system="dgx-h100", gpus=128, spare_nodes=0), CAT).plan
    plan.settings.fabric = plan.settings.fabric.model_copy(update={"technology": "eth400_roce"})
    mismatch = next(f for f in evaluate(plan, CAT).findings if f.code == "network.switch.mismatch")
    assert mismatch.remedy is not None and dict(mismatch.remedy.figures) == {"device": "sn5600-400"}
    history = History(plan, CAT)
    result = fix_all(history)
    labels = [c.label for c in result.applied]
    assert labels[0].startswith("Use NVIDIA Spectrum-4 SN5600 split (128 x 400GbE)")
    assert any(label.startswith("Take 10 x Quantum-2 QM9700") for label in labels)
    assert placed(plan)["qm9700"] == 0 and plan.settings.fabric.switch_device == "sn5600-400"
    assert evaluate(plan, CAT).counts_by_severity()["error"] == 0

"""NICs slower than the fabric's ports: 400G ConnectX-7 NICs on an 800G XDR fabric. A
Quantum-X800 Q3400 has 144 ports of 800G, or 288 of 400G split (its user manual); each 400G
NIC on an unsplit port leaves half of it unused, so the same 4,096 NICs take twice the
switches. Worked by hand: 4,096 DGX B200 GPUs + 40 of 5 hot spares = 4,136 NIC links.
- Unsplit (144 ports, 72 down + 72 up a leaf): 4,136 / 72 = 57.4 leaves, in whole groups of
  8 rails (8 NICs a node): 64; 64 x 72 = 4,608 uplinks / 144 = 32 spines, and 36, the fewest
  from 32 that a leaf's 72 uplinks reach evenly (2 links each).
- Split (288 ports, 144 down + 144 up): 4,136 / 144 = 28.7 -> 32 leaves, 32 x 144 / 288 = 16
  spines (144 / 16 = 9 links each): 48 switches where 100 carried the same links."""

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CATALOG = default_catalog()
INTENT = dict(system="dgx-b200", gpus=4096, rack_kw=60, fabric="ib800", model="llama3-405b")


def _net(plan):
    report = evaluate(plan, CATALOG)
    return report, report.sections["network"]


def test_new_runs_an_800g_fabric_for_400g_nics_on_the_split_switch():
    made = design(Intent(**INTENT), CATALOG)
    f = made.plan.settings.fabric
    assert (f.technology, f.switch_device) == ("ib400", "q3400-400")
    info = [x for x in made.findings if x.code == "design.fabric.nics_slower"]
    assert info and "288 ports a switch each carrying one link, where Quantum-X800 Q3400-RA (144 x XDR 800G) carries one on each of its 144" in info[0].message
    report, net = _net(made.plan)
    assert (net["leaf_switches"], net["spine_switches"]) == (32, 16)
    assert "network.nic.slower_than_switch" not in {x.code for x in report.findings}


def test_a_named_switch_is_kept_and_the_check_warns_with_a_fix():
    made = design(Intent(**INTENT, switch="q3400"), CATALOG)
    assert made.plan.settings.fabric.switch_device == "q3400"
    report, net = _net(made.plan)
    assert (net["leaf_switches"], net["spine_switches"]) == (64, 36)
    warn = next(x for x in report.findings if x.code == "network.nic.slower_than_switch")
    assert warn.severity == "warning" and "each leaving 50% of its port unused: the fabric takes 100 switches" in warn.message
    assert "split (288 x 400G) carries the same links on 48" in warn.message
    assert warn.remedy.kind == "set_fabric"
    assert dict(warn.remedy.figures) == {"technology": "ib400", "device": "q3400-400", "sharp": "on"}
    history = History(made.plan, CATALOG)
    result = fix_all(history)
    report, net = _net(history.plan)
    assert not [x for x in report.findings if x.severity == "error"], result
    assert (history.plan.settings.fabric.technology, net["leaf_switches"], net["spine_switches"]) == ("ib400", 32, 16)
    placed = {p.device for p in history.plan.placements}
    assert "q3400-400" in placed and "q3400" not in placed  # the 800G switches taken out
    tokens = evaluate(made.plan, CATALOG).workload.tokens_per_s
    assert report.workload.tokens_per_s == tokens  # the same 400 Gb/s a GPU either way


def test_no_warning_where_the_nics_rate_saves_no_switch():
    # 400G NICs on 400G ports: nothing unused. 800G NICs (ConnectX-8 of a B300 node) on XDR: none.
    # 16 HGX H100 (128 x 400G NICs) on one Quantum-X800, split or not: one switch either way.
    for intent in (dict(system="dgx-h100", gpus=128, fabric="ib400"),
                   dict(system="dgx-b300", gpus=128, fabric="ib800"),
                   dict(system="dgx-h100", gpus=128, fabric="ib800", switch="q3400")):
        made = design(Intent(**intent), CATALOG)
        assert "network.nic.slower_than_switch" not in {x.code for x in evaluate(made.plan, CATALOG).findings}
        assert made.plan.settings.fabric.technology == intent["fabric"]  # kept: no faster port than the NICs


def test_connectx8_planes_keep_their_800g_fabric():
    # a ConnectX-8 spreads 800 Gb/s over two 400G planes but runs one 800G link on an XDR port:
    # a GB300 NVL72 or DGX B300 on XDR keeps XDR, one Quantum-X800 port a NIC
    for system, gpus in (("dgx-b300", 1152), ("gb300-nvl72", 1152)):
        made = design(Intent(system=system, gpus=gpus, fabric="ib800"), CATALOG)
        f = made.plan.settings.fabric
        assert (f.technology, f.switch_device) == ("ib800", "q3400"), system
        assert "design.fabric.nics_slower" not in {x.code for x in made.findings}

"""cluster-planner fix: the remedies applied and listed, the fixed plan written apart from the input."""

import json

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan, save_plan
from planner.report.evaluate import evaluate


def _broken(tmp_path):
    """The medium template with 2 of its 10 QM9700 removed (128 of 640 ports missing) and
    DP 8 asked (TP 8 x PP 4 x DP 8 = 256 GPUs on 128)."""
    plan = build_template("medium")
    gone = [p.id for p in plan.placements if p.device == "qm9700"][:2]
    plan.placements = [p for p in plan.placements if p.id not in gone]
    plan.settings.workload = plan.settings.workload.model_copy(update={"dp": 8})
    path = tmp_path / "broken.json"
    save_plan(plan, path)
    return path


def test_fix_adds_the_switches_and_sets_the_parallelism(tmp_path, capsys):
    src = _broken(tmp_path)
    before = src.read_bytes()
    out = tmp_path / "fixed.json"
    assert main(["fix", str(src), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "fixed: Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the network racks" in text
    assert "fixed: Set the parallelism to TP " in text
    assert "0 errors left" in text
    assert src.read_bytes() == before  # the input is untouched
    fixed = load_plan(out)
    assert sum(1 for p in fixed.placements if p.device == "qm9700") == 10
    w = fixed.settings.workload
    assert w.tp * w.pp * w.dp * w.cp == 128
    assert not evaluate(fixed, default_catalog()).has_errors


def test_fix_refuses_to_write_over_its_input(tmp_path, capsys):
    src = _broken(tmp_path)
    before = src.read_bytes()
    assert main(["fix", str(src), "-o", str(src)]) == 2
    assert "input of this command" in capsys.readouterr().err
    assert src.read_bytes() == before


def test_fix_exits_1_when_an_error_without_remedy_remains(tmp_path, capsys):
    plan = build_template("medium")
    node = next(p for p in plan.placements if p.device == "hgx-h100-8")
    rack = plan.rack(node.rack)
    rack.power_cap_kw = 5.0  # each 7 kW node alone is over the cap: no split mends it
    src = tmp_path / "over.json"
    save_plan(plan, src)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(src), "-o", str(out)]) == 1
    text = capsys.readouterr().out
    assert "nothing to fix automatically" in text and "ERROR rack." in text
    assert json.loads(out.read_text())["racks"]  # written all the same


def test_fix_splits_a_rack_over_its_cap(tmp_path, capsys):
    # GPU-01 capped at 20 kW holds 4 x 7.0 kW: 3 nodes are 21 kW, 2 are 14 kW; 2 move out
    plan = build_template("medium")
    plan.racks[0].power_cap_kw = 20.0
    src, out = tmp_path / "over.json", tmp_path / "fixed.json"
    save_plan(plan, src)
    assert main(["fix", str(src), "-o", str(out)]) == 0
    assert "fixed: Split rack GPU-01: move 2 devices into GPU-05" in capsys.readouterr().out
    fixed = load_plan(out)
    nodes = {r.name: sum(1 for p in fixed.placements if p.rack == r.id and p.device == "hgx-h100-8")
             for r in fixed.racks}
    assert (nodes["GPU-01"], nodes["GPU-05"], sum(nodes.values())) == (2, 2, 16)

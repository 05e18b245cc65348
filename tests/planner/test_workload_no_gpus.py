"""A plan whose job has no GPU says so, instead of leaving the workload's figures empty
without a word."""

from __future__ import annotations

import json

from planner.cli import main
from planner.design.templates import build_template
from planner.plan.fileio import save_plan


def _check(capsys, path) -> dict:
    capsys.readouterr()
    main(["check", str(path), "--json"])
    return json.loads(capsys.readouterr().out)


def test_a_plan_with_its_gpu_nodes_taken_out_warns_that_it_trains_nothing(tmp_path, capsys):
    path = tmp_path / "medium.json"
    save_plan(build_template("medium"), path)
    assert "workload.gpus.none" not in {f["code"] for f in _check(capsys, path)["findings"]}
    # the 16 HGX H100 nodes taken out of the file, as a user empties the GPU racks
    data = json.loads(path.read_text())
    data["placements"] = [p for p in data["placements"] if p["device"] != "hgx-h100-8"]
    path.write_text(json.dumps(data))
    r = _check(capsys, path)
    assert r["totals"]["gpus"] == 0 and r["workload"]["tokens_per_s"] is None
    warning = next(f for f in r["findings"] if f["code"] == "workload.gpus.none")
    assert warning["severity"] == "warning" and "trains nothing" in warning["message"]

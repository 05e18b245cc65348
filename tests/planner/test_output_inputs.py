"""An output is never one of the command's inputs, whatever its extension (the plan is not
replaced by a CSV), and a CSV named .json is written as asked, not refused as a "full disk"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.plan.fileio import save_plan

ROOT = Path(__file__).resolve().parents[2]
CATALOG = {"schema_version": 1, "devices": [{
    "id": "my-switch", "vendor": "Acme", "model": "S1", "category": "switch", "u_height": 1, "weight_kg": 9,
    "power_max_w": 500, "power_typical_w": 300, "price_usd": 9000, "source": "Acme datasheet",
    "switch": {"ports": 32, "gbps_per_port": 400, "technology": "ethernet"}}]}


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


@pytest.fixture
def folder(tmp_path):
    save_plan(build_template("single-node"), tmp_path / "plan.plan", keep=0)
    (tmp_path / "my.catalog").write_text(json.dumps(CATALOG))
    return tmp_path


@pytest.mark.parametrize("args, target", [
    (["cables", "plan.plan", "--csv", "plan.plan"], "plan.plan"),
    (["--catalog", "my.catalog", "cables", "plan.plan", "--csv", "my.catalog"], "my.catalog"),
    (["--catalog", "my.catalog", "cables", "plan.plan", "--csv", "./sub/../my.catalog"], "my.catalog"),
])
def test_cables_csv_onto_an_input_is_refused_and_the_input_kept(folder, args, target):
    (folder / "sub").mkdir()
    before = (folder / target).read_bytes()
    done = cli(*args, cwd=folder)
    assert done.returncode == 2, done.stderr
    assert "it is an input of this command" in done.stderr and "Traceback" not in done.stderr
    assert (folder / target).read_bytes() == before


def test_cables_csv_named_json_is_written_as_csv(folder):
    done = cli("cables", "plan.plan", "--csv", "links.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "links.json").read_text().startswith("link,network,tier,")

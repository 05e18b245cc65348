"""The checkpoint is the size of the model the workload trains: a preset's parameters, not the
custom size left in the settings, in every figure that follows from it (storage, goodput,
the workbook and the fabric advice)."""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

from planner.cli import main
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from tests.planner.xlsx_helpers import named

CAT = default_catalog()

# Llama 3 405B: 405.9e9 parameters (The Llama 3 Herd of Models, Meta 2024; the Llama 3.1 405B
# config) x 14 bytes (bf16 weights 2 + fp32 master 4 + Adam m 4 + v 4) = 5,682.6e9 bytes.
CHECKPOINT_405B_GB = 5682.6
# 16 DGX H100 with storage designed to 10 GB/s a node writing at once: 160 GB/s / 25 GB/s an
# appliance -> 7 appliances, 175 GB/s write and 350 GB/s read; 2 x 400G storage NICs a node
# on 400GbE ports = 100 GB/s a node.
WRITE_GBS, READ_GBS, NODE_GBS, NODES = 175.0, 350.0, 100.0, 16


def _run(*argv: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(list(argv)) in (0, 1)  # 1: the plan has error findings
    return buf.getvalue()


def _new_and_check(tmp_path, name: str, *model: str) -> tuple[dict, object]:
    path = str(tmp_path / f"{name}.json")
    _run("new", "--nodes", str(NODES), "--system", "dgx-h100", "--fabric", "eth400_roce", *model, "-o", path)
    return json.loads(_run("check", path, "--json")), load_plan(path)


@pytest.fixture(scope="module")
def preset(tmp_path_factory):
    return _new_and_check(tmp_path_factory.mktemp("preset"), "preset", "--model", "llama3-405b")


def test_the_405b_preset_checkpoints_its_own_parameters(preset):
    out, _ = preset
    s, g = out["storage"], out["goodput"]
    assert (s["write_gbs"], s["read_gbs"], s["node_storage_gbs"]) == (WRITE_GBS, READ_GBS, NODE_GBS)
    assert s["checkpoint_gb"] == pytest.approx(CHECKPOINT_405B_GB)  # not 70e9 x 14 = 980 GB
    # written by every node at once: 5,682.6 / min(175, 16 x 100) = 32.472 s
    assert s["checkpoint_write_s"] == pytest.approx(32.472, abs=1e-3)
    # the synchronous job is blocked for the write; read back after a restart:
    # 5,682.6 / min(350, 16 x 100) = 16.236 s
    assert g["checkpoint_block_s"] == pytest.approx(32.472, abs=1e-3)
    assert g["reload_s"] == pytest.approx(16.236, abs=1e-3)
    # Young's interval for that write: sqrt(2 x 32.472 s x MTBF)
    young_min = math.sqrt(2 * 32.472 * g["mtbf_h"] * 3600) / 60
    assert g["checkpoint_interval_min"] == pytest.approx(young_min, abs=1e-2)


def test_the_preset_and_the_same_custom_size_give_the_same_checkpoint_figures(preset, tmp_path):
    out, _ = preset
    custom, _ = _new_and_check(tmp_path, "custom", "--model", "custom", "--params-b", "405.9")
    assert custom["storage"]["checkpoint_gb"] == pytest.approx(CHECKPOINT_405B_GB)
    assert out["storage"] == custom["storage"]
    for key in ("checkpoint_block_s", "reload_s", "checkpoint_interval_min", "ettr"):
        assert out["goodput"][key] == custom["goodput"][key], key


def test_the_workbook_and_the_fabric_advice_name_the_presets_size(preset, tmp_path):
    out, plan = preset
    path = tmp_path / "preset.xlsx"
    write_workbook(plan, CAT, path)
    import openpyxl

    assert named(openpyxl.load_workbook(path), "gp_checkpoint_gb") == pytest.approx(CHECKPOINT_405B_GB)
    ethernet = [f for f in out["findings"] if f["code"] == "network.ethernet.training"]
    assert ethernet and "a 405.9B model (over 10B)" in ethernet[0]["message"]

"""Host and software interruptions are counted per host: an NVL72 rack is 18 compute trays,
each a host with its own CPUs, NICs, BMC and OS, and the unit the vendor swaps (spares are
trays in stock, not racks)."""

from __future__ import annotations

import contextlib
import io
import json

import openpyxl
import pytest

from planner.cli import main
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from tests.planner.spares_by_hand import spares_for
from tests.planner.xlsx_helpers import named

CAT = default_catalog()

# Llama 3 rates (Dubey et al. 2024, table 5, over 16,384 GPUs and 2,048 servers x 54 days), per
# 1,000 part-days: GPU 268 / 884.736 = 0.3029, host 53 / 110.592 = 0.4792, software
# 63 / 110.592 = 0.5697.
GPU_RATE, HOST_RATE, SOFTWARE_RATE = 0.3029, 0.4792, 0.5697
TRAYS = 18  # GB300 NVL72: 18 compute trays of 4 GPUs (NVIDIA GB300 NVL72 datasheet)


def _run(*argv: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(list(argv)) in (0, 1)  # 1: the plan has error findings
    return buf.getvalue()


@pytest.fixture(scope="module")
def gb300(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("gb300") / "gb300.json")
    _run("new", "--gpus", "100000", "--system", "gb300-nvl72", "-o", path)
    return path


def test_100k_gb300_gpus_are_25002_hosts_and_their_interruptions_count_each(gb300):
    g = json.loads(_run("check", gb300, "--json"))["goodput"]
    # 100,000 GPUs / 72 = 1,388.9 -> 1,389 racks for the job (100,008 GPUs), 18 trays each:
    # 25,002 hosts
    assert (g["job_nodes"], g["job_gpus"]) == (1389, 100_008)
    by_part = g["interruptions_by_part"]
    # hosts: 25,002 x 0.4792 / 1,000 = 11.981 a day (one host a rack would say 0.666)
    assert by_part["node"] == pytest.approx(11.981, abs=1e-3)
    # software: 25,002 x 0.5697 / 1,000 = 14.243 a day (one host a rack: 0.791)
    assert by_part["software"] == pytest.approx(14.243, abs=1e-3)
    # GPUs: 100,008 x 0.3029 / 1,000 = 30.292 a day
    assert by_part["gpu"] == pytest.approx(30.292, abs=1e-3)
    assert g["job_hosts"] == 1389 * TRAYS == 25_002
    # Spares are compute trays (each GPU or host interruption takes one tray out): GPU and host
    # interruptions x 3 repair days = (30.292 + 11.981) x 3 = 126.82 trays in repair on average;
    # fewer than 155 at a failure with 99.16 % (Poisson; fewer than 154: 98.95 %) -> 155 trays
    # stocked, no rack placed as a spare
    assert g["node_failures_per_repair"] == pytest.approx(126.82, abs=0.01)
    assert spares_for(126.82) == 155
    assert (g["spare_unit"], g["spares_stocked"], g["spare_nodes"]) == ("compute tray", 155, 0)


def test_check_and_the_workbook_show_the_hosts(gb300, tmp_path):
    text = _run("check", gb300)
    line = next(row for row in text.splitlines() if row.strip().startswith("Hosts the job runs on"))
    assert line.split()[-1] == "25,002"
    path = tmp_path / "gb300.xlsx"
    write_workbook(load_plan(gb300), CAT, path)
    wb = openpyxl.load_workbook(path)
    # placed: 1,389 x 18 = 25,002 hosts, every one the job's (the spare trays are in stock)
    assert (named(wb, "gp_plan_hosts"), named(wb, "gp_hosts_per_node")) == (25_002, TRAYS)
    assert named(wb, "gp_job_hosts") == "=gp_plan_hosts-spare_nodes*gp_hosts_per_node"


def test_an_hgx_node_is_one_host():
    assert CAT["dgx-h100"].hosts == 1 and CAT["gb300-nvl72"].hosts == TRAYS
    assert CAT["gb300-compute-tray"].hosts == 1  # a tray placed on its own is one host

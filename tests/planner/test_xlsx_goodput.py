"""The Goodput sheet recalculated by LibreOffice agrees with the report, and its inputs are
live: more spares in the workbook give the figures the planner gives for that plan."""

import math

import openpyxl
import pytest

from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import error_cells, find_soffice, named, recalc

CAT = default_catalog()


@pytest.fixture
def soffice():
    return find_soffice()


def _figures(wb):
    return {k: named(wb, k) for k in ("gp_per_day", "gp_mtbf_h", "gp_interval_s", "gp_ettr", "gp_days_failing",
                                       "gp_job_gpus")}


def _expected(g):
    return {"gp_per_day": pytest.approx(g["interruptions_per_day"], abs=1e-4),
            "gp_mtbf_h": pytest.approx(g["mtbf_h"], abs=1e-3),
            "gp_interval_s": pytest.approx(g["checkpoint_interval_min"] * 60, abs=0.1),
            "gp_ettr": pytest.approx(g["ettr"], abs=1e-4),
            "gp_days_failing": pytest.approx(g["time_to_train_days"], rel=1e-4),
            "gp_job_gpus": g["job_gpus"]}


def _typed(path, name: str, value, folder):
    """A copy of the workbook at ``path`` in ``folder`` with the Assumptions cell ``name`` set
    to ``value``, as a user types it; the cell's value before."""
    wb = openpyxl.load_workbook(path)
    ((sheet, coord),) = list(wb.defined_names[name].destinations)
    assert sheet == "Assumptions"
    before = wb[sheet][coord.replace("$", "")].value
    wb[sheet][coord.replace("$", "")].value = value
    folder.mkdir()
    wb.save(folder / path.name)
    return folder / path.name, before


def test_goodput_sheet_recalculated_equals_the_report_and_spares_are_live(soffice, tmp_path):
    plan = build_template("medium")
    report = evaluate(plan, CAT)
    path = tmp_path / "medium.xlsx"
    write_workbook(plan, CAT, path, report)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    assert _figures(wb) == _expected(report.sections["goodput"])
    # two spares typed into the workbook: the figures the planner gives with two spares
    edited, before = _typed(path, "spare_nodes", 2, tmp_path / "edited")
    assert before == 0
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"spare_nodes": 2})
    plan.settings.workload = plan.settings.workload.model_copy(update={"pp": 2, "dp": 7})  # 112 GPUs
    spared = evaluate(plan, CAT).sections["goodput"]
    got = _figures(recalc(soffice, edited, tmp_path / "edited"))
    expected = _expected(spared)
    assert got["gp_job_gpus"] == 112
    for key in ("gp_per_day", "gp_mtbf_h", "gp_interval_s"):
        assert got[key] == expected[key], key
    # ETTR: the workbook keeps the failure-free days it was exported with (other parallelism
    # changes those), the interval and restart follow the spares
    assert got["gp_ettr"] == pytest.approx(spared["ettr"], abs=2e-4)


@pytest.mark.parametrize("path", ["warm", "replica"])
def test_the_sheet_follows_the_plan_restart_path(soffice, tmp_path, path):
    """On every restart path the recalculated sheet gives the report's ETTR and interval, and
    each path's ETTR row gives what the report says that path would."""
    plan = build_template("medium")
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"restart_path": path})
    report = evaluate(plan, CAT)
    g = report.sections["goodput"]
    write_workbook(plan, CAT, tmp_path / "p.xlsx", report)
    wb = recalc(soffice, tmp_path / "p.xlsx", tmp_path)
    assert error_cells(wb) == []
    assert named(wb, "gp_ettr") == pytest.approx(g["ettr"], abs=1e-4)
    assert named(wb, "gp_path_interval_s") == pytest.approx(g["checkpoint_interval_min"] * 60, abs=0.1)
    for p in ("cold", "warm", "replica"):
        assert named(wb, f"gp_ettr_{p}") == pytest.approx(g["recovery"]["ettr_by_path"][p], abs=1e-4), p


def test_spares_typed_into_stock_make_the_workbook_wait_for_their_swap(soffice, tmp_path):
    # medium exported from a site with no pool of nodes (a 4-hour wait for one) and no spare:
    # each GPU or host interruption waits 240 min. With 2 spares typed into stock, a failure
    # finds one on the shelf while fewer than 2 nodes are in repair ((128 GPUs x 0.3029 + 16
    # hosts x 0.4792) / 1,000 = 0.04644 a day x 3 days = 0.1393 on average, Poisson: e^-0.1393 x
    # 1.1393 = 99.115 %) and waits its 60-min swap, else 240 min: 61.59 min, for the share of
    # the interruptions that take a node out. The recalculated restart-and-wait and ETTR are the
    # planner's for that plan.
    plan = build_template("medium")
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"replace_node_min": 240.0})
    path = tmp_path / "medium.xlsx"
    write_workbook(plan, CAT, path, evaluate(plan, CAT))
    edited, _ = _typed(path, "spares_stocked", 2, tmp_path / "edited")
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"spares_stocked": 2})
    stocked = evaluate(plan, CAT).sections["goodput"]
    got = recalc(soffice, edited, tmp_path / "edited")
    assert stocked["node_failures_per_repair"] == pytest.approx(0.1393, abs=1e-3)  # to 3 decimals
    assert named(got, "gp_p_stock") == pytest.approx(1.1393 * math.exp(-0.1393), abs=1e-4)
    share = named(got, "gp_node_per_day") / named(got, "gp_per_day")
    wait_s = (0.99115 * 60 + 0.00885 * 240) * 60 * share
    assert named(got, "gp_wait_s") == pytest.approx(wait_s, abs=1.0)
    lost_s = stocked["lost_per_interruption_min"] * 60 - stocked["checkpoint_interval_min"] * 30
    assert named(got, "gp_lost_s") == pytest.approx(lost_s, abs=0.1)
    assert named(got, "gp_ettr") == pytest.approx(stocked["ettr"], abs=2e-4)


def test_the_nvme_tier_typed_on_in_the_workbook_gives_the_planners_cold_restart(soffice, tmp_path):
    """The local NVMe tier switched on in the Assumptions sheet: the recalculated tier rows and
    the cold ETTR are what the planner gives for that plan."""
    plan = build_template("medium")
    path = tmp_path / "medium.xlsx"
    write_workbook(plan, CAT, path, evaluate(plan, CAT))
    edited, before = _typed(path, "nvme_checkpoint", True, tmp_path / "edited")
    assert not before
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"nvme_checkpoint": True})
    g = evaluate(plan, CAT).sections["goodput"]
    nvme = g["recovery"]["tiers"][0]
    assert nvme["name"] == "local NVMe"
    wb = recalc(soffice, edited, tmp_path / "edited")
    assert error_cells(wb) == []
    assert named(wb, "gp_nvme_write_s") == pytest.approx(nvme["write_s"], abs=1e-3)
    assert named(wb, "gp_nvme_reload_s") == pytest.approx(nvme["reload_s"], abs=1e-3)
    assert named(wb, "gp_nvme_interval_s") == pytest.approx(nvme["interval_min"] * 60, abs=0.1)
    assert named(wb, "gp_ettr") == pytest.approx(g["ettr"], abs=1e-4)
    assert named(wb, "gp_ettr_cold") == pytest.approx(g["recovery"]["ettr_by_path"]["cold"], abs=1e-4)

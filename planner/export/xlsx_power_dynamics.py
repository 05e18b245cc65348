"""The Power dynamics sheet: the training load's swing for the grid and the smoothings of
``planner.facility.dynamics`` (the GPU power floor, the site battery, the racks' storage and a
ramped stop and restart with the battery) as live formulas over named inputs.

The facility's grid settings (limits, the GPU's waiting draw, the edge time, the battery's
prices and efficiency) are rows of the Assumptions sheet with their sources; the plan's
figures (IT load, GPUs, the step's phases, the checkpoint's stall) are named cells here.
Change a limit or a price and the floor's energy and the battery's size and capex
recalculate (a test recalculates with LibreOffice).
"""

from __future__ import annotations

from planner.export.xlsx_cells import TITLE, WRAP, header, named_rows, text, widths
from planner.export.xlsx_costs import ASSUMPTIONS, _row
from planner.facility.dynamics import power_floor, rack_storage, site_battery, smooth
from planner.settings import FacilitySettings, field_meta

SHEET = "Power dynamics"
USED = "Power dynamics (live formula)"
# the facility settings the sheet reads; an empty limit is written 0 (no limit)
INPUTS = ("grid_max_swing_mw", "grid_max_ramp_mw_per_s", "gpu_comm_power_share", "gpu_power_edge_s",
          "bess_usd_per_kw", "bess_usd_per_kwh", "bess_round_trip_efficiency", "bess_min_duration_h", "job_ramp_s")
BIG = 1e18  # stands for "no limit" inside MIN()


def write_power_dynamics(wb, report, settings) -> None:
    """The grid inputs onto the Assumptions sheet, then the Power dynamics sheet."""
    d = report.sections.get("power_dynamics")
    ws = wb.create_sheet(SHEET, index=len(wb.sheetnames) - 1)  # before Assumptions
    text(ws, 1, 1, "Power dynamics: the training load's swing for the grid", font=TITLE)
    if d is None or d.peak_mw is None:
        text(ws, 2, 1, "No power dynamics: the plan has no training step (no GPUs or no workload).")
        return
    _assumption_rows(wb, settings.facility)
    text(ws, 2, 1, "Live formulas over named inputs: the grid settings on the Assumptions sheet, the plan's "
                   "figures below. Battery: a = shave x wait / step, b = shave - a; rated max(a, b) and b x the "
                   "longest wait (E. Choukse et al., arXiv 2508.14318; prices after NREL/TP-6A40-85332).")\
        .alignment = WRAP
    ws.row_dimensions[2].height = 45
    header(ws, 3, ["Figure", "Value", "Unit", "Name"])
    gpus = report.totals.gpus
    comm_from_catalog = abs(d.gpu_wait_w - settings.facility.gpu_comm_power_share * d.gpu_compute_w) > 1e-6
    wait_w = d.gpu_wait_w if comm_from_catalog else "=gpu_comm_power_share*pd_gpu_compute_w"
    good = report.sections["goodput"]
    interval_min = good["checkpoint_interval_min"]
    wave = d.wave
    rows = [
        ("pd_it_typical_w", "IT load, every device at its typical draw", report.totals.it_power_typical_kw * 1e3,
         "W", "#,##0"),
        ("pd_gpus", "GPUs placed", gpus, "GPUs", "#,##0"),
        ("pd_job_gpus", "GPUs the job runs on", good["job_gpus"], "GPUs", "#,##0"),
        ("pd_gpu_compute_w", "GPU draw while computing", d.gpu_compute_w, "W", "#,##0.0"),
        ("pd_gpu_wait_w", "GPU draw while waiting", wait_w, "W", "#,##0.0"),
        ("pd_compute_s", "Compute per step", d.compute_s, "s", "#,##0.000"),
        ("pd_wait_s", "Wait per step (exposed communication and bubble)", d.wait_s, "s", "#,##0.000"),
        ("pd_stall_s", "Checkpoint stall", good["checkpoint_block_s"] or 0, "s", "#,##0.000"),
        ("pd_stall_every_s", "Checkpoint interval", 0 if interval_min is None else interval_min * 60, "s",
         "#,##0.0"),
        ("pd_period_s", "Period (step time)", "=pd_compute_s+pd_wait_s", "s", "#,##0.000"),
        ("pd_swing_w", "Swing, unsmoothed", "=pd_job_gpus*(pd_gpu_compute_w-pd_gpu_wait_w)", "W", "#,##0"),
        ("pd_peak_w", "Peak, unsmoothed",
         "=pd_it_typical_w-(pd_gpus-pd_job_gpus)*(pd_gpu_compute_w-pd_gpu_wait_w)", "W", "#,##0"),
        ("pd_floor_w", "Trough, unsmoothed", "=pd_peak_w-pd_swing_w", "W", "#,##0"),
        ("pd_ramp_w_per_s", "Ramp, unsmoothed", "=pd_swing_w/gpu_power_edge_s", "W/s", "#,##0"),
        ("pd_wait_share", "Share of the time the GPUs wait",
         "=IF(pd_stall_every_s>0,pd_stall_s/(pd_stall_every_s+pd_stall_s),0)+(1-IF(pd_stall_every_s>0,"
         "pd_stall_s/(pd_stall_every_s+pd_stall_s),0))*pd_wait_s/pd_period_s", "", "0.00%"),
        ("pd_allowed_w", "Swing the limits allow (0: no limit, flatten)",
         f"=IF(AND(grid_max_swing_mw=0,grid_max_ramp_mw_per_s=0),0,MIN(pd_swing_w,"
         f"IF(grid_max_swing_mw>0,grid_max_swing_mw*1E6,{BIG:g}),"
         f"IF(grid_max_ramp_mw_per_s>0,grid_max_ramp_mw_per_s*1E6*gpu_power_edge_s,{BIG:g})))", "W", "#,##0"),
        ("pd_shave_w", "Swing to take off", "=pd_swing_w-pd_allowed_w", "W", "#,##0"),
        ("pd_floor_usd_year", "GPU power floor: energy per year",
         "=pd_shave_w/1000*pd_wait_share*hours_per_month*12*plan_pue*electricity_usd_per_kwh", "$/year", "#,##0"),
        ("pd_bess_a_w", "Battery: discharge while computing", "=pd_shave_w*pd_wait_s/pd_period_s", "W", "#,##0"),
        ("pd_bess_b_w", "Battery: charge while waiting", "=pd_shave_w-pd_bess_a_w", "W", "#,##0"),
        ("pd_bess_drop_w", "Drop at an interruption, battery on", "=pd_swing_w-pd_bess_a_w", "W", "#,##0"),
        ("pd_bess_w", "Battery power", "=MAX(pd_bess_a_w,pd_bess_b_w,IF(grid_max_ramp_mw_per_s>0,pd_bess_drop_w,0))",
         "W", "#,##0"),
        ("pd_bess_wh", "Battery energy", "=MAX(pd_bess_b_w*MAX(pd_wait_s,pd_stall_s)/3600,IF(grid_max_ramp_mw_per_s>0,"
         "pd_bess_drop_w^2/(2*grid_max_ramp_mw_per_s*1E6)/3600,0),pd_bess_w*bess_min_duration_h)", "Wh", "#,##0.0"),
        ("pd_bess_capex", "Battery capex", "=pd_bess_w/1000*bess_usd_per_kw+pd_bess_wh/1000*bess_usd_per_kwh",
         "$", "#,##0"),
        ("pd_bess_usd_year", "Battery losses per year", "=pd_bess_a_w*pd_compute_s/3600000*(1/bess_round_trip_"
         "efficiency-1)*hours_per_month*12*3600/pd_period_s*electricity_usd_per_kwh", "$/year", "#,##0"),
        ("pd_storage_j", "Racks' energy storage of the job's GPUs (GB300 NVL72: 65 J a GPU)", wave.storage_j, "J",
         "#,##0"),
        ("pd_rack_edge_s", "Racks' storage: each edge spread over (2 x storage / swing)",
         "=MAX(gpu_power_edge_s,MIN(IF(pd_swing_w>0,2*pd_storage_j/pd_swing_w,0),pd_compute_s,pd_wait_s))", "s",
         "#,##0.0000"),
        ("pd_rack_ramp_w_per_s", "Racks' storage: ramp", "=pd_swing_w/pd_rack_edge_s", "W/s", "#,##0"),
        ("pd_interruptions_year", "Interruptions a year", wave.interruptions_per_year, "per year", "#,##0.0"),
        ("pd_gpu_hour_usd", "Cost per GPU-hour (build)", d.prices.gpu_hour_usd, "$/GPU-h", "#,##0.00"),
        ("pd_ramp_time_s", "Battery, stop and restart ramped: ramp time",
         "=MAX(job_ramp_s,gpu_power_edge_s,IF(grid_max_ramp_mw_per_s>0,pd_bess_drop_w/(grid_max_ramp_mw_per_s*1E6),0))",
         "s", "#,##0.0"),
        ("pd_ramp_gpu_usd_year", "Ramped restarts: GPU time lost per year",
         "=pd_job_gpus*pd_ramp_time_s/2/3600*pd_interruptions_year*pd_gpu_hour_usd", "$/year", "#,##0"),
        ("pd_ramp_burn_usd_year", "Ramped stops: energy burnt per year",
         "=pd_bess_drop_w*pd_ramp_time_s/2/3600000*pd_interruptions_year*plan_pue*electricity_usd_per_kwh",
         "$/year", "#,##0"),
        ("pd_bess_step_w", "Battery power, the drop ramped", "=MAX(pd_bess_a_w,pd_bess_b_w)", "W", "#,##0"),
        ("pd_bess_step_wh", "Battery energy, the drop ramped",
         "=MAX(pd_bess_b_w*MAX(pd_wait_s,pd_stall_s)/3600,pd_bess_step_w*bess_min_duration_h)", "Wh", "#,##0.0"),
        ("pd_bess_step_capex", "Battery capex, the drop ramped",
         "=pd_bess_step_w/1000*bess_usd_per_kw+pd_bess_step_wh/1000*bess_usd_per_kwh", "$", "#,##0"),
    ]
    cached = {"pd_period_s": wave.period_s, "pd_swing_w": wave.swing_w, "pd_peak_w": wave.peak_w,
              "pd_floor_w": wave.floor_w, "pd_ramp_w_per_s": wave.swing_w / d.grid.edge_s,
              "pd_wait_share": wave.wait_share, "pd_gpu_wait_w": d.gpu_wait_w, **_smoothing_cached(d)}
    named_rows(wb, ws, 4, rows, cached, bold=("pd_swing_w", "pd_floor_usd_year", "pd_bess_capex", "pd_rack_ramp_w_per_s",
                                               "pd_bess_step_capex"))
    widths(ws, {1: 48, 2: 16, 3: 10, 4: 20})


def _smoothing_cached(d) -> dict[str, float]:
    """The cached values of the smoothing rows: the model's own, for the plan's limits."""
    wave, grid, prices = d.wave, d.grid, d.prices
    floor, battery = power_floor(wave, grid, prices), site_battery(wave, grid, prices)
    allowed = min(grid.allowed_swing_w(), wave.swing_w)
    shave = wave.swing_w - allowed
    a = shave * wave.wait_s / wave.period_s if wave.period_s else 0.0
    return {"pd_allowed_w": allowed, "pd_shave_w": shave, "pd_floor_usd_year": floor.energy_usd_per_year,
            "pd_bess_a_w": a, "pd_bess_b_w": shave - a, "pd_bess_drop_w": wave.swing_w - a,
            "pd_bess_w": battery.bess_w, "pd_bess_wh": battery.bess_wh, "pd_bess_capex": battery.capex_usd,
            "pd_bess_usd_year": battery.energy_usd_per_year, **_edges_cached(d)}


def _edges_cached(d) -> dict[str, float]:
    """The cached values of the racks' storage and the ramped stop's rows, the model's own."""
    wave, grid, prices = d.wave, d.grid, d.prices
    storage = rack_storage(wave, grid, prices)
    alone, ramped = site_battery(wave, grid, prices, takes_drop=False), smooth("site_battery", wave, grid, prices, True)
    return {"pd_rack_edge_s": storage.edge_s, "pd_rack_ramp_w_per_s": storage.ramp_w_per_s,
            "pd_ramp_time_s": ramped.job_ramp_s, "pd_ramp_gpu_usd_year": ramped.gpu_time_usd_per_year,
            "pd_ramp_burn_usd_year": ramped.energy_usd_per_year - alone.energy_usd_per_year,
            "pd_bess_step_w": ramped.bess_w, "pd_bess_step_wh": ramped.bess_wh, "pd_bess_step_capex": ramped.capex_usd}


def _assumption_rows(wb, facility) -> None:
    ws = wb[ASSUMPTIONS]
    row = ws.max_row + 1
    for name in INPUTS:
        meta = field_meta(FacilitySettings, name)
        value = getattr(facility, name)
        title = meta["title"] + (" (0 = no limit)" if name.startswith("grid_") else "")
        row = _row(wb, ws, row, name, title, 0 if value is None else value, meta["unit"], meta["source"], None, USED)

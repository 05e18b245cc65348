"""The Goodput sheet: the failure model and the checkpoint arithmetic of
``planner.goodput.model`` as live formulas over named inputs.

The failure rates, restart times and spares are rows of the Assumptions sheet (with their
sources); the plan's parts and its checkpoint write time are named cells here. Change a
rate or the number of spares and the interruptions, the interval, ETTR and the time to
train with failures recalculate (a test recalculates with LibreOffice).
"""

from __future__ import annotations

from planner.export.xlsx_cells import NA, TITLE, WRAP, header, named_rows, text, widths
from planner.export.xlsx_costs import ASSUMPTIONS, _row
from planner.hardware.nodes import NodeSummary
from planner.settings import field_meta
from planner.goodput.model import nodes_in_repair, spare_chances
from planner.goodput.recovery import job_of, nvme_known, nvme_tier_times, recover
from planner.settings.reliability import RESTART_PATHS, ReliabilitySettings
from planner.settings.storage import StorageSettings

GOODPUT = "Goodput"
USED = "Goodput (live formula)"


def write_goodput(wb, report, settings, placed: NodeSummary) -> None:
    """The reliability inputs onto the Assumptions sheet, then the Goodput sheet (``placed``:
    the GPU nodes placed, whose hosts fail)."""
    g = report.sections.get("goodput")
    ws = wb.create_sheet(GOODPUT, index=len(wb.sheetnames) - 1)  # before Assumptions
    text(ws, 1, 1, "Goodput: failures, checkpoints and restarts", font=TITLE)
    if g is None or g.ettr is None:
        text(ws, 2, 1, "No goodput figures: the plan has no training job, no GPUs or no parallel filesystem "
                       "to checkpoint to.")
        return
    _assumption_rows(wb, settings)
    text(ws, 2, 1, "Live formulas over named inputs: the rates on the Assumptions sheet, the plan's parts below. "
                   "Young (1974): interval = sqrt(2 x blocking time x MTBF); ETTR = (1 - (restart + re-load + "
                   "interval / 2) / MTBF) x interval / (interval + blocking), on the plan's restart path (cold, "
                   "warm or by replica: the Assumptions sheet's restart_path).").alignment = WRAP
    ws.row_dimensions[2].height = 45
    header(ws, 3, ["Figure", "Value", "Unit", "Name"])
    nodes = report.totals.nodes
    per_node = report.totals.gpus // nodes if nodes else 0
    storage, work = report.sections["storage"], report.sections["workload"]
    recovery = g.recovery
    rows = [
        ("gp_gpus_per_node", "GPUs per node", per_node, "GPUs", "0"),
        ("gp_job_gpus", "GPUs the job runs on", "=plan_gpus-spare_nodes*gp_gpus_per_node", "GPUs", "#,##0"),
        ("gp_job_nodes", "Nodes the job runs on", "=plan_nodes-spare_nodes", "nodes", "#,##0"),
        ("gp_plan_hosts", "Hosts placed (a rack-scale system's compute trays each)", placed.hosts, "hosts", "#,##0"),
        ("gp_hosts_per_node", "Hosts per node", placed.hosts_per_node, "hosts", "0"),
        ("gp_job_hosts", "Hosts the job runs on", "=gp_plan_hosts-spare_nodes*gp_hosts_per_node", "hosts", "#,##0"),
        ("gp_switches", "Switches placed", g.switches, "", "#,##0"),
        ("gp_links", "Optical links in the fabric", g.optical_links, "", "#,##0"),
        ("gp_checkpoint_gb", "Checkpoint size", storage["checkpoint_gb"], "GB", "#,##0.0"),
        ("gp_write_s", "Checkpoint write time", storage["checkpoint_write_s"], "s", "#,##0.0"),
        ("gp_reload_s", "Checkpoint read back from the file system", recovery["fs_reload_s"], "s", "#,##0.0"),
        ("gp_tokens_per_s", "Training throughput, nothing failing", work["tokens_per_s"] or 0, "tokens/s",
         "#,##0"),
        ("gp_days", "Time to train, nothing failing", work["time_to_train_days"] or 0, "days", "#,##0.0"),
        ("gp_node_per_day", "Interruptions that take a node out",
         "=(gp_job_gpus*gpu_failures_per_1000_gpu_days+gp_job_hosts*node_failures_per_1000_node_days)/1000",
         "per day", "0.0000"),
        ("gp_per_day", "Interruptions", "=gp_node_per_day+(gp_switches*switch_failures_per_1000_switch_days"
         "+gp_links*link_failures_per_1000_link_days+gp_job_hosts*software_failures_per_1000_node_days)/1000",
         "per day", "0.0000"),
        ("gp_mtbf_h", "Mean time between interruptions", "=24/gp_per_day", "h", "#,##0.00"),
        ("gp_block_s", "Job blocked per checkpoint",
         "=IF(async_checkpoint,gp_checkpoint_gb/(gp_job_gpus*snapshot_gbs_per_gpu),gp_write_s)", "s", "#,##0.000"),
        ("gp_interval_s", "Checkpoint interval (cold restart)", "=IF(checkpoint_interval_min>0,checkpoint_interval_min*60,"
         "MAX(SQRT(2*gp_block_s*gp_mtbf_h*3600),IF(async_checkpoint,gp_write_s,0)))", "s", "#,##0.0"),
        ("gp_down", "Units expected in repair at once", "=gp_node_per_day*repair_days", "units", "#,##0.000"),
        ("gp_hot_units", "Units the hot spares cover (a rack-scale system one)", "=spare_nodes", "units", "#,##0"),
        # an interruption finds K units in repair, K Poisson with mean gp_down: a hot spare is
        # idle while K < the hot units, a stocked one on the shelf while K < hot + stocked
        ("gp_p_hot", "Chance a hot spare is idle at a failure", "=IF(gp_hot_units<1,0,IF(gp_down<=0,1,"
         "POISSON(gp_hot_units-1,gp_down,1)))", "", "0.00%"),
        ("gp_p_stock", "Chance a stocked spare is taken instead", "=IF(spares_stocked<1,0,IF(gp_down<=0,1,"
         "POISSON(gp_hot_units+spares_stocked-1,gp_down,1))-gp_p_hot)", "", "0.00%"),
        ("gp_wait_s", "Mean wait for a unit, per interruption", "=(gp_p_stock*MIN(swap_spare_min,replace_node_min)"
         "+MAX(0,1-gp_p_hot-gp_p_stock)*replace_node_min)*60*gp_node_per_day/gp_per_day", "s", "#,##0.0"),
        ("gp_lost_s", "Cold restart and re-load per interruption", "=restart_min*60+gp_reload_s+gp_wait_s", "s",
         "#,##0.0"),
        ("gp_ettr_cold", "ETTR, cold restart of the whole job", "=IF(gp_nvme_on,gp_ettr_cold_nvme,MAX(0,1-(gp_lost_s"
         "+gp_interval_s/2)/(gp_mtbf_h*3600))*gp_interval_s/(gp_interval_s+gp_block_s))", "", "0.00%"),
        ("gp_nic_gbs", "Compute NIC per GPU", recovery["nic_gbs_per_gpu"] or 0, "GB/s", "#,##0.0"),
        ("gp_dp", "Data-parallel replicas", recovery["dp"], "", "#,##0"),
        ("gp_step_s", "Training step", recovery["step_s"], "s", "#,##0.000"),
        ("gp_fs_per_day", "Interruptions the fast paths cannot serve", "=gp_per_day*uncovered_share", "per day",
         "0.0000"),
        ("gp_fs_interval_s", "File-system checkpoint interval (warm, replica)",
         "=IF(gp_fs_per_day>0,MAX(SQRT(2*gp_write_s*86400/gp_fs_per_day),gp_write_s),0)", "s", "#,##0.0"),
        ("gp_fs_lost_s", "Cold restart from the file system (warm, replica)",
         "=restart_min*60+gp_reload_s+gp_fs_interval_s/2", "s", "#,##0.0"),
        ("gp_copy_s", "Copy to host memory (memory tier)", "=gp_checkpoint_gb/(gp_job_gpus*snapshot_gbs_per_gpu)",
         "s", "#,##0.000"),
        ("gp_peer_reload_s", "Shard reloaded from a peer", "=gp_checkpoint_gb/gp_job_gpus/MIN(snapshot_gbs_per_gpu,"
         "IF(gp_nic_gbs>0,gp_nic_gbs,snapshot_gbs_per_gpu))", "s", "#,##0.000"),
        ("gp_swap_steps_s", "Detect, swap, rebuild and reload (warm, replica)",
         "=detect_s+swap_s+gp_wait_s+initialise_s+gp_peer_reload_s", "s", "#,##0.0"),
        ("gp_mem_interval_s", "Memory checkpoint interval (warm)",
         "=IF(gp_per_day>gp_fs_per_day,MAX(SQRT(2*gp_copy_s*86400/(gp_per_day-gp_fs_per_day)),gp_step_s),0)",
         "s", "#,##0.0"),
        ("gp_nvme_write_gbs", "Local NVMe write per GPU (0: not in the catalog)",
         recovery["nvme_write_gbs_per_gpu"] or 0, "GB/s", "#,##0.00"),
        ("gp_nvme_read_gbs", "Local NVMe read per GPU (0: not in the catalog)", recovery["nvme_read_gbs_per_gpu"] or 0,
         "GB/s", "#,##0.00"),
        ("gp_nvme_on", "Local NVMe tier used on the cold path (1: yes)",
         "=IF(AND(nvme_checkpoint,gp_nvme_write_gbs>0,gp_nvme_read_gbs>0),1,0)", "", "0"),
        ("gp_shard_gb", "Checkpoint shard per GPU", "=gp_checkpoint_gb/gp_job_gpus", "GB", "#,##0.000"),
        ("gp_nvme_write_s", "Local NVMe write: own shard and a peer's (peer's over the NIC)",
         "=IF(gp_nvme_on,MAX(2*gp_shard_gb/gp_nvme_write_gbs,IF(gp_nic_gbs>0,gp_shard_gb/gp_nic_gbs,0)),0)", "s",
         "#,##0.000"),
        ("gp_nvme_block_s", "Job blocked per local NVMe checkpoint",
         "=IF(gp_nvme_on,IF(async_checkpoint,gp_shard_gb/snapshot_gbs_per_gpu,gp_nvme_write_s),0)", "s", "#,##0.000"),
        ("gp_nvme_reload_s", "Local NVMe reload (a swapped-in host's from its peer's drives)",
         "=IF(gp_nvme_on,gp_node_per_day/gp_per_day*gp_shard_gb/MIN(gp_nvme_read_gbs,IF(gp_nic_gbs>0,gp_nic_gbs,"
         "gp_nvme_read_gbs))+(1-gp_node_per_day/gp_per_day)*gp_shard_gb/gp_nvme_read_gbs,0)", "s", "#,##0.000"),
        ("gp_nvme_interval_s", "Local NVMe checkpoint interval (cold)",
         "=IF(AND(gp_nvme_on,gp_per_day>gp_fs_per_day),MAX(SQRT(2*gp_nvme_block_s*86400/(gp_per_day-gp_fs_per_day)),"
         "gp_step_s,gp_nvme_write_s),0)", "s", "#,##0.0"),
        ("gp_ettr_cold_nvme", "ETTR, cold restart from local NVMe", "=IF(gp_nvme_on,MAX(0,1-((gp_per_day-gp_fs_per_day)"
         "*(restart_min*60+gp_wait_s+gp_nvme_reload_s+gp_nvme_interval_s/2)+gp_fs_per_day*gp_fs_lost_s)/86400)*IF("
         "gp_nvme_interval_s>0,gp_nvme_interval_s/(gp_nvme_interval_s+gp_nvme_block_s),1),0)", "", "0.00%"),
        ("gp_ettr_warm", "ETTR, warm recovery", "=MAX(0,1-((gp_per_day-gp_fs_per_day)*(gp_swap_steps_s"
         "+gp_mem_interval_s/2)+gp_fs_per_day*gp_fs_lost_s)/86400)*IF(gp_mem_interval_s>0,gp_mem_interval_s/"
         "(gp_mem_interval_s+gp_copy_s),1)", "", "0.00%"),
        ("gp_ettr_replica", "ETTR, recovery by replica", "=IF(gp_dp<2,gp_ettr_warm,MAX(0,1-((gp_per_day"
         "-gp_fs_per_day)*(gp_swap_steps_s+gp_step_s)/gp_dp+gp_fs_per_day*gp_fs_lost_s)/86400))", "", "0.00%"),
        ("gp_path_interval_s", "Checkpoint interval, on the plan's restart path",
         '=IF(restart_path="warm",gp_mem_interval_s,IF(restart_path="replica",gp_fs_interval_s,IF(gp_nvme_on,'
         'gp_nvme_interval_s,gp_interval_s)))',
         "s", "#,##0.0"),
        ("gp_ettr", "Effective training time ratio (ETTR), on the plan's restart path",
         '=IF(restart_path="warm",gp_ettr_warm,IF(restart_path="replica",gp_ettr_replica,gp_ettr_cold))', "",
         "0.00%"),
        ("gp_goodput", "Goodput", "=gp_tokens_per_s*gp_ettr", "tokens/s", "#,##0"),
        ("gp_days_failing", "Time to train with failures", "=IF(gp_ettr>0,gp_days/gp_ettr,NA())", "days", "#,##0.0"),
        ("gp_per_m_tokens", "Cost per million tokens with failures, build",
         '=IF(AND(gp_ettr>0,ISNUMBER(build_per_m_tokens)),build_per_m_tokens/gp_ettr,"-")', "$/M tokens",
         "#,##0.0000"),
    ]
    cached = {"gp_job_gpus": g.job_gpus, "gp_job_nodes": g.job_nodes, "gp_job_hosts": g.job_hosts,
              "gp_node_per_day": sum(g.interruptions_by_part[k] for k in ("gpu", "node")),
              "gp_per_day": g.interruptions_per_day, "gp_mtbf_h": g.mtbf_h, "gp_block_s": g.checkpoint_block_s,
              **_cached_recovery(g, storage, settings),
              "gp_ettr": g.ettr, "gp_goodput": g.goodput_tokens_per_s or 0,
              "gp_days_failing": NA if g.time_to_train_days is None else g.time_to_train_days,
              "gp_per_m_tokens": "-" if g.cost_per_million_tokens_usd is None else g.cost_per_million_tokens_usd}
    named_rows(wb, ws, 4, rows, cached, bold=("gp_ettr", "gp_days_failing"))
    widths(ws, {1: 44, 2: 16, 3: 12, 4: 20})


def _cached_recovery(g, storage, settings) -> dict[str, float]:
    """The figures the restart-path rows' formulas give, worked out by the goodput model
    (``planner.goodput.recovery``) for a reader that shows cached values."""
    rel = settings.reliability
    job = job_of(g, storage, settings.storage.checkpoint_interval_min)
    runs = {p: recover(job, rel, p) for p in RESTART_PATHS}
    cold, warm = runs["cold"], runs["warm"]
    memory, fs = warm.tiers
    fs_per_day = job.per_day * rel.uncovered_share
    nvme_on = nvme_known(job, rel)  # the cold path restarts from local NVMe; the sheet's file-system rows stay
    from_fs = recover(job, rel.model_copy(update={"nvme_checkpoint": False}), "cold") if nvme_on else cold
    nvme = nvme_tier_times(job, rel) if nvme_on else (0, 0, 0)
    down = nodes_in_repair(job.by_part, rel)
    p_hot, p_stock = spare_chances(rel, down)
    return {"gp_down": down, "gp_hot_units": rel.spare_nodes, "gp_p_hot": p_hot, "gp_p_stock": p_stock,
            "gp_interval_s": from_fs.tiers[0].interval_s or 0, "gp_wait_s": cold.restart_s["wait_for_node"],
            "gp_lost_s": sum(from_fs.restart_s.values()), "gp_ettr_cold": cold.ettr, "gp_fs_per_day": fs_per_day,
            "gp_nvme_on": int(nvme_on), "gp_shard_gb": job.checkpoint_gb / job.gpus, "gp_nvme_write_s": nvme[0],
            "gp_nvme_block_s": nvme[1], "gp_nvme_reload_s": nvme[2],
            "gp_nvme_interval_s": (cold.tiers[0].interval_s or 0) if nvme_on else 0,
            "gp_ettr_cold_nvme": cold.ettr if nvme_on else 0,
            "gp_fs_interval_s": fs.interval_s or 0,
            "gp_fs_lost_s": rel.restart_min * 60 + job.fs_reload_s + (fs.interval_s or 0) / 2,
            "gp_copy_s": memory.block_s, "gp_peer_reload_s": memory.reload_s,
            "gp_swap_steps_s": sum(warm.restart_s.values()), "gp_mem_interval_s": memory.interval_s or 0,
            "gp_ettr_warm": warm.ettr, "gp_ettr_replica": runs["replica"].ettr,
            "gp_path_interval_s": runs[rel.restart_path].tiers[0].interval_s or 0}


def _assumption_rows(wb, settings) -> None:
    ws = wb[ASSUMPTIONS]
    row = ws.max_row + 1
    interval = settings.storage.checkpoint_interval_min
    meta = field_meta(StorageSettings, "checkpoint_interval_min")
    row = _row(wb, ws, row, "checkpoint_interval_min", meta["title"] + " (0 = automatic)", interval or 0,
               meta["unit"], meta["source"], "0.0", USED)
    for name in ReliabilitySettings.model_fields:
        meta = field_meta(ReliabilitySettings, name)
        value = getattr(settings.reliability, name)
        row = _row(wb, ws, row, name, meta["title"], value, meta["unit"], meta["source"], None, USED)

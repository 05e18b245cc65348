"""Failure rates of the parts a plan places, and how the job checkpoints and restarts.

Calibration: the rates are the interruptions of the Llama 3 405B pre-training snapshot,
grouped by the part that caused them, over the parts that run had: 419 unexpected
interruptions in a 54-day snapshot of pre-training on up to 16K H100 GPUs, eight to a
server (Dubey et al., "The Llama 3 Herd of Models", Meta 2024, arXiv 2407.21783, section
3.3.4, table 5; the exposure assumes the 16,384 GPUs of its table 4 throughout). They are
checked (not fitted) against Kokolis et al., "Revisiting Reliability in Large-Scale Machine
Learning Research Clusters", HPCA 2025 (arXiv 2410.21680): the failure rates per node-day
of Meta's RSC-1 and RSC-2 A100 clusters and the ETTR of RSC-1's large jobs.
"""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting

RESTART_PATHS = ("cold", "warm", "replica")  # in the order of what each asks of the training software
RestartPath = Literal["cold", "warm", "replica"]

LLAMA3 = ('Dubey et al., "The Llama 3 Herd of Models", Meta 2024 (arXiv 2407.21783), section 3.3.4, table 5: '
          "419 unexpected interruptions in a 54-day snapshot on up to 16K H100, eight per server (planner "
          "assumption: the 16,384 GPUs of its table 4, 2,048 servers, throughout)")

# Exposure of the Llama 3 run: 16,384 GPUs x 54 days and 2,048 servers x 54 days.
_GPU_DAYS = 16384 * 54
_NODE_DAYS = 2048 * 54
# The run's fabric as the planner counts one (planner assumption: a two-level rail fat tree
# of 64-port switches over one 400G NIC per GPU; the paper describes a three-layer RoCE Clos,
# a top-of-rack switch per two servers, but gives no switch or link counts): 16,384 host
# links and as many leaf-spine links, 512 leaf and 512 spine switches.
_LINK_DAYS = 2 * 16384 * 54
_SWITCH_DAYS = 1024 * 54


class ReliabilitySettings(Section):
    gpu_failures_per_1000_gpu_days: float = setting(
        round(1000 * 268 / _GPU_DAYS, 4),
        title="GPU failures (incl. HBM)", unit="per 1,000 GPU-days",
        source=f"{LLAMA3}: faulty GPU 148, HBM3 72, SRAM 19, GPU system processor 17, silent data "
        "corruption 6, thermal interface and sensor 6 = 268 over 16,384 x 54 GPU-days.",
        ge=0, le=1000)
    node_failures_per_1000_node_days: float = setting(
        round(1000 * 53 / _NODE_DAYS, 4),
        title="Host failures (CPU, memory, PSU, SSD, NIC)", unit="per 1,000 host-days",
        source=f"{LLAMA3}: host maintenance 32 (unplanned), NIC 7, SSD 3, power supply 3, chassis 2, IO board 2, "
        "CPU 2, system memory 2 = 53 over 2,048 x 54 server-days. Counted per host, a server with its own CPUs, "
        "NICs, BMC and OS: an HGX node, or each of an NVL72's 18 compute trays.",
        ge=0, le=1000)
    switch_failures_per_1000_switch_days: float = setting(
        round(1000 * 17.5 / _SWITCH_DAYS, 4),
        title="Switch failures", unit="per 1,000 switch-days",
        source=f"{LLAMA3}: half of the 35 'network switch/cable' interruptions (planner assumption: the "
        "paper does not split switches from cables) over 1,024 switches (planner assumption: a two-level "
        "fat tree of 64-port switches for 16,384 GPUs) x 54 days.",
        ge=0, le=1000)
    link_failures_per_1000_link_days: float = setting(
        round(1000 * 17.5 / _LINK_DAYS, 5),
        title="Optical link failures", unit="per 1,000 link-days",
        source=f"{LLAMA3}: the other half of the 35 'network switch/cable' interruptions over 32,768 "
        "links (planner assumption: one 400G link per GPU to its leaf and as many leaf to spine) x 54 days.",
        ge=0, le=1000)
    software_failures_per_1000_node_days: float = setting(
        round(1000 * 63 / _NODE_DAYS, 4),
        title="Software and other interruptions", unit="per 1,000 host-days",
        source=f"{LLAMA3}: software bug 54, NCCL watchdog timeouts 7 (cause unknown), dependency 2 = 63 over "
        "2,048 x 54 server-days; counted per host (each runs its own OS and processes).",
        ge=0, le=1000)
    restart_min: float = setting(
        10.0, title="Restart after an interruption (detect, reschedule, initialise)", unit="min",
        source="Planner assumption: about 10 minutes with automated detection and a node ready to swap in; "
        "Llama 3 (Dubey et al. 2024, section 3.3.4): significant manual intervention only three times in the "
        "54 days, the rest handled by automation.",
        ge=0, le=10000)
    replace_node_min: float = setting(
        30.0, title="Wait for a replacement node (no spare left)", unit="min",
        source="Planner assumption: half an hour to drain, fence and bring in a node from a shared pool when "
        "no hot spare is idle.",
        ge=0, le=100000)
    spare_nodes: int = setting(
        0, title="Hot spare nodes (placed, kept idle)", unit="",
        source="Planner assumption: none; spares are placed nodes the job does not use, swapped in for a "
        "failed node so that the job restarts without waiting for a repair.",
        ge=0, le=100000)
    spares_stocked: int = setting(
        0, title="Spares stocked (not placed): compute trays of rack-scale systems, else nodes", unit="",
        source="Planner assumption: none; a spare in stock is the unit the vendor swaps (an NVL72 compute tray, "
        "an 8-GPU node), put in the failed unit's place while that one is repaired; bought, not placed, so it "
        "takes no fabric port, power or floor.",
        ge=0, le=1000000)
    swap_spare_min: float = setting(
        60.0, title="Swap a stocked spare in (no hot spare idle)", unit="min",
        source="Planner assumption: an hour to drain the failed node or rack-scale system, swap the compute tray "
        "(or node) for one from stock and bring it back into service (power-on, NVLink domain and health "
        "checks); the job waits for it on each GPU or host interruption.",
        ge=0, le=100000)
    repair_days: float = setting(
        3.0, title="Repair time of a failed node", unit="days",
        source="Planner assumption: three days to diagnose, replace a GPU tray or part and return the node.",
        gt=0, le=365)
    spare_availability: float = setting(
        0.99, title="Spares: chance a failing unit finds one free", unit="fraction",
        source="Planner assumption: spares for 99 % of failures once a unit or more is expected in repair at once: "
        "the units in repair at a failure are Poisson with mean failures a day x repair days (an M/G/infinity "
        "queue, whatever the repair time's spread); spares for the mean alone are all in use at half the failures.",
        ge=0.5, le=0.9999)
    async_checkpoint: bool = setting(
        False, title="Asynchronous checkpoints (block only for the copy to host memory)",
        source="Mohan et al., 'CheckFreq: Frequent, Fine-Grained DNN Checkpointing', USENIX FAST 2021: a "
        "snapshot to host memory, then persisted in the background while training goes on.")
    snapshot_gbs_per_gpu: float = setting(
        25.0, title="Copy to host memory per GPU (asynchronous checkpoints)", unit="GB/s",
        source="PCI-SIG PCIe 5.0 x16: 64 GB/s per direction; planner assumption: about 25 GB/s achieved "
        "from GPU memory to pinned host memory.",
        gt=0, le=10000)
    min_ettr: float = setting(
        0.9, title="Effective training time ratio, lowest acceptable", unit="fraction",
        source="Dubey et al. 2024 (Llama 3), section 3.3.4: 'higher than 90% effective training time' in 16K-GPU "
        "training with automated recovery.",
        gt=0, le=1)
    min_interval_write_multiple: float = setting(
        5.0, title="Checkpoint interval, fewest write times", unit="x",
        source="Planner assumption: an interval shorter than five checkpoint writes spends more than a sixth "
        "of the time writing.",
        gt=0, le=1000)
    restart_path: RestartPath = setting(
        "cold", title="Recovery after an interruption", unit="name",
        source="cold: the whole job restarts from the last file-system checkpoint (Dubey et al. 2024, Llama 3, "
        "section 3.3.4); warm: in place, a hot spare swapped in and every GPU's shard reloaded from a copy in a "
        "peer's host memory (Wang et al., 'Gemini: Fast Failure Recovery in Distributed Training with In-Memory "
        "Checkpoints', SOSP 2023); replica: fault-tolerant data parallelism, only the failed data-parallel "
        "replica stops and rejoins from a live one (torchft: 'Fault Tolerant Llama: training with 2000 "
        "synthetic failures every ~15 seconds and no checkpoints', PyTorch blog, 2025).")
    detect_s: float = setting(
        30.0, title="Warm or replica recovery: detect the failure", unit="s",
        source="Planner assumption: a heartbeat or collective timeout of about half a minute (Jiang et al., "
        "'MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs', NSDI 2024, section 4: "
        "every node's daemon sends heartbeats to the driver).",
        ge=0, le=100000)
    swap_s: float = setting(
        60.0, title="Warm or replica recovery: swap in a hot spare", unit="s",
        source="Planner assumption: a minute to fence the failed host and hand its ranks to a spare whose "
        "container and libraries are already loaded.",
        ge=0, le=100000)
    initialise_s: float = setting(
        30.0, title="Warm or replica recovery: rebuild the communicators", unit="s",
        source="Jiang et al., 'MegaScale', NSDI 2024, section 3.5: initialisation of a job of more than 10,000 "
        "GPUs in under 30 s once optimised (1,047 s at 2,048 GPUs before).",
        ge=0, le=100000)
    uncovered_share: float = setting(
        0.01, title="Interruptions the fast paths cannot serve (restart cold)", unit="fraction",
        source="Planner assumption: 1 % of interruptions take out a host and the peer holding its in-memory "
        "copy at once (a rack's power, a leaf switch), so the job restarts from the file system.",
        ge=0, le=1)
    nvme_checkpoint: bool = setting(
        False, title="Local NVMe checkpoint tier (cold restarts reload from the nodes' own drives)",
        source="NVIDIA Resiliency Extension (nvidia-resiliency-ext), Local Checkpointing usage guide: checkpoints "
        "saved to each node's local storage with a replication strategy (CliqueReplicationStrategy) for node "
        "failures. Planner assumption: off by default (the training software must be set up for it); when on, "
        "each host writes its shard and one peer host's copy (a replication factor of 2) to its data drives at "
        "the drives' datasheet rate.")
    cannot_train_ettr: float = setting(
        0.5, title="Effective training time ratio below which the job cannot train (an error)", unit="fraction",
        source="Planner assumption: below half, failures and recovery take more of the run than training does.",
        ge=0, le=1)

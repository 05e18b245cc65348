"""Checkpoint and dataset storage settings."""

from __future__ import annotations

from planner.settings._base import GUIDE, Section, setting


class StorageSettings(Section):
    checkpoint_bytes_per_param: float = setting(
        14.0,
        title="Checkpoint bytes per parameter",
        unit="bytes",
        source="Rajbhandari et al., 'ZeRO: Memory Optimizations Toward Training Trillion Parameter Models', SC'20: "
        "Adam in mixed precision = bf16 weights 2 + fp32 master 4 + Adam m 4 + v 4; weights only = 2.",
        gt=0,
        le=64,
    )
    # Empty (the default of new plans) is Young/Daly's interval for the plan's failure rate; a
    # number, as every file saved before stores (60), is the user's fixed interval, kept as set.
    checkpoint_interval_min: float | None = setting(
        None,
        title="Checkpoint interval",
        unit="min",
        source="Empty: Young's interval for the plan's failure rate (automatic). J. W. Young, 'A first order "
        "approximation to the optimum checkpoint interval', CACM 17(9), 1974: sqrt(2 x checkpoint write time x "
        "mean time between interruptions). A number: a fixed interval (planner assumption for older plans: "
        "hourly, common practice).",
        gt=0,
        le=100000,
    )
    node_storage_gbs: float | None = setting(
        None,
        title="Storage bandwidth per node",
        unit="GB/s",
        source="Empty: from the nodes' storage NICs (line rate / 8). Planner assumption: a node writes no faster "
        "than its storage NICs' line rate.",
        gt=0,
        le=100000,  # 800 Tb/s a node: past any node's links, a typing slip (or an unreadable measurement)
    )
    separate_checkpoint_pool: bool = setting(
        True,
        title="Checkpoints and datasets in separate pools",
        source=f"{GUIDE}: '/checkpoints dedicated OST pool', '/datasets separate OST pool'.",
    )
    min_write_gbs_per_node: float = setting(
        10.0, title="Checkpoint write per node, minimum", unit="GB/s", source=f"{GUIDE}, FAQ: 'slower than 10 GB/s per node, fix storage'.", gt=0
    )
    max_stall_pct: float = setting(
        5.0, title="Checkpoint stall limit", unit="% of interval", source="Planner assumption: stalls above 5% of the interval cost more than a spare GPU.", gt=0, le=100
    )

"""The acceptance pack on disk: a runbook (Markdown), the same tests as JSON and the fio job
files, written as one staged folder (``planner.safefile.write_folder``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from planner.acceptance.criteria import (
    FIO_BLOCK_BYTES, FIO_JOBS, FIO_REQUEST_S, ROCE_GID_INDEX, AcceptancePack, AcceptanceTest,
)
from planner.safefile import write_folder
from planner.save_target import SaveError, folder_failure, names_besides
from planner.settings import GUIDE

RUNBOOK, TESTS_JSON = "acceptance-runbook.md", "acceptance-tests.json"


def _gbs(x: float | None) -> str:
    return "-" if x is None else f"{x:,.1f} GB/s"


def _share(t: AcceptanceTest, short: bool = False) -> str:
    """What the pass figure is a share of: the line rate; where the filesystem or the storage
    network (every node at once through its oversubscribed leaves) holds the expected figure
    below what the hosts' storage links carry, the expected figure, named by what holds it,
    with the links' rate beside it (a share of that would read as a low bar: 8 % of line rate)."""
    s = t.threshold_share_of_line
    if s is None:
        return ""
    if t.tool == "fio" and t.expected_gbs is not None and t.expected_gbs < 0.999 * t.line_rate_gbs:
        share = 100 * t.threshold_gbs / t.expected_gbs
        return (f" ({share:.0f} % of {t.limit})" if short else
                f" ({share:.0f} % of {t.limit} {t.expected_gbs:,.1f} GB/s, below the "
                f"{t.line_rate_gbs:,.1f} GB/s the hosts' storage links carry)")
    if short:
        return f" ({100 * s:.0f} % of line rate)"
    basis = f": {t.line_basis}" if t.line_basis else ""
    return f" ({100 * s:.0f} % of the {t.line_rate_gbs:,.1f} GB/s line rate{basis})"


def runbook(pack: AcceptancePack) -> str:
    pct = 100 * pack.fraction
    lines = [f"# Acceptance tests: {pack.plan_name}", "",
             f"{pack.nodes} nodes of {pack.gpus_per_node} GPUs. A test passes at {pct:.0f} % of the planner's "
             f"expected figure ({GUIDE}: below about 75 % of the theoretical all-reduce peak, the network is the "
             f"bottleneck). {pack.stack.collectives} are judged by the bus bandwidth (busbw, out-of-place) at the "
             "largest message size. Read the results back with `cluster-planner acceptance PLAN --results DIR`.", "",
             *([f"On AMD Instinct nodes the collective tests are rccl-tests (github.com/ROCm/rccl-tests: nccl-tests "
                "ported to RCCL, the same binaries, options and output; RCCL reads the NCCL_* variables). The "
                "health check is the ROCm Validation Suite's, read by hand: the results import does not judge it.",
                ""] if pack.stack.collectives == "rccl-tests" else []),
             f"Site names to fill in: the NIC devices (`{pack.stack.device_prefix}N`: check with `ibv_devices`), the "
             "bootstrap "
             "interface (`eth0`), the MPI hostfile (`hosts`, one line per host) and the server host of "
             f"ib_write_bw (`NODE_A`); on RoCE the GID index of the ports' IPv4 address ({ROCE_GID_INDEX}: check "
             "with `show_gids`).", ""]
    for t in pack.tests:
        lines += [f"## {t.title}", "", f"Test `{t.id}` ({t.tool}).", "", "```sh", *t.commands, "```", ""]
        if t.expected_gbs is not None:
            lines += [f"Expected: {_gbs(t.expected_gbs)}. Pass: at least {_gbs(t.threshold_gbs)}{_share(t)}.", ""]
        if t.points:
            lines += ["| Size (B) | Expected busbw (GB/s) |", "|---:|---:|"]
            lines += [f"| {p.size_bytes:,} | {p.expected_gbs:,.2f} |" for p in t.points]
            lines.append("")
            if t.ring is not None and t.ring[2] == 0:
                lines += [f"The planner models {pack.stack.link} without a per-step latency, so small messages show the full "
                          "bandwidth here; measured, they are latency-bound. Only the largest size is judged.", ""]
        for name, text in t.files:
            verb = "reads" if "rw=read" in text else "writes"
            lines += [f"Job file: `{name}` (in this folder): each host {verb} files of its own "
                      f"(`$clientuid`, its address under `fio --client`); {FIO_JOBS} jobs of "
                      f"{FIO_BLOCK_BYTES >> 20} MiB requests at the queue depth that carries the one-host target at "
                      f"{FIO_REQUEST_S * 1e3:g} ms a request. If fio's completion latency (clat) is higher, raise "
                      "`iodepth` in proportion.", ""]
    return "\n".join(lines)


def runbook_rows(pack: AcceptancePack) -> list[list[str]]:
    """The runbook as table rows (test, command, expected, pass at with its share of line rate),
    for the vendor pack's acceptance pages: one row per command, the test's figures on its first."""
    rows = []
    for t in pack.tests:
        passing = "every test Pass" if t.expected_gbs is None else _gbs(t.threshold_gbs) + _share(t, short=True)
        rows.append([f"{t.title} ({t.id})", t.commands[0], _gbs(t.expected_gbs), passing])
        rows += [["", command, "", ""] for command in t.commands[1:]]
    return rows


def pack_json(pack: AcceptancePack) -> dict:
    return {
        "plan": pack.plan_name, "nodes": pack.nodes, "gpus_per_node": pack.gpus_per_node,
        "pass_fraction": pack.fraction, "pass_fraction_source": GUIDE,
        "tests": [{
            "id": t.id, "tool": t.tool, "title": t.title, "commands": list(t.commands),
            "expected_gbs": t.expected_gbs, "threshold_gbs": t.threshold_gbs, "line_rate_gbs": t.line_rate_gbs,
            "threshold_share_of_line_rate": t.threshold_share_of_line,
            **({"line_rate_basis": t.line_basis} if t.line_basis else {}),
            "expected_busbw_by_size": [{"size_bytes": p.size_bytes, "busbw_gbs": p.expected_gbs} for p in t.points],
            "files": [name for name, _ in t.files],
            **({"ring": {"ranks": t.ring[0], "bottleneck_gbs": t.ring[1], "latency_us": round(t.ring[2] * 1e6, 3)}}
               if t.ring else {}),
        } for t in pack.tests],
    }


def pack_files(pack: AcceptancePack) -> dict[str, str]:
    files = {RUNBOOK: runbook(pack), TESTS_JSON: json.dumps(pack_json(pack), indent=1, allow_nan=False) + "\n"}
    for t in pack.tests:
        files.update(dict(t.files))
    return files


def other_files(directory: str | Path) -> list[str]:
    """The names in a folder that no acceptance pack writes (empty for a folder that is not
    there, or cannot be read: ``write_pack`` says why)."""
    return names_besides(directory, _ours)


def write_pack(pack: AcceptancePack, directory: str | Path) -> list[str]:
    """Write the pack into ``directory`` (created, or replaced whole if it holds only an earlier
    pack's files); SaveError if it holds anything else. Returns the file names."""
    files = pack_files(pack)
    target = Path(os.path.realpath(directory))
    if target.exists() and not target.is_dir():
        raise SaveError(f"cannot write the acceptance pack to {target}: it is a file; give a folder")
    if target.is_dir():
        try:
            others = sorted(e.name for e in os.scandir(target) if not _ours(e.name))
        except OSError as exc:
            raise folder_failure(target, exc) from None
        if others:
            raise SaveError(f"cannot write the acceptance pack to {target}: it holds other files "
                            f"({', '.join(others[:3])}), which would be lost (the pack replaces the folder whole); "
                            "choose an empty or new folder (nothing was written)")

    def fill(staging: Path) -> None:
        for name, text in files.items():
            with open(staging / name, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())

    write_folder(target, fill)
    return sorted(files)


def _ours(name: str) -> bool:
    return name in (RUNBOOK, TESTS_JSON) or name.endswith(".fio")

"""The acceptance tests of a plan: what a site engineer runs on the delivered cluster, the
figure the planner expects of each and the pass threshold.

Expected figures come from the planner's own models:

- nccl-tests bus bandwidth by message size from the collective model
  (``planner.network.collective``, the definitions of nccl-tests ``doc/PERFORMANCE.md``):
  within one node a ring over the node's GPUs at the NVLink bandwidth the workload model
  uses; across the nodes a ring over every GPU whose bottleneck is the slower of the node's
  compute NICs (NICs x line rate / 8 x fabric efficiency) and NVLink, with the fabric's
  per-step latency. busbw = algbw x 2(n-1)/n (all-reduce), x (n-1)/n (all-gather,
  reduce-scatter, all-to-all), so it compares with the link bandwidth whatever n is;
- all-to-all across the nodes is no ring: each of the n ranks sends S/n to every other, so
  (n-g)/n of its S leaves its NVLink domain of g GPUs, over its share of the node's NICs
  (B_node / g), and (g-1)/n stays on NVLink; busbw at large S is then
  min(B_node / g x (n-1)/(n-g), B_nvlink x (n-1)/(g-1)), the per-rank rate the model's
  ring carries in its place (with the ring's n-1 latency steps);
- ``ib_write_bw``: one NIC's line rate / 8 x the fabric efficiency;
- fio: the storage section's checkpoint write per node and aggregate, and the same bounds
  on reads (the filesystem's read bandwidth, the node's storage links).

A test passes at ``acceptance_fraction`` (a fabric setting: the planning guide's 75 %) of its
expected figure, judged at the largest message size for nccl-tests.

Why it is long: every test of the pack (collectives, NIC pairs, storage, the health check)
with its expected figure and its commands, for both GPU vendors' tools, beside the model
figure it judges; one concern, the pack's criteria.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from planner.design.layout import gpu_counts
from planner.hardware.catalog import Catalog
from planner.hardware.nodes import summarise_nodes
from planner.network.collective import collective
from planner.network.technologies import TECHNOLOGIES, effective_gbs_per_gpu, efficiency, latency_s
from planner.plan.model import Plan
from planner.report.evaluate import evaluate
from planner.report.model import Report
from planner.workload.checks import job_shape
from planner.workload.models import model_shape
from planner.workload.training import PCIE5_X16_GBS

# RoCE v2 needs the GID of the port's IP address: index 3 on ConnectX ports with the default
# GID table (RoCE v1 and v2 of the link-local address, then of the IPv4 address; NVIDIA
# MLNX_OFED user manual, "show_gids"). NCCL (NCCL_IB_GID_INDEX) and perftest (-x) take it.
ROCE_GID_INDEX = 3
# fio: 1 MiB direct requests, 8 jobs a host; the queue depth keeps enough requests in flight
# to carry the target (Little's law: bytes in flight = bandwidth x latency) at a planner
# assumption of 1 ms for a 1 MiB request to a parallel filesystem under load (client, network
# round trip, server commit); the runbook says to raise it if fio's clat is higher.
FIO_BLOCK_BYTES = 1 << 20
FIO_JOBS = 8
FIO_REQUEST_S = 1e-3
SIZES = tuple(8 << (2 * i) for i in range(16))  # 8 B to 8 GiB in factors of 4 (nccl-tests -b 8 -e 8G -f 4)
COLLECTIVES = {"all_reduce": "all_reduce_perf", "all_gather": "all_gather_perf",
               "reduce_scatter": "reduce_scatter_perf", "alltoall": "alltoall_perf"}


@dataclass(frozen=True, slots=True)
class Stack:
    """The GPU vendor's test tools: the collective tests, the link inside a node, the RDMA
    devices' names and the health check every host runs."""

    collectives: str  # the nccl-tests family: nccl-tests, or rccl-tests (ROCm's fork: same binaries and output)
    link: str  # the GPUs' link inside a node
    device_prefix: str  # the RDMA devices' names: <prefix>0, <prefix>1 ... (check with ibv_devices)
    health: str  # the health check's tool


# NVIDIA: nccl-tests (github.com/NVIDIA/nccl-tests), ConnectX devices mlx5_N, DCGM diagnostics
# (dcgmi diag, NVIDIA DCGM user guide). AMD Instinct: rccl-tests (github.com/ROCm/rccl-tests:
# nccl-tests ported to RCCL, the same binaries, options and output; RCCL reads the NCCL_*
# environment variables, ROCm RCCL documentation), Infinity Fabric between the GPUs, the NICs'
# RDMA devices as ibv_devices lists them (vendors name them differently: fill them in), and the
# ROCm Validation Suite's GPU stress test (rvs, ROCm documentation), read by hand.
NVIDIA = Stack("nccl-tests", "NVLink", "mlx5_", "dcgm")
AMD = Stack("rccl-tests", "Infinity Fabric", "rdma", "rvs")
HAND_CHECKED = ("rvs",)  # tools the results import reads no log of: the site checks them by hand


@dataclass(frozen=True, slots=True)
class Point:
    size_bytes: int
    expected_gbs: float


@dataclass(frozen=True, slots=True)
class AcceptanceTest:
    """One test: the commands to run, the expected figure (GB/s), the pass threshold and the
    line rate it is a share of. ``points``: nccl-tests' expected busbw by message size."""

    id: str
    tool: str  # "nccl-tests", "perftest", "fio", "dcgm"
    title: str
    commands: tuple[str, ...]
    expected_gbs: float | None = None
    threshold_gbs: float | None = None
    line_rate_gbs: float | None = None
    points: tuple[Point, ...] = ()
    collective: str = ""
    files: tuple[tuple[str, str], ...] = ()  # (name, text): fio job files
    ring: tuple[int, float, float] | None = None  # nccl-tests: (ranks, bottleneck GB/s, per-step latency s)
    line_basis: str = ""  # what the line rate is, where it is not one link's (the node's NICs)
    limit: str = ""  # fio: what holds the expected figure below the line rate ("the filesystem's")

    def expected_at(self, size_bytes: int) -> float | None:
        """Expected busbw at any message size (the model's ring), else the expected figure."""
        if self.ring is None:
            return self.expected_gbs
        ranks, bandwidth, alpha = self.ring
        c = collective(_factor(self.collective), ranks, float(size_bytes), bandwidth, alpha)
        return round(c.bus_bandwidth_gbs or 0.0, 3)

    @property
    def threshold_share_of_line(self) -> float | None:
        if self.threshold_gbs is None or not self.line_rate_gbs:
            return None
        return self.threshold_gbs / self.line_rate_gbs


@dataclass(frozen=True, slots=True)
class AcceptancePack:
    plan_name: str
    nodes: int
    gpus_per_node: int
    fraction: float
    tests: tuple[AcceptanceTest, ...] = field(default_factory=tuple)
    hosts_per_node: int = 1  # an NVL72's compute trays
    stack: Stack = NVIDIA  # the GPU vendor's test tools

    def test(self, test_id: str) -> AcceptanceTest | None:
        return next((t for t in self.tests if t.id == test_id), None)


def _factor(kind: str) -> str:
    return "all_reduce" if kind == "all_reduce" else "all_gather"  # alltoall: (n-1)/n, as all-gather


def _nccl_test(test_id: str, kind: str, title: str, commands: tuple[str, ...], ranks: int, bandwidth_gbs: float,
               alpha_s: float, line_gbs: float, fraction: float, tool: str = "nccl-tests",
               line_basis: str = "") -> AcceptanceTest:
    """An nccl-tests (or rccl-tests) test: expected busbw per message size from the collective
    model's ring on ``ranks`` ranks, judged at the largest size."""
    t = AcceptanceTest(test_id, tool, title, commands, collective=kind, line_rate_gbs=line_gbs,
                       ring=(ranks, bandwidth_gbs, alpha_s), line_basis=line_basis)
    points = tuple(Point(size, t.expected_at(size)) for size in SIZES)
    exp = points[-1].expected_gbs
    return replace(t, points=points, expected_gbs=exp, threshold_gbs=round(fraction * exp, 3))


def nccl_env(tech_id: str, nics: int, sharp: bool, device_prefix: str = NVIDIA.device_prefix) -> str:
    """The NCCL (or RCCL) environment for the fabric (device names: ConnectX's usual mlx5_N;
    check with ibv_devices)."""
    t = TECHNOLOGIES[tech_id]
    hcas = ",".join(f"{device_prefix}{i}" for i in range(max(nics, 1)))
    if t.transport == "tcp":
        return "-x NCCL_IB_DISABLE=1 -x NCCL_SOCKET_IFNAME=eth0 -x NCCL_DEBUG=INFO"
    env = f"-x NCCL_IB_HCA={hcas} -x NCCL_SOCKET_IFNAME=eth0 -x NCCL_DEBUG=INFO"
    if t.transport == "roce":
        env += f" -x NCCL_IB_GID_INDEX={ROCE_GID_INDEX}"
    if sharp and t.sharp_capable:
        env += " -x NCCL_COLLNET_ENABLE=1"
    return env


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the ranks run: ``nodes`` of ``gpus`` GPUs (an NVLink domain), each ``hosts``
    operating systems (an NVL72's compute trays) of ``gpus / hosts`` GPUs."""

    nodes: int
    gpus: int
    hosts: int = 1

    @property
    def gpus_per_host(self) -> int:
        return max(1, self.gpus // self.hosts)


def _launch(ranks: int, layout: Layout, env: str, binary: str) -> tuple[str, str]:
    per_host, hosts = layout.gpus_per_host, max(1, ranks // layout.gpus_per_host)
    return (f"mpirun -np {ranks} -N {per_host} --hostfile hosts {env} ./build/{binary} -b 8 -e 8G -f 4 -g 1",
            f"srun -N {hosts} --ntasks-per-node={per_host} --gpus-per-node={per_host} ./build/{binary} "
            "-b 8 -e 8G -f 4 -g 1")


def _nccl_tests(kind: str, layout: Layout, b_nv: float, b_node: float, line_node: float, nvlink_line: float,
                alpha: float, env: str, fraction: float, stack: Stack = NVIDIA,
                nics: str = "") -> list[AcceptanceTest]:
    """The node's and the cluster's test of one collective; ``nics``: the node's NICs as the
    line rate's basis reads them (\"8 NICs x 400 Gb/s\")."""
    binary, g = COLLECTIVES[kind], layout.gpus
    if layout.hosts == 1:
        node_cmd: tuple[str, ...] = (f"./build/{binary} -b 8 -e 8G -f 4 -g {g}",)
        where = f"one node ({g} GPUs, {stack.link})"
    else:
        node_cmd = _launch(g, layout, env, binary)
        where = f"one {stack.link} domain ({g} GPUs on {layout.hosts} trays)"
    tests = [_nccl_test(f"nccl.{kind}.node", kind, f"{binary}, {where}", node_cmd, g, b_nv, 0.0, nvlink_line,
                        fraction, stack.collectives)]
    if layout.nodes > 1:
        ranks = layout.nodes * g
        domain = "node" if layout.hosts == 1 else f"{stack.link} domain"
        if kind == "alltoall":
            rate, line = all_to_all_rank_gbs(ranks, g, b_node, b_nv), all_to_all_rank_gbs(ranks, g, line_node,
                                                                                          nvlink_line)
            basis = (f"a GPU's share of the {domain}'s {nics}, for the {ranks - g:,}/{ranks:,} of its bytes that "
                     f"leave the {domain}") if nics and line < nvlink_line * (ranks - 1) / max(1, g - 1) else ""
        else:
            rate, line = min(b_node, b_nv), min(line_node, nvlink_line)  # the slower path's rate
            basis = f"the {domain}'s {nics}" if nics and line_node <= nvlink_line else ""
        tests.append(_nccl_test(f"nccl.{kind}.cluster", kind, f"{binary}, all {layout.nodes} nodes ({ranks} GPUs)",
                                _launch(ranks, layout, env, binary), ranks, rate, alpha, line, fraction,
                                stack.collectives, basis))
    return tests


def all_to_all_rank_gbs(ranks: int, domain: int, node_gbs: float, nvlink_gbs: float) -> float:
    """busbw of a uniform all-to-all on ``ranks`` GPUs in NVLink domains of ``domain`` GPUs
    whose NICs carry ``node_gbs`` a domain and NVLink ``nvlink_gbs`` a GPU (module docstring):
    the share of each rank's bytes that leaves its domain goes over its share of the NICs."""
    n, g = ranks, max(1, domain)
    if n <= g:
        return nvlink_gbs
    fabric = node_gbs / g * (n - 1) / (n - g)
    return fabric if g <= 1 else min(fabric, nvlink_gbs * (n - 1) / (g - 1))


def gpu_stack(plan: Plan, catalog: Catalog) -> Stack:
    """The test tools of the plan's GPUs: AMD's where most of its GPUs are AMD Instinct."""
    counts = gpu_counts(plan, catalog)
    amd = sum(n * catalog[i].gpus for i, n in counts.items() if catalog[i].vendor == "AMD")
    return AMD if amd * 2 > sum(n * catalog[i].gpus for i, n in counts.items()) else NVIDIA


def _hosts(plan: Plan, catalog: Catalog, gpus_per_node: int) -> int:
    """Compute trays of the rack-scale system holding the most GPUs (1 for ordinary nodes)."""
    counts = gpu_counts(plan, catalog)
    types = [catalog.get(i) for i in counts]
    best = max((d for d in types if d is not None and d.gpus == gpus_per_node), key=lambda d: counts[d.id],
               default=None)
    return best.hosts if best is not None else 1


def acceptance_pack(plan: Plan, catalog: Catalog, report: Report | None = None) -> AcceptancePack:
    """The plan's acceptance tests (``report``: the plan's evaluation, if already made)."""
    settings = plan.settings
    fabric, storage_settings, w = settings.fabric, settings.storage, settings.workload
    fraction = fabric.acceptance_fraction
    nodes = summarise_nodes(gpu_counts(plan, catalog), catalog)
    report = report if report is not None else evaluate(plan, catalog)
    tests: list[AcceptanceTest] = []
    hosts_per_node = 1
    stack = gpu_stack(plan, catalog)
    if nodes.gpus:
        shape = job_shape(nodes, fabric)
        g = nodes.gpus_per_node
        tech = fabric.technology
        line = TECHNOLOGIES[tech].line_rate_gbps * nodes.nic_planes
        nic_rate = min(line, nodes.nic_gbps or line)
        nics = max(1, round(shape.nics_per_gpu * g))
        b_nv = (shape.nvlink_gbs / 2.0 if shape.nvlink_gbs > 0 else PCIE5_X16_GBS) * fabric.nvlink_efficiency
        nvlink_line = shape.nvlink_gbs / 2.0 if shape.nvlink_gbs > 0 else PCIE5_X16_GBS
        b_node = effective_gbs_per_gpu(fabric, tech, shape.nics_per_gpu, nodes.nic_gbps, nodes.nic_planes) * g
        line_node = nics * nic_rate / 8.0
        layout = Layout(nodes.nodes, g, _hosts(plan, catalog, g))
        hosts_per_node = layout.hosts
        host_nics = max(1, nics // layout.hosts)
        env = nccl_env(tech, host_nics, fabric.sharp, stack.device_prefix)
        kinds = ["all_reduce"]
        if w.enabled and model_shape(w).is_moe and w.ep > 1:
            kinds += ["all_gather", "reduce_scatter", "alltoall"]
        for kind in kinds:
            tests += _nccl_tests(kind, layout, b_nv, b_node, line_node, nvlink_line, latency_s(fabric, tech), env,
                                 fraction, stack, f"{nics} NICs x {nic_rate:g} Gb/s")
        if nodes.nodes > 1 or layout.hosts > 1:
            per_nic = round(nic_rate / 8.0 * efficiency(fabric, tech), 3)
            devices = " ".join(f"{stack.device_prefix}{i}" for i in range(host_nics))
            gid = f" -x {ROCE_GID_INDEX}" if TECHNOLOGIES[tech].transport == "roce" else ""
            bw = (f"ib_write_bw -d $d{gid} -F --report_gbits -s 8388608 -D 10 "
                  f"-p $((18515+${{d#{stack.device_prefix}}}))")
            tests.append(AcceptanceTest(
                "ib_write_bw", "perftest", f"ib_write_bw per NIC pair ({host_nics} NICs per host, {nic_rate:g} Gb/s)",
                (f"server (node A): for d in {devices}; do {bw} & done; wait",
                 f"client (node B): for d in {devices}; do {bw} NODE_A > ib_write_bw-$d.log & done; wait"),
                per_nic, round(fraction * per_nic, 3), nic_rate / 8.0))
        if stack.health == "dcgm":
            tests.append(AcceptanceTest(
                "dcgm.diag", "dcgm", f"DCGM diagnostics, level 3, every host ({nodes.nodes * layout.hosts})",
                ("dcgmi diag -r 3 -j > dcgm-$(hostname).json   # on each node; every test must report Pass",)))
        else:
            tests.append(AcceptanceTest(
                "rvs.gst", "rvs", f"ROCm Validation Suite GPU stress test, every host ({nodes.nodes * layout.hosts}); "
                "checked by hand",
                ("rvs -c /opt/rocm/share/rocm-validation-suite/conf/gst_single.conf > rvs-$(hostname).log   "
                 "# on each node; every GPU's test must report pass",)))
    tests += _storage_tests(report.storage, nodes.nodes, hosts_per_node, storage_settings.separate_checkpoint_pool,
                            fraction)
    return AcceptancePack(plan.name, nodes.nodes, nodes.gpus_per_node, fraction, tuple(tests), hosts_per_node, stack)


def fio_iodepth(target_gbs: float) -> int:
    """Requests in flight per job for ``FIO_JOBS`` jobs of ``FIO_BLOCK_BYTES`` to carry
    ``target_gbs`` at ``FIO_REQUEST_S`` each: target x latency / (jobs x block), rounded up."""
    return max(1, math.ceil(target_gbs * 1e9 * FIO_REQUEST_S / (FIO_JOBS * FIO_BLOCK_BYTES) - 1e-9))


def _fio_job(name: str, rw: str, directory: str, target_gbs: float) -> str:
    """One host's job: its own files in the shared directory ($clientuid: the host's address
    under ``fio --client``; fio names files jobname.jobnum.filenum otherwise, the same on
    every host), and a queue depth that can carry ``target_gbs``."""
    return (f"[global]\nioengine=libaio\ndirect=1\nbs={FIO_BLOCK_BYTES // (1 << 20)}M\nrw={rw}\nsize=16G\n"
            f"numjobs={FIO_JOBS}\niodepth={fio_iodepth(target_gbs)}\ngroup_reporting=1\ndirectory={directory}\n"
            "filename_format=$jobname.$clientuid.$jobnum.$filenum\n\n"
            f"[{name}]\n")


def _storage_tests(storage, nodes: int, hosts: int, separate: bool, fraction: float) -> list[AcceptanceTest]:
    """fio on one host (an NVL72's tray: its share of the rack's storage links) and on every host."""
    if storage is None or not storage.storage_devices or not nodes or storage.node_storage_gbs is None:
        return []
    per_node = storage.node_storage_gbs
    per_host = per_node / hosts
    ckpt, data = "/checkpoints", "/datasets" if separate else "/checkpoints"
    write_node = round(min(per_host, storage.write_gbs), 3)
    # every node at once shares its storage links as the storage network's leaves share their
    # uplinks (the storage section's oversubscription: 1 on one switch)
    links_all = nodes * per_node / storage.storage_oversubscription
    write_all = round(min(storage.write_gbs, links_all), 3)
    read_node = round(min(per_host, storage.read_gbs), 3)
    read_all = round(min(storage.read_gbs, links_all), 3)
    network = f"the {storage.storage_oversubscription:g}:1 storage network's"

    def limit(expected: float, filesystem: float) -> str:
        return "the filesystem's" if expected >= filesystem else network
    out = []
    per_host_target = {"write": write_node, "read": read_node}
    for tid, title, rw, where, job, exp, fs in (
            ("fio.checkpoint_write.node", "Checkpoint write, one host", "write", ckpt, "checkpoint-write", write_node,
             storage.write_gbs),
            ("fio.checkpoint_write.aggregate", f"Checkpoint write, all {nodes} nodes at once", "write", ckpt,
             "checkpoint-write", write_all, storage.write_gbs),
            ("fio.dataset_read.node", "Dataset read, one host", "read", data, "dataset-read", read_node,
             storage.read_gbs),
            ("fio.dataset_read.aggregate", f"Dataset read, all {nodes} nodes at once", "read", data, "dataset-read",
             read_all, storage.read_gbs)):
        file = f"{job}.fio"
        cmd = (f"fio --output-format=json {file} > {tid}.json" if tid.endswith(".node") else
               f"fio --client=hosts --output-format=json {file} > {tid}.json   # hosts: every node, fio --server running")
        out.append(AcceptanceTest(tid, "fio", title, (cmd,), exp, round(fraction * exp, 3),
                                  round(per_host, 3) if tid.endswith(".node") else round(nodes * per_node, 3),
                                  files=((file, _fio_job(job, rw, where, per_host_target[rw])),),
                                  limit=limit(exp, fs)))
    return out

"""What a vendor may sign: ``acceptance --results`` passes only when every test of the pack
passed on the whole cluster. The medium template: 16 nodes of 8 H100 (128 GPUs), 8 NDR NICs
and two 400G storage NICs a node (100 GB/s), 7 filesystem appliances of 25 GB/s write and
50 GB/s read (175 and 350 GB/s), a pass at 75 % of each expected figure."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from planner.acceptance.criteria import acceptance_pack
from planner.acceptance.results import judge_text
from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan

CAT = default_catalog()
DATA = Path(__file__).parent.parent / "data" / "acceptance"
RANK = re.compile(r"^#\s+Rank\s+(\d+)\s")


def two_nodes_of(log: str) -> str:
    """The cluster log as a run on its first 16 ranks (node000 and node001) would print it."""
    return "\n".join(ln for ln in log.splitlines() if not (m := RANK.match(ln)) or int(m.group(1)) < 16)


def dcgm(*failed: tuple[str, int, str]) -> str:
    """``dcgmi diag -r 3 -j`` of one 8-GPU host (DCGM 4 layout), with the (test, GPU, warning) given failed."""
    def results(test):
        bad = {gpu: why for name, gpu, why in failed if name == test}
        return [{"entity_group": "GPU", "entity_id": g, "status": "Fail" if g in bad else "Pass",
                 **({"warnings": [{"warning": bad[g], "error_id": 95}]} if g in bad else {})} for g in range(8)]
    return json.dumps({"DCGM Diagnostic": {"test_categories": [
        {"category": "Deployment", "tests": [{"name": "software", "results": results("software")}]},
        {"category": "Hardware", "tests": [{"name": "memory", "results": results("memory")}]},
        {"category": "Stress", "tests": [{"name": "targeted_stress", "results": results("targeted_stress")}]},
    ]}, "metadata": {"version": "4.2.3"}}, indent=1)


def fio(gbs: float, rw: str, clients: bool) -> str:
    job = {"jobname": "All clients" if clients else "checkpoint-write", rw: {"bw_bytes": int(gbs * 1e9)}}
    return json.dumps({"fio version": "fio-3.36", ("client_stats" if clients else "jobs"): [job]})


@pytest.fixture
def medium(tmp_path):
    path = tmp_path / "medium.json"
    save_plan(build_template("medium", catalog=CAT), path)
    return path


def every_result(folder: Path) -> Path:
    """A result for every test of the medium pack, each above its pass mark."""
    folder.mkdir()
    for name in ("nccl_all_reduce_cluster_good.log", "nccl_all_reduce_node_srun.log", "ib_write_bw_mlx5_0.log"):
        (folder / name).write_text((DATA / name).read_text())
    for i in range(16):
        (folder / f"dcgm-node{i:03d}.json").write_text(dcgm())
    # 95 % of 100 GB/s a node and of the filesystem's 175 GB/s write, 350 GB/s read
    for name, gbs, rw, clients in (("w-node", 95, "write", False), ("w-all", 166.25, "write", True),
                                   ("r-node", 95, "read", False), ("r-all", 332.5, "read", True)):
        (folder / f"fio-{name}.json").write_text(fio(gbs, rw, clients))
    return folder


def run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_every_test_passed_is_status_0(medium, tmp_path, capsys):
    code, out = run(capsys, "acceptance", medium, "--results", every_result(tmp_path / "res"))
    assert code == 0, out
    assert "8 tests: 8 passed, 0 failed, 0 missing: all passed" in out


def test_a_two_node_log_does_not_pass_the_16_node_test(medium, tmp_path, capsys):
    folder = every_result(tmp_path / "res")
    (folder / "nccl_all_reduce_cluster_good.log").write_text(
        two_nodes_of((DATA / "nccl_all_reduce_cluster_good.log").read_text()))
    code, out = run(capsys, "acceptance", medium, "--results", folder)
    assert code == 1
    line = next(ln for ln in out.splitlines() if "nccl.all_reduce.cluster" in ln)
    # 340 GB/s is above the 262.9 mark: the bandwidth is not why it fails
    assert line.startswith("FAIL") and "ran on 16 of the 128 GPUs on 2 hosts (node000, node001)" in line
    assert "all 16 nodes" in line


def test_a_node_log_on_half_the_gpus_does_not_pass_the_node_test():
    """The srun log of one node, its ranks 4 to 7 left out: 4 of the node's 8 GPUs ran."""
    pack = acceptance_pack(build_template("medium", catalog=CAT), CAT)
    log = "\n".join(ln for ln in (DATA / "nccl_all_reduce_node_srun.log").read_text().splitlines()
                    if not re.search(r"#\s+Rank\s+[4-7]\s", ln))
    (verdict,) = judge_text(pack, log, "half.log")
    assert verdict.test_id == "nccl.all_reduce.node" and verdict.passed is False
    assert "ran on 4 of the 8 GPUs on 1 host (gpu001): the test needs every GPU of the node" in verdict.line()


def test_a_diagnostic_reporting_fail_fails_and_names_the_gpu(medium, tmp_path, capsys):
    folder = every_result(tmp_path / "res")
    (folder / "dcgm-node007.json").write_text(dcgm(("memory", 3, "DBE error on GPU 3")))
    code, out = run(capsys, "acceptance", medium, "--results", folder, "--json")
    assert code == 1
    report = json.loads(out)
    dcgm_results = [r for r in report["results"] if r["test"] == "dcgm.diag"]
    failed = [r for r in dcgm_results if r["passed"] is False]
    assert len(dcgm_results) == 16 and [r["file"] for r in failed] == ["dcgm-node007.json"]
    assert "memory on GPU 3: DBE error on GPU 3" in failed[0]["problem"]
    assert report["all_passed"] is False


def test_every_expected_test_is_listed_passed_failed_or_missing(medium, tmp_path, capsys):
    folder = tmp_path / "res"
    folder.mkdir()
    (folder / "slow.log").write_text((DATA / "nccl_all_reduce_cluster_slow.log").read_text())
    for i in range(2):
        (folder / f"dcgm-node{i:03d}.json").write_text(dcgm())
    code, out = run(capsys, "acceptance", medium, "--results", folder)
    assert code == 1
    words = {}
    for ln in out.splitlines():
        m = re.match(r"(PASS|FAIL|MISSING) (\S+):", ln)
        if m:
            words.setdefault(m.group(2), set()).add(m.group(1))
    pack = acceptance_pack(build_template("medium", catalog=CAT), CAT)
    assert set(words) == {t.id for t in pack.tests}
    assert words["nccl.all_reduce.cluster"] == {"FAIL"}  # 140 GB/s, under 262.9
    assert words["fio.checkpoint_write.node"] == {"MISSING"}
    # DCGM runs on every host: 2 of 16 reported, both passed, 14 missing
    assert words["dcgm.diag"] == {"PASS", "MISSING"}
    assert "MISSING dcgm.diag: results of 2 of the 16 hosts; 14 hosts have none" in out
    # the DCGM test, short of hosts, counts as missing, not passed
    assert out.rstrip().endswith("8 tests: 0 passed, 1 failed, 7 missing: not accepted")


def test_a_gb200_unit_counts_its_144_trays_as_hosts(tmp_path, capsys):
    """8 NVL72 racks x 18 compute trays, each its own OS: DCGM runs on 144 hosts."""
    path = tmp_path / "gb200.json"
    save_plan(build_template("gb200-nvl72-su", catalog=CAT), path)
    folder = tmp_path / "res"
    folder.mkdir()
    for i in range(8):
        (folder / f"dcgm-rack{i}.json").write_text(dcgm())
    code, out = run(capsys, "acceptance", path, "--results", folder)
    assert code == 1 and "MISSING dcgm.diag: results of 8 of the 144 hosts; 136 hosts have none" in out


def test_roce_ib_write_bw_names_the_gid_index(tmp_path):
    plan = tmp_path / "roce.json"
    assert main(["new", "--gpus", "64", "--system", "dgx-h100", "--fabric", "eth400_roce", "-o", str(plan)]) == 0
    assert main(["acceptance", str(plan), "-o", str(tmp_path / "pack")]) == 0
    tests = {t["id"]: t for t in json.loads((tmp_path / "pack" / "acceptance-tests.json").read_text())["tests"]}
    # RoCE v2 on the ports' IPv4 GID: index 3 (show_gids), as NCCL_IB_GID_INDEX in the nccl-tests lines
    assert all(" -x 3 " in c for c in tests["ib_write_bw"]["commands"])
    assert "NCCL_IB_GID_INDEX=3" in tests["nccl.all_reduce.cluster"]["commands"][0]


def test_infiniband_ib_write_bw_has_no_gid_index():
    pack = acceptance_pack(build_template("medium", catalog=CAT), CAT)
    assert all(" -x " not in c for c in pack.test("ib_write_bw").commands)


def test_the_fio_job_gives_each_host_its_files_and_a_queue_deep_enough(tmp_path):
    pack = acceptance_pack(build_template("medium", catalog=CAT), CAT)
    job = dict(pack.test("fio.checkpoint_write.node").files)["checkpoint-write.fio"]
    options = dict(ln.split("=", 1) for ln in job.splitlines() if "=" in ln)
    assert "$clientuid" in options["filename_format"]  # fio --client: each host's address in its file names
    # one host's target: its two 400G storage NICs, 100 GB/s. 8 jobs of 1 MiB requests at
    # 1 ms each carry 8 x iodepth x 1.048576 MB / 1 ms: 12 deep = 100.7 GB/s, 11 = 92.3
    jobs, depth, block = int(options["numjobs"]), int(options["iodepth"]), 1 << 20
    assert (jobs, options["bs"]) == (8, "1M")
    assert depth == math.ceil(100e9 * 1e-3 / (8 * block)) == 12
    assert jobs * depth * block / 1e-3 >= 100e9 > jobs * (depth - 1) * block / 1e-3

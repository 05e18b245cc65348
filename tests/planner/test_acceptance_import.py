"""A folder of measured logs read file by file (what the app's Import shows) and the
"As built" variant recorded as one undoable command."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.acceptance.asbuilt import AS_BUILT, RECORD_LABEL, RecordAsBuilt
from planner.acceptance.criteria import acceptance_pack
from planner.acceptance.results import judge_text, read_results
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import CommandError, History
from planner.plan.variants import resolve_variant
from planner.report.evaluate import evaluate

CAT = default_catalog()
DATA = Path(__file__).parent.parent / "data" / "acceptance"


@pytest.fixture()
def plan():
    return build_template("medium", catalog=CAT)


@pytest.fixture()
def mixed(tmp_path):
    for name in ("nccl_all_reduce_cluster_slow.log", "ib_write_bw_mlx5_0.log", "nccl_truncated.log"):
        (tmp_path / name).write_text((DATA / name).read_text())
    (tmp_path / "notes.txt").write_text("rack 3 cabled on Tuesday")
    return tmp_path


def test_every_file_is_judged_on_its_own(plan, mixed):
    got = read_results(acceptance_pack(plan, CAT), mixed)
    assert [(v.test_id, v.file) for v in got.verdicts] == [
        ("ib_write_bw", "ib_write_bw_mlx5_0.log"), ("nccl.all_reduce.cluster", "nccl_all_reduce_cluster_slow.log")]
    assert [name for name, _ in got.unrecognised] == ["notes.txt"]
    # the truncated log names its file and the row that is cut
    lines = (DATA / "nccl_truncated.log").read_text().splitlines()
    cut = next(i for i, ln in enumerate(lines, 1) if ln.strip() and not ln.startswith("#") and len(ln.split()) < 13)
    assert got.errors == (got.errors[0],) and got.errors[0].startswith(f"nccl_truncated.log, line {cut}:")


def test_share_of_line_rate(plan, mixed):
    by_id = {v.test_id: v for v in read_results(acceptance_pack(plan, CAT), mixed).verdicts}
    # medium: 8 NDR NICs of 400 Gb/s per node = 8 x 50 = 400 GB/s; 140 GB/s measured = 35 %
    assert by_id["nccl.all_reduce.cluster"].line_rate_gbs == 400.0
    assert by_id["nccl.all_reduce.cluster"].share_of_line_rate == pytest.approx(0.35)
    # one NIC: 400 / 8 = 50 GB/s; 390.40 Gb/s measured = 48.8 GB/s = 97.6 %
    assert by_id["ib_write_bw"].share_of_line_rate == pytest.approx(390.40 / 400)


def test_record_as_built_is_one_undo_step(plan, mixed):
    pack = acceptance_pack(plan, CAT)
    verdicts = list(read_results(pack, mixed).verdicts)
    history = History(plan, CAT)
    before = plan.model_dump_json()
    command = RecordAsBuilt(pack, verdicts)
    history.apply(command)
    assert history.label == RECORD_LABEL and plan.variant_names[-1] == AS_BUILT
    assert plan.current_variant != AS_BUILT and len(command.notes) == 1  # the fabric (no fio log here)
    planned = evaluate(plan, CAT).workload.tokens_per_s
    assert evaluate(resolve_variant(plan, AS_BUILT), CAT).workload.tokens_per_s < planned
    history.undo()
    assert AS_BUILT not in plan.variant_names and plan.model_dump_json() == before
    history.redo()
    assert AS_BUILT in plan.variant_names
    # recorded again: the variant is replaced, not doubled
    history.apply(RecordAsBuilt(pack, verdicts))
    assert plan.variant_names.count(AS_BUILT) == 1


def test_nothing_to_record_is_refused_unchanged(plan, tmp_path):
    pack = acceptance_pack(plan, CAT)
    before = plan.model_dump_json()
    with pytest.raises(CommandError, match="no measured nccl-tests"):
        History(plan, CAT).apply(RecordAsBuilt(pack, []))
    assert plan.model_dump_json() == before


def test_an_nccl_log_is_known_by_its_header_at_a_line_start(plan):
    pack = acceptance_pack(plan, CAT)
    text = (DATA / "nccl_all_reduce_cluster_slow.log").read_text()
    no_banner = "\n".join(ln for ln in text.splitlines() if "nThread" not in ln)
    assert [v.measured_gbs for v in judge_text(pack, no_banner, "slow.log")] == [140.0]
    assert judge_text(pack, "notes: nccl-tests prints '#  size  count  type' first", "notes.txt") == []


@pytest.mark.parametrize("name, text, says", [
    # an ib_write_bw row whose average is not a number
    ("ib.txt", "#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]\n 65536 5000 390 abc 0.7\n",
     "ib.txt: a figure of this log cannot be read (ValueError"),
    # a DCGM diagnostic whose tests are a number, not a list
    ("dcgm.json", '{"DCGM GPU Diagnostic": {"test_categories": [{"tests": 5}]}}',
     "dcgm.json: a figure of this log cannot be read (TypeError"),
    # fio's JSON with an infinite bandwidth (1e999 reads as infinity)
    ("fio.json", '{"fio version": "fio-3.36", "jobs": [{"jobname": "w", "write": {"bw_bytes": 1e999}, '
                 '"read": {"bw_bytes": 0}}]}', "fio.json: a bandwidth of inf GB/s is no measurement"),
])
def test_a_log_whose_figures_cannot_be_read_is_refused_by_name(plan, name, text, says):
    from planner.acceptance.results import ResultError

    with pytest.raises(ResultError) as exc:
        judge_text(acceptance_pack(plan, CAT), text, name)
    assert str(exc.value).startswith(says)

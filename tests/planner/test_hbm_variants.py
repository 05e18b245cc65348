"""HBM variants of one GPU as distinct catalog types, worked by hand.

A100 SXM4 40GB (HBM2, 1,555 GB/s) and 80GB (HBM2e, 2,039 GB/s; the catalog's 2.04 TB/s) from
the NVIDIA A100 datasheet: the same 312 TFLOP/s GPU with less and slower memory, in a DGX
A100 320 GB (``dgx-a100-320``) and 640 GB (``dgx-a100``).
"""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.hardware.nodes import summarise_nodes
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.checks import evaluate_workload

CATALOG = default_catalog()


def _a100(device: str, **workload):
    w = WorkloadSettings(**workload)
    return evaluate_workload(w, FabricSettings(), summarise_nodes({device: 4}, CATALOG))


def test_llama3_70b_fits_four_a100_80gb_nodes_but_not_the_40gb_ones():
    # Llama 3 70B (70.6B parameters, Meta model card) over TP 8 x PP 4 = 32 GPUs, DP 1: a GPU
    # holds 70.6e9 / 32 = 2.206e9 parameters x 16 bytes (bf16 weights 2, gradients 2, fp32
    # master + Adam 12) = 35.3 GB of states, + 5 GB framework overhead = 40.3 GB before any
    # activation: more than 40 GB, and with DP 1 no sharding divides it.
    run = dict(model="llama3-70b", tp=8, pp=4, dp=1, global_batch_tokens=1_048_576)
    big, small = _a100("dgx-a100", **run), _a100("dgx-a100-320", **run)
    states_gb = big.memory.states_gb
    assert states_gb == pytest.approx(big.model.params * 16 / 32 / 1e9)
    assert states_gb == pytest.approx(35.3, abs=0.1)
    assert small.gpu_memory_gb == 40 and small.fits is False
    assert big.gpu_memory_gb == 80 and big.fits is True
    assert any(f.code.startswith("workload.memory") for f in small.findings if f.severity == "error")


def test_memory_bound_decode_runs_slower_on_a100_40gb_by_the_bandwidth_ratio():
    # decode at batch 1 on one GPU reads the weights and KV cache at HBM speed: its step time
    # scales with 1 / bandwidth, so tokens/s fall by 1,555 / 2,039 = 0.7626
    run = dict(enabled=False, inference=True, model="llama3-8b", inference_batch=1)
    big, small = _a100("dgx-a100", **run), _a100("dgx-a100-320", **run)
    ratio = small.inference.decode_tokens_per_s / big.inference.decode_tokens_per_s
    assert ratio == pytest.approx(1.555 / 2.04, rel=1e-3)

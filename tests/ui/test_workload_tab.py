"""The Workload settings tab exposes the training and inference settings with units and
sources, and choosing a model preset or a sharding changes the figures the app shows."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox

from planner.plan.commands import SetSetting

NEW_FIELDS = {
    # field: (a word of its unit in the label, a word of its source in the tooltip)
    "model": ("", "DeepSeek-V3"),
    "active_params_b": ("billion", "Mixture-of-experts"),
    "micro_batch_size": ("sequences", "Megatron-LM"),
    "ep": ("GPUs", "Megatron-LM"),
    "pp_schedule": ("", "Narayanan"),
    "virtual_stages": ("stages", "Narayanan"),
    "sharding": ("", "ZeRO"),
    "recompute": ("", "Korthikanti"),
    "memory_overhead_gb": ("GB", "NCCL buffers"),
    "mfu": ("fraction", "Narayanan et al."),
    "train_tokens_b": ("billion tokens", "15T"),
    "inference_gpus_per_replica": ("GPUs", "tensor-parallel group"),
    "prompt_tokens": ("tokens", "assumption"),
    "latency_ms_per_token": ("ms", "interactive"),
    "requests_per_s": ("requests/s", "sizes the GPUs"),
}


def test_workload_tab_shows_the_new_settings_with_units_and_sources(window):
    form = window.settings_panel.forms["workload"]
    for name, (unit_word, source_word) in NEW_FIELDS.items():
        assert name in form.editors, name
        assert unit_word in form.labels[name].text(), (name, form.labels[name].text())
        assert source_word in form.editors[name].widget.toolTip(), (name, form.editors[name].widget.toolTip())
    presets = form.editors["model"].widget
    assert isinstance(presets, QComboBox)
    assert [presets.itemText(i) for i in range(presets.count())][:3] == ["custom", "Llama 3 8B", "Llama 3 70B"]
    profile = window.settings_panel.forms["fabric"].editors["efficiency_profile"].widget
    assert "nccl-tests" in profile.toolTip()


def test_zero1_lowers_the_memory_a_gpu_needs(window):
    before = window.doc.report.workload.memory_per_gpu_gb
    window.doc.apply(SetSetting("workload", "sharding", "zero1"))
    after = window.doc.report.workload.memory_per_gpu_gb
    # DDP keeps 12 optimizer bytes per parameter on every DP rank, ZeRO-1 a quarter (DP 4):
    # 9 bytes x 70e9 / 32 parameters per GPU = 19.69 GB less
    assert before - after == pytest.approx(9 * 70e9 / 32 / 1e9, abs=1e-3)
    assert window.summary.text("mfu") is not None

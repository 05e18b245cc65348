"""Pipeline-parallel schedules: the bubble, the share of a step the stages wait.

With p stages and m micro-batches per step (Narayanan et al. 2021, "Efficient
Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", section 2.2):
- 1F1B (PipeDream-Flush): the bubble is (p - 1) micro-batch slots out of m + p - 1,
  so (p - 1) / (m + p - 1) of the step;
- interleaved, v model chunks per GPU: the bubble shrinks v-fold, (p - 1) / (v m + p - 1).
"""

from __future__ import annotations


def bubble_fraction(p: int, m: int, schedule: str = "1f1b", v: int = 1) -> float:
    """Fraction of the step the pipeline stages stand idle (module docstring)."""
    if p <= 1:
        return 0.0
    chunks = max(1, v) if schedule == "interleaved" else 1
    return (p - 1) / (chunks * max(1, m) + p - 1)

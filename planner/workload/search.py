"""The layouts a training job can run with, searched as practitioners prune them and each
evaluated by the step model the check uses: the design keeps the best, the report shows it
and the runners-up.

The global batch is the user's: a candidate splits its sequences into whole micro-batches
on every data-parallel replica, DP x micro-batch dividing them. The space (Narayanan et al.
2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
section 3: tensor parallel inside a server, pipeline across servers, data parallel for
the rest):

- TP: the powers of two within the NVLink domain that divide the attention heads;
- CP: 1, and for sequences of 16K tokens and more the powers of two that leave each rank at
  least 8K tokens (Llama 3 trained 131K-token sequences with CP 16: Dubey et al. 2024,
  The Llama 3 Herd of Models, table 4);
- PP: the divisors of the GPUs left, at most the layers, whose stages hold the layers evenly:
  PP divides the layers, or the layers + 2 (the first and last stages give one layer's slot
  each to the embedding and the output: Llama 3, section 3.3.2), or the uneven split of
  ``pipeline.stage_layers`` (the first and last stages with a layer fewer, as Megatron-Core's
  first/last-stage layer counts and pipeline layout set it: 61 layers on 8 stages as 7, 8 x 5,
  7 x 2) leaves its heaviest stage at most ``MAX_STAGE_EXCESS`` above the average. The step
  model spreads the layers evenly over the stages; the bound keeps the searched splits within
  what the output layer already unbalances an even split by, which the model does not count
  either (Llama 3 70B's output GEMM, 128,256 x 8,192, is 1.2 layers' work: the last of 8
  stages of 10 layers does 11.2 layers' work where the model spreads 10.2, 11 % more), and it
  passes DeepSeek-V3's and Kimi K2's 61 layers on 2 to 32 stages (at most 64 / 61: 4.9 %);
- DP: the rest;
- micro-batch: the divisors of the sequences per replica up to ``MAX_MICRO_BATCH``;
- schedule: 1F1B, and interleaved with v model chunks per rank where the micro-batches are
  a multiple of PP (Megatron-LM's interleaved schedule; the evaluation warns otherwise) and
  PP x v divides the layers (or the layers + 2), or v is a power of two whose uneven chunks
  leave the stages within the bound above (NeMo AutoModel's published Kimi K2 run: PP 8 x
  VP 4 over 61 layers; Megatron-Core's DeepSeek-V3 layout: PP 16 x VPP 2);
- EP (mixture-of-experts only): the powers of two that divide CP x DP and the experts, within
  a node or across nodes; and with TP above 1, the experts also folded at expert TP 1, EP
  then dividing TP x CP x DP (MoE parallel folding: Liu et al. 2025, arXiv 2504.14960; the
  Megatron-Core MoE model zoo's Qwen3-235B layouts run ETP 1 under TP 2 and 4);
- sharding: from DDP, from ZeRO-1 (Megatron-LM's distributed optimizer) and from ZeRO-3
  (FSDP full shard), each with the least recompute, then the least more sharding, that
  fits in GPU memory (``fit_training``, as the evaluation fits a job): less memory for the
  optimizer can mean less recompute. ZeRO-3 also with a pipeline, as NeMo AutoModel and
  torchtitan run FSDP over the data-parallel group of each stage (AutoModel's DeepSeek-V3
  and Kimi K2 runs: PP 4 and 8 under FSDP, with EP), but only for memory: for a split that
  neither DDP nor ZeRO-1 fits with any recompute (Kimi K2's experts on 256 H100: TP 2 x PP
  8 x EP 8 leaves 8.0B expert parameters a GPU, 80 GB of states under ZeRO-1). ZeRO-3's
  gathers run on every micro-batch and hide behind each layer's compute only as far as it
  lasts (``overlap``), so fewer, larger micro-batches can win under it. ZeRO-2 never with a
  pipeline: the gradients accumulate over the micro-batches (DeepSpeed refuses ZeRO-2 with
  pipeline parallelism).

Candidates are ranked by goodput, the tokens/s a run keeps after failures: tokens/s x the
effective training time ratio. In the goodput model the ratio is the same for every layout
of one plan (failures come from the parts, the checkpoint from the model's bytes and the
storage), so the ranking is the step model's tokens/s.

When no layout splits the batch evenly, each takes the nearest whole number of
micro-batches; those within ``BATCH_TOLERANCE`` of the asked batch compete, else the
nearest, and the design says so.

Why it is long: the space, its pruning rules (each with its source) and the ranking are one
concern, the search; the step model and the memory fit it calls live in their own modules.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from planner.numbers import counted
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.fit import SHARDING_LADDER, fit_training
from planner.workload.models import ModelShape
from planner.workload.pipeline import interleaved_allows, stage_layers
from planner.workload.training import JobShape, StepResult, model_step

MAX_MICRO_BATCH = 16  # Planner assumption: larger micro-batches gain nothing once the GEMMs are large
MIN_CP_TOKENS = 8192  # Planner assumption: a CP rank keeps at least 8K tokens of a sequence (Llama 3 ran 131K / 16)
CP_FROM_TOKENS = 16384  # context parallel is considered from 16K-token sequences on
MAX_CP = 32
# Planner assumption: a batch within 5 % of the asked one trains alike (the critical batch
# size varies smoothly: McCandlish et al. 2018, "An Empirical Model of Large-Batch Training").
BATCH_TOLERANCE = 0.05
LIGHT_KEY = ("fits without sharding the weights",)  # marks a layout ZeRO-1 or DDP fits
LIGHT = frozenset({LIGHT_KEY})
MAX_STAGE_EXCESS = 1 / 16  # Planner assumption: the uneven stages searched (module docstring)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One layout, fitted and timed."""

    settings: WorkloadSettings
    step: StepResult
    memory_gb: float
    batch_sequences: int
    stages: tuple[int, ...] = ()  # the layers each pipeline stage holds (``pipeline.stage_layers``)

    @property
    def tokens_per_s(self) -> float:
        return self.step.tokens_per_s

    @property
    def shape(self) -> tuple[int, int, int, int, int, int]:
        """(TP, CP, PP, DP, EP, ETP): how the GPUs are split, whatever the schedule and micro-batch."""
        w = self.settings
        return (w.tp, w.cp, w.pp, w.dp, w.ep, w.expert_tp or w.tp)

    @property
    def layout(self) -> tuple:
        w = self.settings
        return (w.tp, w.cp, w.pp, w.dp, w.ep, w.micro_batch_size, w.pp_schedule, w.virtual_stages,
                w.expert_tp or w.tp)

    def describe(self) -> str:
        w = self.settings
        text = split_text(w) + f", micro-batch {w.micro_batch_size}"
        if w.pp > 1:
            text += (f", interleaved v {w.virtual_stages}" if w.pp_schedule == "interleaved" else ", 1F1B")
        if len(set(self.stages)) > 1:
            text += f", {_runs(self.stages)}"
        return text


def split_text(w: WorkloadSettings) -> str:
    """'TP 2 x PP 8 x DP 16 x EP 32, experts at TP 1': how a layout splits the GPUs."""
    parts = [f"TP {w.tp}"] + ([f"CP {w.cp}"] if w.cp > 1 else []) + [f"PP {w.pp}", f"DP {w.dp}"]
    parts += [f"EP {w.ep}"] if w.ep > 1 else []
    return " x ".join(parts) + (f", experts at TP {w.expert_tp}" if w.expert_tp and w.expert_tp != w.tp else "")


def _runs(sizes: tuple[int, ...]) -> str:
    """'1 stage of 7 layers, then 5 stages of 8 layers, then 2 stages of 7 layers': the stage
    sizes in order, repeats counted."""
    parts: list[list[int]] = []
    for n in sizes:
        if parts and parts[-1][0] == n:
            parts[-1][1] += 1
        else:
            parts.append([n, 1])
    return ", then ".join(f"{counted(k, 'stage')} of {counted(n, 'layer')}" for n, k in parts)


@dataclass(frozen=True, slots=True)
class Search:
    """The candidates best first (at most ``keep``), how many were evaluated, and the batch
    the asked one became (``asked_sequences`` when it was kept)."""

    candidates: tuple[Candidate, ...]
    evaluated: int
    asked_sequences: int
    # a batch of tokens between two whole numbers of sequences is kept by either (both asked)
    asked_options: tuple[int, ...] = ()
    nearest: Candidate | None = None  # of the batches that are not the asked one, the closest that fits

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def batch_kept(self) -> bool:
        return self.best is not None and self.best.batch_sequences in (self.asked_options or (self.asked_sequences,))


def _powers_of_two(limit: int) -> list[int]:
    return [1 << k for k in range(max(0, limit).bit_length()) if 1 << k <= limit]


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _even_stages(layers: int, slots: int) -> bool:
    return layers % slots == 0 or (layers + 2) % slots == 0


def _stages_fit(layers: int, pp: int, v: int = 1) -> bool:
    """Whether ``pp`` stages of ``v`` chunks each are searched (module docstring): an even split,
    or one whose chunks each hold a layer (but for the embedding's and the output's at the ends)
    and whose heaviest stage holds at most ``MAX_STAGE_EXCESS`` more than the average."""
    slots = pp * v
    if _even_stages(layers, slots):
        return True
    if slots > layers:
        return False
    return max(stage_layers(layers, pp, v)) <= (1.0 + MAX_STAGE_EXCESS) * layers / pp + 1e-9


def tp_splits_heads(model: ModelShape, tp: int) -> bool:
    """Tensor parallel splits the attention heads over its ranks: TP divides them (Megatron-LM
    asserts num_attention_heads % tensor_model_parallel_size == 0)."""
    return model.heads % tp == 0


def tp_options(model: ModelShape, local: int) -> list[int]:
    """The TPs a layout may take: powers of two within the NVLink domain that split the heads."""
    return [t for t in _powers_of_two(local) if tp_splits_heads(model, t)]


def _cp_options(seq_len: int) -> list[int]:
    if seq_len < CP_FROM_TOKENS:
        return [1]
    return [c for c in _powers_of_two(MAX_CP) if c == 1 or seq_len // c >= MIN_CP_TOKENS and seq_len % c == 0]


def _shapes(model: ModelShape, shape: JobShape, gpus: int, seq_len: int) -> Iterator[tuple[int, int, int, int]]:
    """(TP, CP, PP, DP) over every GPU, pruned as the module docstring says."""
    for tp in tp_options(model, shape.local_gpus):
        for cp in _cp_options(seq_len):
            if gpus % (tp * cp):
                continue
            rest = gpus // (tp * cp)
            for pp in _divisors(rest):
                if pp <= model.layers and _stages_fit(model.layers, pp):
                    yield tp, cp, pp, rest // pp


# Model chunks a stage runs under the interleaved schedule, at most: published layouts run 2 to 8
# (Llama 3 405B: 8, Dubey et al. 2024, section 3.3.2; DeepSeek-V3's DualPipe: 2), and a stage
# of 63 layers may run one a chunk; a custom model of thousands of layers would try thousands
# of schedules (planner assumption: a bound on the search's time, not a rule of the schedule).
MAX_VIRTUAL_STAGES = 64


def _schedules(model: ModelShape, pp: int, m: int) -> list[tuple[str, int]]:
    out = [("1f1b", 1)]
    if interleaved_allows(pp, m):
        out += [("interleaved", v) for v in range(2, min(model.layers // pp, MAX_VIRTUAL_STAGES) + 2)
                if _even_stages(model.layers, pp * v) or (v & (v - 1) == 0 and _stages_fit(model.layers, pp, v))]
    return out


def _expert_options(model: ModelShape, tp: int, cp: int, dp: int) -> list[tuple[int | None, int]]:
    """(expert TP, EP) pairs: None = the attention's TP (module docstring)."""
    if not model.is_moe:
        return [(None, 1)]
    out: list[tuple[int | None, int]] = []
    for etp in ([None, 1] if tp > 1 else [None]):
        ranks = dp * cp * (tp // (etp or tp))
        out += [(etp, e) for e in _powers_of_two(min(ranks, model.experts)) if ranks % e == 0 and model.experts % e == 0
                and (etp is None or e > 1)]
    return out


def _sharding_options(asked: str, pp: int) -> list[str]:
    """Where the sharding ladder starts: the asked sharding, and ZeRO-1 and (without a
    pipeline) ZeRO-3 above it."""
    if asked not in SHARDING_LADDER:
        return [asked]
    above = SHARDING_LADDER[SHARDING_LADDER.index(asked):]
    return [s for s in above if s in (asked, "zero1", "zero3")]


def search_layouts(w: WorkloadSettings, model: ModelShape, fabric: FabricSettings, shape: JobShape, gpus: int,
                   memory_gb: float | None, *, keep: int = 3) -> Search:
    """The best ``keep`` layouts of ``gpus`` GPUs for ``w``'s model and batch (module docstring)."""
    asked = max(1, round(w.global_batch_tokens / w.seq_len))
    # 4,000,000 tokens of 4,096 are 976.6 sequences: 976 and 977 are both the batch asked (each
    # within the tolerance of it); 6,000 tokens are 1.46 sequences: only the nearest, 1
    whole = {max(1, w.global_batch_tokens // w.seq_len), max(1, -(-w.global_batch_tokens // w.seq_len))}
    options = tuple(sorted({asked} | {n for n in whole
                                      if abs(n * w.seq_len / w.global_batch_tokens - 1) <= BATCH_TOLERANCE}))
    # recompute and sharding are searched from the bottom of their ladders, whatever the plan has now
    w = w.model_copy(update={"recompute": "auto", "recompute_layers": None,
                             "sharding": SHARDING_LADDER[0] if w.sharding in SHARDING_LADDER else w.sharding})
    exact: list[Candidate] = []
    near: list[tuple[float, Candidate]] = []  # (relative change of the batch, candidate)
    evaluated = 0
    for tp, cp, pp, dp in _shapes(model, shape, gpus, w.seq_len):
        domain_ranks = max(1, shape.local_gpus // tp)
        splits = [(mb, a) for a in options if a % dp == 0 for mb in _divisors(a // dp) if mb <= MAX_MICRO_BATCH]
        if not splits:  # no even split: the nearest whole number of micro-batches of one sequence
            splits = [(1, max(1, round(asked / dp)) * dp)]
        for mb, seqs in splits:
            m = seqs // (dp * mb)
            for schedule, v in _schedules(model, pp, m):
                for etp, ep in _expert_options(model, tp, cp, dp):
                    fitted: set[tuple] = set()
                    for sharding in _sharding_options(w.sharding, pp):
                        if pp > 1 and sharding == "zero3" and fitted & LIGHT:
                            continue  # with a pipeline, ZeRO-3 only where ZeRO-1 cannot fit (module docstring)
                        cand = w.model_copy(update={
                            "tp": tp, "cp": cp, "pp": pp, "dp": dp, "ep": ep, "expert_tp": etp,
                            "micro_batch_size": mb,
                            "pp_schedule": schedule, "virtual_stages": v, "sharding": sharding,
                            "global_batch_tokens": seqs * w.seq_len})
                        fit = fit_training(cand, model, available_gb=memory_gb, domain_ranks=domain_ranks)
                        evaluated += 1
                        run = fit.settings
                        key = (run.sharding, run.recompute, run.recompute_layers)
                        if run.sharding in ("ddp", "zero1"):
                            fitted.add(LIGHT_KEY)
                        if fit.fits is False or key in fitted or (pp > 1 and run.sharding == "zero2"):
                            continue
                        fitted.add(key)
                        found = Candidate(run, model_step(run, fabric, shape, model=model), fit.memory.total_gb, seqs,
                                          stage_layers(model.layers, pp, v))
                        if seqs in options:
                            exact.append(found)
                        else:
                            near.append((abs(seqs * w.seq_len / w.global_batch_tokens - 1), found))
    closest = None
    if exact:
        pool = exact
    elif near:
        nearest = min(change for change, _ in near)
        pool = [c for change, c in near if change <= max(nearest, BATCH_TOLERANCE) + 1e-12]
        closest = max((c for change, c in near if change <= nearest + 1e-12), key=lambda c: c.tokens_per_s)
    else:
        pool = []
    pool.sort(key=lambda c: -c.tokens_per_s)
    # one entry a split of the GPUs, its best schedule, micro-batch, sharding and recompute: the
    # runners-up are other splits, not the same one with another schedule
    distinct: dict[tuple, Candidate] = {}
    for c in pool:
        distinct.setdefault(c.shape, c)
    return Search(tuple(list(distinct.values())[:keep]), evaluated, asked, options, closest)

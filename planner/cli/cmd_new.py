"""cluster-planner new: write a plan designed from an intent (flags), a template, or both
(the template's intent with the flags over it)."""

from __future__ import annotations

import argparse
import difflib
import json
import math
import typing
from pathlib import Path
from typing import Any

from planner.cli import load_catalog_arg
from planner.design.build import DesignError
from planner.design.serving_system import design_serving
from planner.design.templates import design_from, get_template
from planner.numbers import counted
from planner.plan.fileio import EXPORT_SUFFIXES, save_plan, save_plan_refusal
from planner.report.evaluate import evaluate
from planner.save_target import check_target
from planner.settings import Settings
from planner.settings.fabric import FabricTech
from planner.settings.workload import AttentionKernel, ModelPreset

_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


def _count(name: str, low: int, high: int):
    def parse(text: str) -> int:
        try:
            n = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of {name}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"--{name} takes {low:,} to {high:,}")
        return n
    return parse


def _positive(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    if not x > 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be above 0")
    return x


def _oversubscription(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not (math.isfinite(x) and x >= 1):
        raise argparse.ArgumentTypeError(f"'{text}' must be at least 1 (1:1 is non-blocking; 3 is 3:1)")
    return x


def _tokens(text: str) -> float:
    """Tokens to train, in billions: '15T', '300B', '2.5e12'."""
    t = text.strip().lower()
    unit = t[-1] if t and t[-1] in "kmbt" else ""
    try:
        x = float(t[:-1] if unit else t) * _SCALE[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a token count (e.g. 15T, 300B, 2.5e12)") from None
    if not 1e6 <= x <= 1e16:
        raise argparse.ArgumentTypeError("--train-tokens takes 1M to 10,000T tokens")
    return x / 1e9


def _batch(text: str) -> int:
    """A global batch in tokens: '16M' (2^20 tokens a million, as batches are quoted), '4194304'."""
    t = text.strip().lower().replace(",", "").replace("_", "")
    unit = t[-1] if t and t[-1] in "km" else ""
    try:
        x = float(t[:-1] if unit else t) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a token count (e.g. 16M, 4194304)") from None
    if not 1 <= x <= 1e12 or x != int(x):
        raise argparse.ArgumentTypeError("--batch-tokens takes a whole number of tokens, 1 to 10^12")
    return int(x)


FIELDS_SHOWN = 12  # the fields an unknown --set field's message names (a line is cut at 500 characters)


def _setting(text: str) -> tuple[str, str, Any]:
    """--set SECTION.FIELD=VALUE: a setting of the plan by its name in the plan file; the value
    read as JSON where it is one (20, 1.3, true, null), else as text (in_place)."""
    key, equals, value = text.partition("=")
    section, dot, field = key.strip().partition(".")
    if not (equals and dot and section and field):
        raise argparse.ArgumentTypeError(f"'{text}' is not SECTION.FIELD=VALUE (e.g. schedule.plant=new)")
    sections = Settings.model_fields
    if section not in sections:
        raise argparse.ArgumentTypeError(f"there is no settings section '{section}' (sections: {', '.join(sections)})")
    fields = sections[section].annotation.model_fields
    if field not in fields:
        close = difflib.get_close_matches(field, list(fields), n=3)
        names = list(fields)
        more = f" and {len(names) - FIELDS_SHOWN} more: the keys of settings.{section} in a plan file" \
            if len(names) > FIELDS_SHOWN else ""
        hint = f": did you mean {' or '.join(close)}?" if close else \
            f" ('{section}' has {', '.join(names[:FIELDS_SHOWN])}{more})"
        raise argparse.ArgumentTypeError(f"settings section '{section}' has no field '{field}'{hint}")
    try:
        read = json.loads(value)
    except ValueError:
        read = value.strip()
    return section, field, read


ERRORS_SHOWN = 5  # errors of the new plan printed by new (check lists them all)

# flag -> intent field
INTENT_FLAGS = ("gpus", "nodes", "system", "rack_kw", "cooling", "power_basis", "fabric", "switch", "tiers",
                "oversubscription", "model", "params_b", "train_tokens_b", "seq_len", "batch_tokens", "attention_kernel",
                "floor_rating_kg_m2", "air_cooling_limit_kw", "write_gbs_per_node", "spare_nodes", "checkpoint_write_s", "storage_capacity_tb",
                "inference", "requests_per_s", "prompt_tokens", "output_tokens", "latency_ms_per_token")


def register(sub) -> None:
    p = sub.add_parser("new", help="write a new plan designed from an intent or a template")
    p.add_argument("--template", "-t", help="start from this template's intent (see 'templates'); "
                   "default medium when no --system is given")
    p.add_argument("--system", help="GPU node or rack-scale system (catalog id, see 'catalog')")
    p.add_argument("--gpus", type=_count("gpus", 1, 1_000_000), help="GPUs (rounded up to whole systems)")
    p.add_argument("--nodes", type=_count("nodes", 1, 100_000), help="GPU nodes (or rack-scale systems)")
    p.add_argument("--rack-kw", dest="rack_kw", type=_positive, help="rack power cap, kW")
    p.add_argument("--cooling", choices=["air", "liquid", "auto"], help="rack cooling; auto: what the system needs")
    p.add_argument("--power-basis", choices=["typical", "nameplate"], help="lay racks out on this power basis")
    p.add_argument("--fabric", choices=typing.get_args(FabricTech), help="compute-fabric technology")
    p.add_argument("--switch", help="compute-fabric switch (catalog id); default: one speaking --fabric")
    p.add_argument("--tiers", choices=["auto", "2", "3"], help="fat-tree tiers")
    p.add_argument("--oversubscription", type=_oversubscription, help="leaf oversubscription (1 = non-blocking)")
    p.add_argument("--model", choices=typing.get_args(ModelPreset), help="model preset to train")
    p.add_argument("--params-b", dest="params_b", type=_positive, help="custom model size, billion parameters")
    p.add_argument("--train-tokens", dest="train_tokens_b", type=_tokens, help="tokens to train (15T, 300B)")
    p.add_argument("--seq-len", dest="seq_len", type=_count("seq-len", 1, 10_000_000),
                   help="training sequence length, tokens")
    p.add_argument("--batch-tokens", dest="batch_tokens", type=_batch,
                   help="global batch in tokens (16M, 4194304); kept as asked where a layout can split it")
    p.add_argument("--attention-kernel", dest="attention_kernel", choices=typing.get_args(AttentionKernel),
                   help="the attention kernel the training stack runs: flash2 (FlashAttention-2), cudnn "
                   "(Transformer Engine: Megatron-Core, NeMo), flash3 (FlashAttention-3); default auto, the GPU's "
                   "first measured kernel")
    p.add_argument("--write-gbs-per-node", dest="write_gbs_per_node", type=_positive,
                   help="checkpoint write target per node, GB/s (sizes storage)")
    p.add_argument("--floor-rating", dest="floor_rating_kg_m2", type=_positive, help="floor rating, kg/m²")
    p.add_argument("--air-limit", dest="air_cooling_limit_kw", type=_positive, help="air-cooling limit per rack, kW")
    p.add_argument("--spares", dest="spare_nodes", type=_count("spares", 0, 100_000),
                   help="hot spare nodes placed beyond the job's; default: spares for 99%% of the failures of "
                   "the units expected in repair at once, hot on the fabric's free ports, the rest (a rack-scale "
                   "system's trays) stocked")
    p.add_argument("--checkpoint-write-s", dest="checkpoint_write_s", type=_positive,
                   help="a full checkpoint written within this many seconds (sizes storage)")
    p.add_argument("--storage-tb", dest="storage_capacity_tb", type=_positive, help="storage capacity, TB, at least")
    p.add_argument("--inference", action="store_true", default=None, help="size an inference service, not training")
    p.add_argument("--requests-per-s", dest="requests_per_s", type=_positive,
                   help="inference target; with --inference and no --gpus / --nodes it sizes the GPUs")
    p.add_argument("--prompt-tokens", dest="prompt_tokens", type=_count("prompt-tokens", 1, 10_000_000),
                   help="inference prompt length, tokens")
    p.add_argument("--output-tokens", dest="output_tokens", type=_count("output-tokens", 1, 10_000_000),
                   help="inference output length, tokens")
    p.add_argument("--latency-ms", dest="latency_ms_per_token", type=_positive,
                   help="inference latency target per output token, ms")
    p.add_argument("--set", dest="settings", type=_setting, action="append", metavar="SECTION.FIELD=VALUE",
                   help="any setting of the plan, by its name in the plan file (the Settings dialog's tooltips "
                   "give each default's source): --set schedule.plant=new --set facility.pue=1.3; repeat "
                   "for more; a flag above that says the same wins")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the plan (.json)")
    flags = {a.dest: a.option_strings[-1] if a.option_strings[-1].startswith("--") else a.option_strings[0]
             for a in p._actions if a.option_strings and a.dest in INTENT_FLAGS}
    p.set_defaults(run=run, flag_of=flags)


def _intent_changes(args) -> dict:
    changes = {k: getattr(args, k) for k in INTENT_FLAGS if getattr(args, k, None) is not None}
    if args.model is not None and args.model != "custom":
        changes.setdefault("params_b", None)
    if args.settings:
        settings: dict[str, dict[str, Any]] = {}
        for section, field, value in args.settings:
            if (section, field) in AS_FLAGS and AS_FLAGS[section, field] not in changes:
                changes[AS_FLAGS[section, field]] = value  # the user's fabric: a flag's, refused as one
                continue
            settings.setdefault(section, {})[field] = value
        if settings:
            changes["settings"] = settings
        if settings.get("workload", {}).get("inference") is True:
            changes["inference"] = True  # as --inference: the design sizes a service
    return changes


# --set values that say what a flag says: taken as the flag (the design refuses a fabric the
# system's NICs cannot run when the user names it, and adapts a template's)
AS_FLAGS = {("fabric", "technology"): "fabric", ("fabric", "switch_device"): "switch"}

LAYOUT_FIELDS = ("tp", "pp", "dp", "cp", "ep", "expert_tp")  # the design searches these unless a whole layout is stated


def _overridden(plan, sets) -> list[str]:
    """The --set values the plan does not hold: a flag said otherwise, or the design sized it."""
    out = []
    whole = {"tp", "pp", "dp"} <= {field for section, field, _ in sets or () if section == "workload"}
    for section, field, value in sets or ():
        held = getattr(getattr(plan.settings, section), field)
        preset = plan.settings.workload.model
        if section == "workload" and field in plan.settings.workload.unused_fields():  # a preset's own shape
            out.append(f"--set {section}.{field}={json.dumps(value)}: not used, the model preset {preset} has its own "
                       "shape; --model custom takes the shape from the settings")
        elif held != value:
            why = ("from a flag or the design's sizing" if section != "workload" or field not in LAYOUT_FIELDS
                   else "the layout asked for did not hold (the design's note says why)" if whole
                   else "the design keeps a stated layout only when it holds whole: state tp, pp and dp together")
            out.append(f"--set {section}.{field}={json.dumps(value)}: the plan holds {json.dumps(held, default=str)}, "
                       + why)
    return out


# flags that describe an inference service: they size nothing on a training plan
SERVING_FLAGS = {"requests_per_s": "--requests-per-s", "latency_ms_per_token": "--latency-ms",
                 "prompt_tokens": "--prompt-tokens", "output_tokens": "--output-tokens"}


def _serves(template: str | None) -> bool:
    """Whether a template's intent is an inference service."""
    if template is None:
        return False
    return get_template(template).serves


def _design(args, catalog):
    if args.gpus is not None and args.nodes is not None:
        raise DesignError(f"--gpus {args.gpus:,} and --nodes {args.nodes:,} both size the plan: give one of them")
    serving = [flag for key, flag in SERVING_FLAGS.items() if getattr(args, key) is not None]
    service = args.inference or any(s == "workload" and f == "inference" and v is True
                                    for s, f, v in args.settings or ())
    if serving and not service and not _serves(args.template):
        raise DesignError(f"{' and '.join(serving)} describe{'s' if len(serving) == 1 else ''} an inference "
                          "service: add --inference (or start from -t inference)")
    changes = _intent_changes(args)
    if args.template is None and args.system is None and service and args.requests_per_s and (
            args.gpus is None and args.nodes is None):
        return design_serving(catalog, **changes)  # the system is a search of its own
    if args.template is None and args.system is not None:
        if args.gpus is None and args.nodes is None and not (service and args.requests_per_s):
            raise DesignError("--system needs --gpus or --nodes (or --inference with --requests-per-s)")
        return design_from(None, catalog, **changes)
    return design_from(args.template or "medium", catalog, **changes)


def run(args) -> int:
    check_target(args.output, args.catalog)  # refuse a bad target before building anything
    if Path(args.output).suffix.lower() in EXPORT_SUFFIXES:  # a plan under an export's name: said before the design
        save_plan_refusal(args.output)
    catalog = load_catalog_arg(args)
    try:
        result = _design(args, catalog)
    except DesignError as exc:  # an intent field named as the flag that gave it ("--rack-kw: ...")
        field, sep, rest = str(exc).partition(": ")
        flag = getattr(args, "flag_of", {}).get(field)
        raise DesignError(f"{flag}: {rest}" if sep and flag else str(exc)) from None
    plan = result.plan
    save_plan(plan, args.output, inputs=args.catalog)
    racks, devices = len(plan.racks), len(plan.placements)
    print(f"wrote {args.output}: {plan.name}, {racks:,} rack{'' if racks == 1 else 's'}, "
          f"{devices:,} device{'' if devices == 1 else 's'}")
    for f in result.findings:
        print(f"  {f.severity}: {f.message}")
    for line in _overridden(plan, args.settings):
        print(f"  note: {line}")
    # what the intent asked and the plan cannot hold (a GPU count too small for the stated
    # requests per second, a rack cap a system cannot meet) said now, not first by check
    errors = [f for f in evaluate(plan, catalog).findings if f.severity == "error"]
    for f in errors[:ERRORS_SHOWN]:
        print(f"  ERROR {f.code}: {f.message}")
    if errors:
        more = f" ({len(errors) - ERRORS_SHOWN:,} more)" if len(errors) > ERRORS_SHOWN else ""
        fixable = sum(f.remedy is not None for f in errors)
        fix = (f", 'cluster-planner fix' clears the {fixable:,} with a remedy" if 0 < fixable < len(errors) else
               ", 'cluster-planner fix' clears them" if fixable else "; none has an automatic fix")
        print(f"the plan has {counted(len(errors), 'error')}{more}: "
              f"'cluster-planner check {args.output}' lists them{fix}")
    return 0

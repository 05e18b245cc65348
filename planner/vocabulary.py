"""The product's words for quantities and choices: one place turns a figure into text.

Two styles of the same figure:

- ``exact`` — tables, the workbook, the ``check`` text, the vendor pack: every digit a
  reader may quote, thousands grouped, the figure's own unit ("152,345.6 kW", "$5,432,100");
- ``compact`` — the summary strip, rack headers, chart labels: SI-scaled to three or four
  significant figures ("152.35 MW", "$5.43M", "7 kW").

Choices (fabric technologies, topologies, cooling, power basis, ...) have one title each
(``choice_title``); every surface — Settings, the report, the exports — shows that title.
Units are the report's unit kinds (``planner.figures``): "" for counts, "kW", "W",
"$", "$/month", "ms", "GB/s", "%", "fraction", ":1", ... ``None`` reads as ``none``.
"""

from __future__ import annotations

from typing import Any

from planner.network.technologies import TECHNOLOGIES
from planner.schedule.model import PART_NAMES
from planner.workload.kernels import ATTENTION_KERNELS

# Titles of the settings' and report's choices, by their stored value.
CHOICES: dict[str, str] = {
    "typical": "typical draw", "nameplate": "nameplate (max)",
    "per_nodes": "one per N nodes", "capacity": "by CDU capacity (kW)",
    "rail_optimized": "rail-optimised fat tree", "fat_tree": "fat tree", "leaf_spine": "leaf-spine",
    "auto": "automatic", "separate": "separate network", "shared": "shared with compute",
    "ddp": "DDP (replicated)", "fsdp_full": "FSDP full shard", "fsdp_hybrid": "FSDP hybrid shard",
    "air": "air-cooled", "liquid": "liquid-cooled",
    "zero1": "ZeRO-1 (optimizer sharded)", "zero2": "ZeRO-2 (+ gradients)", "zero3": "ZeRO-3 (+ weights)",
    "selective": "selective (attention)", "selective_moe": "selective + MoE layers", "full": "full (whole layers)",
    "none": "none",
    "1f1b": "1F1B", "interleaved": "interleaved (virtual stages)",
    "measured": "measured (nccl-tests)", "planning_guide": "N. Dixit's guide, fabric table", "custom": "custom",
    "gpu_power_floor": "GPU power floor", "site_battery": "site battery", "rack_storage": "rack energy storage",
    "llama3-8b": "Llama 3 8B", "llama3-70b": "Llama 3 70B", "llama3-405b": "Llama 3 405B",
    "deepseek-v3": "DeepSeek-V3 671B (37B active)", "mixtral-8x7b": "Mixtral 8x7B (12.9B active)",
    "kimi-k2": "Kimi K2 1.04T (32B active)", "qwen3-30b-a3b": "Qwen3-30B-A3B (3.3B active)",
    "qwen3-235b-a22b": "Qwen3-235B-A22B (22B active)",
    "hall": "hall by hall", "scalable_unit": "scalable unit by scalable unit", "plan": "all at once",
    "new": "ordered new", "in_place": "already in place",
    "install": "installation", "energized": "at energization", "first_phase": "with the first phase",
} | {tech.id: tech.title for tech in TECHNOLOGIES.values()} | PART_NAMES | ATTENTION_KERNELS


# Units that are counted nouns, and the noun for one of them.
_ONE = {"tokens": "token", "GPUs": "GPU", "months": "month", "weeks": "week", "days": "day"}


def choice_title(value: Any) -> str:
    """The title of a stored choice ("ib400" -> "400G InfiniBand (NDR)"); other values as they are."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return CHOICES.get(value, str(value)) if isinstance(value, str) else str(value)


# Exact style: unit kind -> format of the number and the text around it.
_EXACT: dict[str, str] = {
    "": "{:,.0f}",
    "x": "{:,.2f}",
    "ms": "{:,.1f} ms",
    "s": "{:,.1f} s",
    "GB/s": "{:,.1f} GB/s",
    "Gb/s": "{:,.0f} Gb/s",
    "GB": "{:,.1f} GB",
    "TB": "{:,.0f} TB",
    "kW": "{:,.1f} kW",
    "MW": "{:,.3f} MW",
    "MWh": "{:,.3f} MWh",
    "MW/s": "{:,.3f} MW/s",
    "kWh": "{:,.1f} kWh",
    "kW/s": "{:,.1f} kW/s",
    "Wh": "{:,.1f} Wh",
    "kg": "{:,.0f} kg",
    "l/min": "{:,.1f} l/min",
    "m": "{:,.1f} m",
    "m²": "{:,.2f} m²",
    "kg/m²": "{:,.0f} kg/m²",
    "%": "{:,.1f}%",
    "months": "{:,.1f} months",
    "weeks": "{:,.1f} weeks",
    "MW": "{:,.2f} MW",
    "tokens/s": "{:,.0f} tokens/s",
    "tokens": "{:,.0f} tokens",  # a sequence, a batch, a prompt: whole tokens
    "GPUs": "{:,.0f} GPUs",
    ":1": "{:g}:1",
    "$/month": "${:,.0f}/month",
    "$/GPU-h": "${:,.2f}/GPU-h",
    "$/year": "${:,.0f}/year",
    "$/M tokens": "${:,.2f} per million tokens",
    "fraction": "{:.0%}",
    "share": "{:.1%}",
    "days": "{:,.1f} days",
    "FLOPs": "{:,.4g} FLOPs",
    "B": "{:,.2f}B",
    "B tokens": "{:,.0f}B tokens",
}
# A figure in megawatts under one reads in the unit a thousand times smaller (a 16-node plan
# swings by tens of kW: "62.7 kW", not "0.063 MW").
_SMALLER: dict[str, str] = {"MW": "kW", "MWh": "kWh", "kWh": "Wh", "MW/s": "kW/s"}
# SI steps for the compact style: (threshold, divisor, unit) from the largest down.
_SCALES: dict[str, tuple[tuple[float, float, str], ...]] = {
    "W": ((1e6, 1e6, "MW"), (1e3, 1e3, "kW"), (0.0, 1.0, "W")),
    "Wh": ((1e6, 1e6, "MWh"), (1e3, 1e3, "kWh"), (0.0, 1.0, "Wh")),
    "kW": ((1e6, 1e6, "GW"), (1e3, 1e3, "MW"), (0.0, 1.0, "kW")),
    "$": ((1e9, 1e9, "B"), (1e6, 1e6, "M"), (1e3, 1e3, "k"), (0.0, 1.0, "")),
}


def text(value: Any, unit: str = "", *, style: str = "exact", none: str = "-", small: bool = True) -> str:
    """A figure as text in ``style`` ("exact" or "compact"), with its unit; ``small`` False: a
    rate under 10 tokens/s in whole tokens as larger ones are (a difference between two figures
    is shown to the figures' own precision)."""
    if value is None:
        return none
    if isinstance(value, bool):  # a question the report answers ("Fits in GPU memory: yes"), else a switch
        return ("yes" if value else "no") if unit == "yes/no" else ("on" if value else "off")
    if not isinstance(value, (int, float)):
        return choice_title(value) if unit == "name" else str(value)
    if style == "compact":
        return _compact(value, unit)
    if unit == "$":
        return f"${value:,.0f}" if abs(value) >= 1000 or float(value).is_integer() else f"${value:,.2f}"
    if unit == "W":
        return f"{value:,.0f} W"
    if unit in _SMALLER and 0 < abs(value) < 1:
        return text(value * 1000, _SMALLER[unit], style=style, none=none)
    if small and unit == "tokens/s" and 0 < abs(value) < 10 and not float(value).is_integer():
        return f"{value:,.2f} tokens/s"  # a slow replica's 1.47, not "1"
    fmt = _EXACT.get(unit)
    if fmt is None:
        return f"{value:,.2f} {unit}".rstrip()
    if unit == "" and isinstance(value, float) and not value.is_integer():
        fmt = "{:,.2f}"
    if isinstance(value, int):  # whole numbers stay whole: '36 months', not '36.0 months'
        fmt = fmt.replace(",.1f", ",").replace(",.2f", ",")
    out = fmt.format(value)
    if unit in _ONE and out == f"1 {unit}":  # '1 token', '1 GPU', '1 month', not '1 tokens'
        return f"1 {_ONE[unit]}"
    return out


def plain_number(value: float) -> str:
    """A number a user typed, as typed: whole numbers in full ("4,194,304", not "4.1943e+06"),
    fractions to their last digit ("1.56"), the very small in scientific notation ("1e-07")."""
    if float(value).is_integer():
        return f"{value:,.0f}"
    if abs(value) >= 1e-3:
        return f"{value:,.6f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


def setting_text(value: Any, unit: str = "") -> str:
    """A setting's value as the Settings panel names it ("cuDNN attention", "140 kW", "none")."""
    if value is None:
        return "none"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # whole numbers in full ("4,194,304 tokens", not "4.1943e+06"), fractions to their last digit
        return f"{plain_number(value)} {_counted(unit, value)}".rstrip()
    return choice_title(value)


def _counted(unit: str, value: float) -> str:
    """A counting unit in the singular for one ("1 stage", "1 GPU"); rates and symbols ("ms",
    "GB/s", "tokens/s") as they are."""
    if value != 1 or not unit.isalpha() or len(unit) < 3 or not unit.endswith("s"):
        return unit
    return unit[:-2] if unit.endswith(("ches", "shes", "xes")) else unit[:-1]


def rounds_to_zero(value: Any, unit: str = "", *, style: str = "exact") -> bool:
    """Whether a figure shows as zero in its text ("0 tokens/s", "0.0 days", "$0"): a difference
    below what the text can show is no change, not a "−0"."""
    return value == 0 or not any(c in "123456789" for c in text(abs(value), unit, style=style, small=False))


_PERCENT = ("%", "share", "fraction")  # units shown as a percentage: their differences are points


def difference(value: Any, unit: str = "", *, style: str = "exact", none: str = "-") -> str:
    """A difference between two figures: "+1,234.5 kW", "−$5.43M", "no change"."""
    if value is None:
        return none
    if rounds_to_zero(value, unit, style=style):
        return "no change"
    shown = text(abs(value), unit, style=style, small=False)
    if unit in _PERCENT and shown.endswith("%"):  # 99.4% to 99.7% is "+0.3 percentage points", not "+0.3%"
        shown = shown[:-1] + " percentage points"
    return ("+" if value > 0 else "−") + shown


def _compact(value: float, unit: str) -> str:
    scales = _SCALES.get(unit)
    if scales is None:
        return text(value, unit)
    for threshold, divisor, name in scales:
        if abs(value) >= threshold:
            scaled = value / divisor
            if unit == "$":
                return f"${scaled:,.2f}{name}" if name in ("B", "M") else f"${scaled:,.0f}{name}"
            if name == unit:  # not scaled: as the exact style writes it
                return text(value, unit)
            return f"{_trim(f'{scaled:,.2f}')} {name}"
    return text(value, unit)


def _trim(number: str) -> str:
    """'1.80' -> '1.8', '7.00' -> '7': compact figures carry no trailing zeros."""
    return number.rstrip("0").rstrip(".") if "." in number else number


def excel_format(unit: str) -> str:
    """The workbook number format that shows a figure as ``text(value, unit)`` does."""
    return {"kW": '#,##0.0 "kW"', "$": '"$"#,##0', "": "#,##0", "months": '0.0 "months"',
            "%": '0.0"%"', "fraction": "0%"}.get(unit, "#,##0.0##")


def count(value: int) -> str:
    return f"{value:,}"


def power_of_cap(power_kw: float, cap_kw: float) -> str:
    """A rack's power against its cap, as rack headers show it: "40.8 / 41 kW"."""
    return f"{text(power_kw, 'kW')[:-3]} / {cap_kw:,.4g} kW"


def kw(value: float, style: str = "exact") -> str:
    return text(value, "kW", style=style)


def watts(value: float, style: str = "compact") -> str:
    return text(value, "W", style=style)


def usd(value: float, style: str = "exact") -> str:
    return text(value, "$", style=style)

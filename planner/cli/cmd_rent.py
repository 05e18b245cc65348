"""cluster-planner rent: what renting GPUs costs (the FAQ calculator of N. Dixit, "The GPU
Cluster That Actually Works for Deep Learning in 2026", SIVARO).

Arguments are checked as the app checks the same settings (``CostSettings``): a rate of
0 to 1,000 $/GPU-h, an uplift of 0 to 10 as a fraction (0.15 is 15%); GPUs a positive
whole number, days and hours positive. A bad value is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import math
import sys

from planner.bounds import MIN_MAGNITUDE
from planner.costs.model import rental_cost_usd
from planner.numbers import counted
from planner.settings import GUIDE
from planner.settings.costs import RENTAL_OPTIONS, CostSettings

MAX_GPUS = 10_000_000
MAX_HOURS = 100 * 8766  # a century


def _bounds(field: str) -> tuple[float, float]:
    """The (ge, le) bounds the settings model declares for a CostSettings field."""
    lo, hi = -math.inf, math.inf
    for m in CostSettings.model_fields[field].metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else lo
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
    return lo, hi


def _float(kind: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number, not '{text}'") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"takes a finite number, not '{text}'")
    if value != 0 and abs(value) < MIN_MAGNITUDE:  # as every number of a plan (planner.bounds)
        raise argparse.ArgumentTypeError(f"takes 0 or a number of at least {MIN_MAGNITUDE:g}, not {text}")
    return value


def _positive(kind: str, high: float):
    def parse(text: str) -> float:
        value = _float(kind, text)
        if not 0 < value <= high:
            raise argparse.ArgumentTypeError(f"must be above 0 and at most {high:,g}, not {text}")
        return value
    return parse


def _gpus(text: str) -> int:
    value = _float("--gpus", text.replace(",", "").replace("_", ""))  # "1,024" as new takes it
    if value != int(value) or not 1 <= value <= MAX_GPUS:
        raise argparse.ArgumentTypeError(f"takes a whole number of GPUs from 1 to {MAX_GPUS:,}, not {text}")
    return int(value)


def _rate(text: str) -> float:
    lo, hi = _bounds("rent_spot_usd_per_gpu_h")
    value = _float("--rate", text)
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"takes {lo:g} to {hi:,g} $ per GPU-hour, not {text}")
    return value


def _uplift(text: str) -> float:
    lo, hi = _bounds("rent_uplift")
    value = _float("--uplift", text)
    if not lo <= value <= hi:
        hint = f"; for {value:g}% use {value / 100:g}" if value > hi else ""
        raise argparse.ArgumentTypeError(
            f"takes a fraction from {lo:g} to {hi:g} (0.15 for 15%), not {text}{hint}")
    return value


def register(sub) -> None:
    defaults = CostSettings()
    p = sub.add_parser("rent", help="cost of renting GPUs: GPUs x hours x rate x (1 + uplift)")
    p.add_argument("--gpus", type=_gpus, required=True, help="number of GPUs (a whole number)")
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--days", type=_positive("--days", MAX_HOURS / 24), help="days rented, 24 hours a day")
    when.add_argument("--hours", type=_positive("--hours", MAX_HOURS), help="hours rented")
    rate = p.add_mutually_exclusive_group()
    rate.add_argument("--rate", type=_rate, help="$ per GPU-hour (0 to 1,000)")
    rate.add_argument("--option", choices=list(RENTAL_OPTIONS),
                      help="use the default H100 rate of a rental option (default: spot, "
                           f"${defaults.rent_spot_usd_per_gpu_h:.2f}; for other GPUs give --rate)")
    p.add_argument("--uplift", type=_uplift, default=defaults.rent_uplift,
                   help="share added for storage and networking, a fraction from 0 to 10 "
                        f"(default {defaults.rent_uplift:.2f}, the 15%% of {GUIDE}, FAQ)")  # argparse reads %% as %
    p.set_defaults(run=run)


def run(args) -> int:
    rates = CostSettings().rental_rates()
    rate = args.rate if args.rate is not None else rates[args.option or "spot"]
    hours = args.hours if args.hours is not None else args.days * 24
    if args.uplift > 1:  # allowed (as in the app), but say what it means
        print(f"note: --uplift {args.uplift:g} adds {args.uplift:.0%}; --uplift takes a fraction: "
              f"{args.uplift / 100:g} for {args.uplift:g}%", file=sys.stderr)
    total = rental_cost_usd(args.gpus, hours, rate, args.uplift)
    print(f"{counted(args.gpus, 'GPU')} x {hours:,g} h x ${rate:,.2f}/GPU-h x {1 + args.uplift:g} (uplift {args.uplift:.0%}) "
          f"= ${total:,.2f}")
    return 0

"""cluster-planner rent: what renting GPUs costs (the planning guide's FAQ calculator)."""

from __future__ import annotations

import argparse
import math

from planner.cost import rental_cost_usd
from planner.settings.costs import RENTAL_OPTIONS, CostSettings


def _number(kind: str, *, positive: bool = False):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(f"{kind} must be a {'positive' if positive else 'non-negative'} number")
        return value
    return parse


def register(sub) -> None:
    defaults = CostSettings()
    p = sub.add_parser("rent", help="cost of renting GPUs: GPUs x hours x rate x (1 + uplift)")
    p.add_argument("--gpus", type=_number("--gpus", positive=True), required=True, help="number of GPUs")
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--days", type=_number("--days", positive=True), help="days rented, 24 hours a day")
    when.add_argument("--hours", type=_number("--hours", positive=True), help="hours rented")
    rate = p.add_mutually_exclusive_group()
    rate.add_argument("--rate", type=_number("--rate"), help="$ per GPU-hour")
    rate.add_argument("--option", choices=list(RENTAL_OPTIONS),
                      help="use the default rate of a rental option (default: spot, $%.2f)" % defaults.rent_spot_usd_per_gpu_h)
    p.add_argument("--uplift", type=_number("--uplift"), default=defaults.rent_uplift,
                   help="share added for storage and networking (default %.2f, the guide's 15%%)" % defaults.rent_uplift)
    p.set_defaults(run=run)


def run(args) -> int:
    rates = CostSettings().rental_rates()
    rate = args.rate if args.rate is not None else rates[args.option or "spot"]
    hours = args.hours if args.hours is not None else args.days * 24
    total = rental_cost_usd(args.gpus, hours, rate, args.uplift)
    print(f"{args.gpus:,g} GPUs x {hours:,g} h x ${rate:,.2f}/GPU-h x {1 + args.uplift:g} (uplift {args.uplift:.0%}) "
          f"= ${total:,.2f}")
    return 0

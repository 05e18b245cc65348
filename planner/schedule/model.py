"""The build-out schedule: when each phase of the plan is ready, what gates it, and when its
capex is paid.

A phase is ready when the last of the parts it needs has arrived and its racks are in:

    ready weeks = max(lead time of each part it needs) + commissioning per hall
                  + racks installed by then x crew-days per rack / (crews x 5 days a week)

with crews = max(1, racks they are staffed for x crews per 100 racks / 100): a hall's own
racks, or the plan's for its scalable units.

Every part is ordered on the order date (week 0); a lead time of 0 is a part already in
place. The part with the longest lead time is the phase's critical part. Months are average
months (365.25 / 12 days) counted from the order: a phase ready in week w is online from
month ceil(7 w / 30.4375). The plan is energized when its last phase is ready.

Capex: each phase's share is paid ``deposit_pct`` on the order (month 0) and the rest in the
month the phase is ready (planner assumption, ``planner.settings.schedule``).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from planner.settings.schedule import ScheduleSettings

# The part classes a phase may need, in the order the report lists them, with their titles.
PARTS: dict[str, str] = {
    "transformer": "Power transformer",
    "switchgear": "Switchgear",
    "ups": "UPS",
    "generator": "Generator sets",
    "cooling": "CDUs and chillers",
    "gpu_systems": "GPU systems",
    "switches": "Network switches",
    "optics": "Optics and cables",
    "storage": "Storage",
}
# The same in running text ("power transformer", "UPS", "GPU systems").
PART_NAMES: dict[str, str] = {part: t if t[1].isupper() else t[0].lower() + t[1:] for part, t in PARTS.items()}
# What every phase needs, whatever stands in it: its building's power plant and its cooling.
PLANT = ("transformer", "switchgear", "ups", "generator", "cooling")
# The part class of each catalog category placed (optics go with GPU systems and switches).
_BY_CATEGORY = {"gpu_server": ("gpu_systems", "optics"), "switch": ("switches", "optics"), "storage": ("storage",)}
MONTH_DAYS = 365.25 / 12  # an average month (Gregorian year / 12)
WORK_DAYS_PER_WEEK = 5


def lead_weeks(s: ScheduleSettings) -> dict[str, float]:
    """Each part class's lead time in weeks, from the settings."""
    return {part: getattr(s, f"{part}_weeks") for part in PARTS}


def plant_of(settings) -> str:
    """The facility plant the schedule waits for, "new" or "in_place": the schedule setting, or
    with "auto" the costs' operating mode (colocation: the provider's plant is in place)."""
    plant = settings.schedule.plant
    if plant != "auto":
        return plant
    return "in_place" if settings.costs.opex_mode == "colocation" else "new"


def parts_needed(categories: set[str], plant: str = "new") -> tuple[str, ...]:
    """The part classes a phase holding devices of ``categories`` needs, in ``PARTS`` order:
    the facility's plant too where it is built with the cluster (``plant`` "new"); where it is
    in place, the CDUs only where the phase has some."""
    needed = set(PLANT) if plant == "new" else ({"cooling"} if "cdu" in categories else set())
    for c in categories:
        needed.update(_BY_CATEGORY.get(c, ()))
    return tuple(p for p in PARTS if p in needed)


@dataclass(frozen=True, slots=True)
class PhaseInput:
    """What a phase holds: its racks, GPUs and IT power, the parts it needs, the weight its
    capex share is taken by, the racks its crews have installed when it is done (its own,
    plus those of the phases the same crews put in before it) and the racks those crews are
    staffed for (its hall's, or the plan's for scalable units)."""

    name: str
    racks: int
    gpus: int
    it_kw: float
    parts: tuple[str, ...]
    weight: float
    racks_installed: float
    crew_racks: int


@dataclass(frozen=True, slots=True)
class PhaseTime:
    ready_weeks: float
    ready_month: int
    critical_part: str  # a PARTS key, or "install" when no part has a lead time


def phase_time(p: PhaseInput, s: ScheduleSettings, leads: dict[str, float]) -> PhaseTime:
    """When the phase is ready and the part that gates it."""
    critical, lead = "install", 0.0
    for part in p.parts:
        if leads[part] > lead:
            critical, lead = part, leads[part]
    per_week = crews(p.crew_racks, s.crews_per_100_racks) * WORK_DAYS_PER_WEEK
    install = s.hall_commissioning_weeks + p.racks_installed * s.rack_install_days / per_week
    weeks = lead + install
    return PhaseTime(weeks, month_of(weeks), critical)


def crews(racks: int, per_100_racks: float) -> float:
    """The crews installing ``racks`` racks: staffed to their number, at least one."""
    return max(1.0, racks * per_100_racks / 100)


def month_of(weeks: float) -> int:
    """The month after the order from which something ready in week ``weeks`` is online
    (rounded to 9 decimals first, as the workbook's ROUNDUP(ROUND(..., 9), 0) does)."""
    return max(0, math.ceil(round(weeks * 7 / MONTH_DAYS, 9)))


def shares(total: float, weights: list[float]) -> list[float]:
    """``total`` split by ``weights`` to the cent, the parts adding up to ``total`` exactly
    (each share is the difference of the rounded running sums); equal parts when every
    weight is 0."""
    if not weights:
        return []
    if sum(weights) <= 0:
        weights = [1.0] * len(weights)
    whole, run, out, before = sum(weights), 0.0, [], 0.0
    for w in weights:
        run += w
        upto = round(total * run / whole, 2)
        out.append(round(upto - before, 2))
        before = upto
    return out


def gpus_online(months: list[int], gpus: list[int], last: int) -> list[int]:
    """GPUs online in each month 0..``last``: those of the phases ready by then."""
    added = [0] * (last + 1)
    for m, g in zip(months, gpus):
        added[m] += g
    out, run = [], 0
    for g in added:
        run += g
        out.append(run)
    return out


def capex_by_quarter(months: list[int], capex: list[float], deposit_pct: float, last: int) -> list[float]:
    """Capex paid in each quarter after the order (months 0-2, 3-5, ...) up to the quarter
    of month ``last``: each phase's deposit in month 0, its balance in its ready month."""
    out = [0.0] * (last // 3 + 1)
    for m, c in zip(months, capex):
        deposit = c * deposit_pct / 100
        out[0] += deposit
        out[m // 3] += c - deposit
    return [round(x, 2) for x in out]


def date_after(order_date: str, days: float) -> str | None:
    """The date ``days`` after the order date (ISO), or None without an order date."""
    if not order_date:
        return None
    return (dt.date.fromisoformat(order_date) + dt.timedelta(days=math.ceil(days - 1e-9))).isoformat()

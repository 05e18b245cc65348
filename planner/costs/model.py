"""Cost model: capex, opex, rental alternatives, break-even and total cost of ownership.

Pure functions over plain numbers; ``planner.costs.section`` feeds them from a report and
``planner.export.xlsx`` writes the same formulas into the workbook.

What utilisation means here: the share of hours the GPUs do useful work (1 = 24/7).
Renting pays only for the hours used, so rent scales with utilisation; an owned cluster
costs the same whether busy or idle (capex, facility and staffing are fixed, and energy is
counted at the plan's power basis around the clock, a conservative figure). Lower
utilisation therefore stretches the break-even (80% -> ~22 months in N. Dixit, "The GPU
Cluster That Actually Works for Deep Learning in 2026", SIVARO, "the guide" below) and
raises the cost of each GPU-hour actually delivered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy_financial as npf

from planner.settings.costs import CostSettings


def rental_cost_usd(gpus: float, hours: float, rate_usd_per_gpu_h: float, uplift: float = 0.0) -> float:
    """Renting ``gpus`` for ``hours``: GPUs x hours x rate x (1 + uplift).

    The guide's FAQ: 64 GPUs x 2,160 h (90 days 24/7) x $2.10 x 1.15 = $333,849.60.
    """
    return gpus * hours * rate_usd_per_gpu_h * (1.0 + uplift)


def rent_usd_per_month(gpus: float, rate_usd_per_gpu_h: float, *, uplift: float = 0.0,
                       utilisation: float = 1.0, hours_per_month: float = 730.0) -> float:
    """Monthly rent for the hours used: GPUs x 730 h x utilisation x rate x (1 + uplift)."""
    return rental_cost_usd(gpus, hours_per_month * utilisation, rate_usd_per_gpu_h, uplift)


def energy_usd_per_month(it_kw: float, pue: float, usd_per_kwh: float, hours_per_month: float = 730.0) -> float:
    """Electricity: IT kW x PUE x 730 h x $/kWh (facility power = IT power x PUE)."""
    return it_kw * pue * hours_per_month * usd_per_kwh


def facility_usd_per_month(s: CostSettings, it_kw: float, nodes: int) -> float:
    """Colocation: $/kW/month x IT kW; owned facility: $/node/year x nodes / 12 (the guide's
    'rack, power, cooling (annual)' per node)."""
    if s.opex_mode == "colocation":
        return s.colocation_usd_per_kw_month * it_kw
    return s.owned_facility_usd_per_node_year * nodes / 12.0


def opex_usd_per_month(s: CostSettings, *, it_kw: float, pue: float, nodes: int) -> float:
    """Opex per month = energy + facility (colocation or owned) + staffing / 12."""
    return (energy_usd_per_month(it_kw, pue, s.electricity_usd_per_kwh, s.hours_per_month)
            + facility_usd_per_month(s, it_kw, nodes) + s.staffing_usd_per_year / 12.0)


def break_even_month(capex_usd: float, opex_usd_per_month: float, rent_usd_per_month: float,
                     horizon_months: float | None = None) -> float | None:
    """The month at which owning has cost as much as renting, to 0.1 month.

    Build costs capex + opex x m, renting costs rent x m, so they meet at
    m = capex / (rent - opex) (the guide: $315,000 / (8 x 730 h x $3.15) = 17.1 months).
    None when renting never costs more (rent <= opex) or the month lies beyond the horizon.
    """
    margin = rent_usd_per_month - opex_usd_per_month
    if margin <= 0:
        return None
    month = round(capex_usd / margin, 1)
    if horizon_months is not None and month > horizon_months:
        return None
    return month


def break_even_text(capex_usd: float, opex_usd_per_month: float, rent_usd_per_month: float,
                    horizon_months: int) -> str:
    """The break-even in words, one meaning each: "month 17.1" (within the horizon),
    "not within 36 months" (it comes, but after the horizon) or "never" (renting never
    costs more than running the cluster). The workbook writes the same words."""
    margin = rent_usd_per_month - opex_usd_per_month
    if margin <= 0:
        return "never"
    month = round(capex_usd / margin, 1)
    if month > horizon_months:
        return f"not within {horizon_months} months"
    return f"month {month:.1f}"


def monthly_rate(annual_rate: float) -> float:
    """The monthly rate equivalent to an annual one: (1 + annual)^(1/12) - 1."""
    return (1.0 + annual_rate) ** (1.0 / 12.0) - 1.0


def npv_build_vs_rent(capex_usd: float, saving_usd_per_month: float, months: int, annual_rate: float) -> float:
    """Net present value of building instead of renting: -capex now, then the monthly
    saving (rent - opex) at the end of months 1..H, each discounted at the monthly rate
    r = (1 + annual)^(1/12) - 1: -capex + saving x (1 - (1 + r)^-H) / r (saving x H at r = 0)."""
    r = monthly_rate(annual_rate)
    annuity = months if r == 0 else (1.0 - (1.0 + r) ** -months) / r
    return -capex_usd + saving_usd_per_month * annuity


def irr_build_vs_rent(capex_usd: float, saving_usd_per_month: float, months: int) -> float | None:
    """The annual internal rate of return of building instead of renting: the monthly rate
    r at which the NPV is 0, as (1 + r)^12 - 1. None when there is no such rate (no saving
    each month, or nothing invested). ``irr_each`` for one saving."""
    return irr_each(capex_usd, {"": saving_usd_per_month}, months)[""]


def irr_each(capex_usd: float, savings_usd_per_month: dict[str, float], months: int,
             start: dict[str, float] | None = None) -> dict[str, float | None]:
    """``irr_build_vs_rent`` for each monthly saving (one a rental rate), in one call.

    r is numpy-financial's ``rate`` (Newton's method on the annuity -capex + saving x H
    months), started at the perpetuity rate saving / capex, which is above every finite
    horizon's IRR. At a rate of exactly 0 (the savings repay the capex undiscounted) the
    annuity's formula is 0/0, so that case is answered directly. The savings go to ``rate``
    as one array: its Newton steps cost the same for four rates as for one (numpy's overhead
    per step; 0.8 of the cost section's 0.9 ms on campus-1m's incremental evaluation, whose
    p95 target is 2 ms, with one call a rate).

    ``start``: a monthly rate to start each saving's steps from instead, where the caller
    kept the rate of a nearly equal capex (a repricing after an edit): the same root to
    ``rate``'s tolerance (1e-14 a month) in two or three steps instead of seven or eight,
    0.1 ms of each repricing of campus-1m (CPU time, 2-core machine, 2026-12-05)."""
    out: dict[str, float | None] = dict.fromkeys(savings_usd_per_month)
    solve = []
    for name, saving in savings_usd_per_month.items():
        if saving <= 0 or capex_usd <= 0 or months < 1:
            continue
        if math.isclose(saving * months, capex_usd, rel_tol=1e-12):
            out[name] = 0.0
        else:
            solve.append(name)
    if solve:
        pmt = np.array([savings_usd_per_month[n] for n in solve])
        guess = pmt / capex_usd
        if start:
            guess = np.array([start[n] if start.get(n, -1.0) > -1.0 else g for n, g in zip(solve, guess.tolist())])
        rates = npf.rate(months, pmt, -capex_usd, 0.0, guess=guess, tol=1e-14, maxiter=200)
        for name, r in zip(solve, np.atleast_1d(rates).tolist()):
            if math.isnan(r):  # ``rate`` gives up on all if one does not settle: that one by bisection
                r = _bisected_rate(capex_usd, savings_usd_per_month[name], months)
            out[name] = None if r is None else (1.0 + r) ** 12 - 1.0
            if start is not None and r is not None:
                start[name] = r
    return out


def _bisected_rate(capex_usd: float, saving_usd_per_month: float, months: int) -> float | None:
    """The monthly rate r at which -capex + saving x (1 - (1 + r)^-H) / r is 0, by bisection
    to adjacent floats. numpy-financial's ``rate`` stops when a Newton step is below its
    tolerance; near r = 0 the annuity's formula cancels and its steps stay above 1e-14, so
    it answers nan for a rate that exists (and nan for every rate solved with it): a plan
    whose 3-year reservation repaid its capex at 0.02 % a year had no IRR shown at all. The
    NPV falls as r rises (each saving discounted more), so it has one root between -99 % a
    month and the perpetuity rate saving / capex (where the NPV is below 0); the annuity is
    taken as -expm1(-H log1p(r)) / r, exact near 0. None when the savings do not repay the
    capex even at -99 % a month."""
    def npv(r: float) -> float:
        if r == 0.0:
            return saving_usd_per_month * months - capex_usd
        x = -months * math.log1p(r)
        if x > 700.0:  # (1 + r)^-H beyond a float: the savings repay anything
            return math.inf
        return saving_usd_per_month * -math.expm1(x) / r - capex_usd

    lo, hi = -0.99, saving_usd_per_month / capex_usd
    if npv(lo) <= 0.0:
        return None
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if npv(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def project_costs_usd(s: CostSettings, hardware_usd: float) -> dict[str, float]:
    """Capex on top of the hardware (the bill of materials), in the order they build up:
    spares, installation and shipping as shares of the hardware; tax on hardware and
    spares; contingency on everything above."""
    spares = s.spares_pct * hardware_usd
    installation = s.installation_pct * hardware_usd
    shipping = s.shipping_pct * hardware_usd
    tax = s.tax_pct * (hardware_usd + spares)
    contingency = s.contingency_pct * (hardware_usd + spares + installation + shipping + tax)
    return {"spares": spares, "installation": installation, "shipping": shipping, "tax": tax,
            "contingency": contingency}


@dataclass(slots=True)
class CostResult:
    """Headline figures of the cost model; money in US dollars."""

    capex_usd: float
    opex_usd_per_month: float
    energy_usd_per_month: float
    facility_usd_per_month: float
    staffing_usd_per_month: float
    rent_usd_per_month: dict[str, float]
    break_even_months: dict[str, float | None]
    horizon_months: int
    tco_usd: float
    rent_total_usd: dict[str, float]
    cost_per_gpu_hour: dict[str, float | None]
    curves: dict[str, list[float]] = field(default_factory=dict)
    break_even_usd: dict[str, float | None] = field(default_factory=dict)
    break_even_text: dict[str, str] = field(default_factory=dict)
    hardware_usd: float = 0.0
    project_costs_usd: dict[str, float] = field(default_factory=dict)
    support_usd_per_month: float = 0.0
    software_usd_per_month: float = 0.0
    depreciation_usd_per_year: float = 0.0
    npv_usd: dict[str, float] = field(default_factory=dict)
    irr: dict[str, float | None] = field(default_factory=dict)
    cost_per_million_tokens_usd: float | None = None
    currency: str = "USD"
    usd_exchange_rate: float = 1.0

    def to_json(self) -> dict[str, Any]:
        money = lambda d: {k: round(v, 2) for k, v in d.items()}  # noqa: E731
        return {
            "capex_usd": round(self.capex_usd, 2),
            "opex_usd_per_month": round(self.opex_usd_per_month, 2),
            "energy_usd_per_month": round(self.energy_usd_per_month, 2),
            "facility_usd_per_month": round(self.facility_usd_per_month, 2),
            "staffing_usd_per_month": round(self.staffing_usd_per_month, 2),
            "rent_usd_per_month": money(self.rent_usd_per_month),
            "break_even_months": dict(self.break_even_months),
            "break_even_text": dict(self.break_even_text),
            "break_even_usd": {k: (None if v is None else round(v, 2)) for k, v in self.break_even_usd.items()},
            "horizon_months": self.horizon_months,
            "tco_usd": round(self.tco_usd, 2),
            "rent_total_usd": money(self.rent_total_usd),
            "cost_per_gpu_hour": {k: (None if v is None else round(v, 4)) for k, v in self.cost_per_gpu_hour.items()},
            "curves": {k: [round(x, 2) for x in v] if k != "months" else v for k, v in self.curves.items()},
        }


def evaluate_costs(s: CostSettings, *, capex_usd: float, gpus: int, nodes: int, it_kw: float,
                   pue: float, energy_kw: float | None = None, tokens_per_s: float | None = None,
                   irr_start: dict[str, float] | None = None) -> CostResult:
    """Every figure of the cost model for one plan.

    ``capex_usd`` is the hardware: the bill of materials' total. Capex adds the project
    costs on top (``project_costs_usd``: spares, installation, shipping, tax, contingency);
    opex adds support (a share of the hardware per year / 12) and software licences
    (GPUs x $/GPU/year / 12) to energy, facility and staffing. Depreciation is straight
    line: capex / years. NPV and IRR of building instead of renting, per rental option:
    -capex now, then rent - opex each month of the horizon, at the discount rate.
    Cost per million training tokens = TCO / (tokens/s x 3,600 x hours per month x H x
    utilisation) x 10^6.

    ``it_kw`` is the IT power on the plan's basis (what colocation contracts for);
    ``energy_kw`` the average draw that electricity is paid on (typical; defaults to it_kw).

    TCO over the horizon H = capex + opex x H. Cost per delivered GPU-hour:
    build = TCO / (GPUs x 730 h x H x utilisation); renting = rate x (1 + uplift).
    Cumulative curves at months 0..H: build = capex + opex x m; each rental = rent x m.
    Where they meet: break-even month m* per option and the money spent by then,
    capex + opex x m* (the point a chart marks).
    """
    h = s.horizon_months
    hardware = capex_usd
    project = project_costs_usd(s, hardware)
    capex_usd = hardware + sum(project.values())
    energy_kw = it_kw if energy_kw is None else energy_kw
    energy = energy_usd_per_month(energy_kw, pue, s.electricity_usd_per_kwh, s.hours_per_month)
    facility = facility_usd_per_month(s, it_kw, nodes)
    staffing = s.staffing_usd_per_year / 12.0
    support = s.support_pct_per_year * hardware / 12.0
    software = s.software_usd_per_gpu_year * gpus / 12.0
    opex = energy + facility + staffing + support + software
    rents = {name: rent_usd_per_month(gpus, rate, uplift=s.rent_uplift, utilisation=s.utilisation,
                                      hours_per_month=s.hours_per_month)
             for name, rate in s.rental_rates().items()}
    tco = capex_usd + opex * h
    delivered_h = gpus * s.hours_per_month * h * s.utilisation
    per_hour: dict[str, float | None] = {"build": tco / delivered_h if delivered_h else None}
    per_hour.update({name: rate * (1.0 + s.rent_uplift) for name, rate in s.rental_rates().items()})
    months = list(range(h + 1))
    curves: dict[str, list[float]] = {"months": months, "build": [capex_usd + opex * m for m in months]}
    for name, rent in rents.items():
        curves[name] = [rent * m for m in months]
    breaks = {name: break_even_month(capex_usd, opex, rent, h) for name, rent in rents.items()}
    tokens = (tokens_per_s or 0.0) * 3600.0 * s.hours_per_month * h * s.utilisation
    return CostResult(
        capex_usd=capex_usd,
        opex_usd_per_month=opex,
        energy_usd_per_month=energy,
        facility_usd_per_month=facility,
        staffing_usd_per_month=staffing,
        rent_usd_per_month=rents,
        break_even_months=breaks,
        break_even_usd={name: None if m is None else capex_usd + opex * m for name, m in breaks.items()},
        break_even_text={name: break_even_text(capex_usd, opex, rent, h) for name, rent in rents.items()},
        horizon_months=h,
        tco_usd=tco,
        rent_total_usd={name: rent * h for name, rent in rents.items()},
        cost_per_gpu_hour=per_hour,
        curves=curves,
        hardware_usd=hardware,
        project_costs_usd=project,
        support_usd_per_month=support,
        software_usd_per_month=software,
        depreciation_usd_per_year=capex_usd / s.depreciation_years,
        npv_usd={name: npv_build_vs_rent(capex_usd, rent - opex, h, s.discount_rate) for name, rent in rents.items()},
        irr=irr_each(capex_usd, {name: rent - opex for name, rent in rents.items()}, h, irr_start),
        cost_per_million_tokens_usd=tco / tokens * 1e6 if tokens > 0 else None,
        currency=s.currency,
        usd_exchange_rate=s.usd_exchange_rate,
    )


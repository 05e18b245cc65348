"""The return of building instead of renting: the net present value of the monthly savings
(rent less opex) against the capex at a discount rate, and the internal rate of return at
which they repay it (numpy-financial's ``rate``, with a bisection where it gives up). Pure
functions over plain numbers; ``planner.costs.model`` reads them for each rental option."""

from __future__ import annotations

import math

import numpy as np
import numpy_financial as npf


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
            saving = savings_usd_per_month[name]
            # ``rate`` gives up on all if one does not settle (nan), and from a kept rate far
            # from the root (an edit that moved the savings a lot) its steps can shrink below
            # the tolerance where the annuity is steep, not at the root (a loss of 76 % a year
            # answered for one of 7 %): either is solved by bisection
            if math.isnan(r) or abs(_npv(capex_usd, saving, months, r)) > ROOT_TOLERANCE * capex_usd:
                r = _bisected_rate(capex_usd, saving, months)
            out[name] = None if r is None else (1.0 + r) ** 12 - 1.0
            if start is not None and r is not None:
                start[name] = r
    return out


ROOT_TOLERANCE = 1e-9  # of the capex: a rate whose NPV is further from 0 is not the root


def _npv(capex_usd: float, saving_usd_per_month: float, months: int, r: float) -> float:
    """-capex + saving x the annuity factor at monthly rate r, taken as -expm1(-H log1p(r)) / r
    (exact near 0); inf where (1 + r)^-H is beyond a float (the savings repay anything)."""
    if r <= -1.0:
        return math.inf
    if r == 0.0:
        return saving_usd_per_month * months - capex_usd
    x = -months * math.log1p(r)
    if x > 700.0:
        return math.inf
    return saving_usd_per_month * -math.expm1(x) / r - capex_usd


def _bisected_rate(capex_usd: float, saving_usd_per_month: float, months: int) -> float | None:
    """The monthly rate r at which -capex + saving x (1 - (1 + r)^-H) / r is 0, by bisection
    to adjacent floats. numpy-financial's ``rate`` stops when a Newton step is below its
    tolerance; near r = 0 the annuity's formula cancels and its steps stay above 1e-14, so
    it answers nan for a rate that exists (and nan for every rate solved with it): a plan
    whose 3-year reservation repaid its capex at 0.02 % a year had no IRR shown at all. The
    NPV falls as r rises (each saving discounted more), so it has one root between a loss of
    all but 1e-12 a month and the perpetuity rate saving / capex (where the NPV is below 0);
    the annuity is taken as -expm1(-H log1p(r)) / r, exact near 0. None when the savings do
    not repay the capex even there (a one-month horizon whose saving is under 1e-12 of the
    capex)."""
    def npv(r: float) -> float:
        return _npv(capex_usd, saving_usd_per_month, months, r)

    lo, hi = -1.0 + 1e-12, saving_usd_per_month / capex_usd
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

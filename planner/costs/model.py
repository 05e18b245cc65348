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

from dataclasses import dataclass, field
from typing import Any

from planner.costs.returns import irr_each, npv_build_vs_rent
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
    month = capex_usd / margin  # judged against the horizon before rounding: 36.006 is past 36
    if horizon_months is not None and month > horizon_months:
        return None
    return round(month, 1)


def break_even_text(capex_usd: float, opex_usd_per_month: float, rent_usd_per_month: float,
                    horizon_months: int) -> str:
    """The break-even in words, one meaning each: "month 17.1" (within the horizon),
    "not within 36 months" (it comes, but after the horizon) or "never" (renting never
    costs more than running the cluster). The workbook writes the same words."""
    margin = rent_usd_per_month - opex_usd_per_month
    if margin <= 0:
        return "never"
    month = capex_usd / margin
    if month > horizon_months:
        return f"not within {horizon_months} months"
    return f"month {month:.1f}"


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
    rented_gpus: int = 0  # the job's GPUs: what renting pays for and what delivers GPU-hours
    rent_gpu_factor: float = 1.0  # the plan's GPUs' rental rate against the H100 rates of the settings

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
                   irr_start: dict[str, float] | None = None, job_gpus: int | None = None,
                   rent_factor: float = 1.0) -> CostResult:
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
    ``rent_factor``: the plan's GPUs' rental rate against the H100 rates of ``s``
    (``CostSettings.gpu_factor``). ``job_gpus``: the GPUs the job runs on, the placed ``gpus`` less the hot spares (default:
    all of them). Renting is of those (a cloud replaces its own failed nodes: no idle spares
    are rented), and a GPU-hour is delivered by those; built, the spares are bought, powered
    and licensed all the same.

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
    job = gpus if job_gpus is None else job_gpus
    rents = {name: rent_usd_per_month(job, rate, uplift=s.rent_uplift, utilisation=s.utilisation,
                                      hours_per_month=s.hours_per_month)
             for name, rate in s.rental_rates(rent_factor).items()}
    tco = capex_usd + opex * h
    delivered_h = job * s.hours_per_month * h * s.utilisation
    per_hour: dict[str, float | None] = {"build": tco / delivered_h if delivered_h else None}
    per_hour.update({name: rate * (1.0 + s.rent_uplift) for name, rate in s.rental_rates(rent_factor).items()})
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
        rented_gpus=job,
        rent_gpu_factor=rent_factor,
    )


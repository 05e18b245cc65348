"""Cost assumptions: energy, facility, staffing, rental alternatives and the prices of the
parts a layout implies that the catalog does not price (racks, facility power and cooling
per kW, cables and optics the catalog has no part for).

Every default has a visible source; planning estimates say so. The cost model
(``planner.costs.model``) documents the formulas that use them.

Why it is long: one field per price or cost input, each with its source text, which the
settings panel and the workbook's Assumptions sheet show; splitting them would scatter one
section of the plan file over several modules.
"""

from __future__ import annotations

from typing import Literal

from planner.settings._base import GUIDE, Section, setting

# The longest cost horizon: the workbook's month-by-month table has a row for every month up to it.
HORIZON_MAX_MONTHS = 240

RENTAL_OPTIONS: dict[str, str] = {
    "spot": "Spot / preemptible",
    "reserved_1yr": "Reserved 1-yr",
    "reserved_3yr": "Reserved 3-yr",
    "on_demand": "On demand",
}


class CostSettings(Section):
    # -- operating costs ---------------------------------------------------------
    electricity_usd_per_kwh: float = setting(
        0.12,
        title="Electricity price",
        unit="$/kWh",
        source="U.S. EIA, Electric Power Monthly: average industrial price by state, 2023, 5.75-18.6 cents/kWh; "
        "12 cents is near the middle.",
        ge=0,
        le=10,
    )
    opex_mode: Literal["colocation", "owned"] = setting(
        "colocation",
        title="Facility",
        source="Colocation ($ per kW per month) or an owned facility (rack, power and cooling per node per year). "
        f"{GUIDE}: 'Most colocation facilities cap at 30kW per rack'.",
    )
    colocation_usd_per_kw_month: float = setting(
        200.0,
        title="Colocation price",
        unit="$/kW/month",
        source="CBRE, North America Data Center Trends H2 2024: $184.06 per kW per month (250-500 kW); CBRE, "
        "Global Data Center Trends 2025: $217.30; the midpoint.",
        ge=0,
        le=100_000,
    )
    colocation_basis: Literal["committed", "nameplate", "typical"] = setting(
        "committed",
        title="Colocation billed on",
        source="Colocation contracts bill the committed (reserved) kW per rack, here the racks' power caps, "
        "or metered peak; nameplate bills the equipment rating, typical the sustained draw (lowest, rarely "
        "what a contract says). CBRE, North America Data Center Trends H2 2024.",
    )
    owned_facility_usd_per_node_year: float = setting(
        20_000.0,
        title="Owned facility: rack, power and cooling per node",
        unit="$/node/year",
        source=f"{GUIDE}, owned 8 x H100 node: 'Rack, power, cooling (annual): $15-25K'; midpoint. "
        "Energy is counted separately here: lower this if your figure already includes electricity.",
        ge=0,
        le=10_000_000,
    )
    staffing_usd_per_year: float = setting(
        75_000.0,
        title="Staffing (admin time)",
        unit="$/year",
        source=f"{GUIDE}: 'Staffing (admin time): $50-100K annually'; midpoint.",
        ge=0,
        le=1e9,
    )
    hours_per_month: float = setting(
        730.0,
        title="Hours per month",
        unit="h",
        source=f"8,760 hours a year / 12 = 730 ({GUIDE}: its break-even uses 730 h).",
        gt=0,
        le=744,
    )
    # -- rental alternatives -----------------------------------------------------
    rent_spot_usd_per_gpu_h: float = setting(
        2.10,
        title="Rental: spot / preemptible",
        unit="$/GPU-h",
        source=f"{GUIDE}, H100 snapshot July 2026: spot $1.80-2.40; midpoint (its FAQ uses $2.10).",
        ge=0,
        le=1000,
    )
    rent_reserved_1yr_usd_per_gpu_h: float = setting(
        3.15,
        title="Rental: reserved 1-yr",
        unit="$/GPU-h",
        source=f"{GUIDE}, H100 snapshot July 2026: reserved 1-yr $2.80-3.50; midpoint "
        "(specialist clouds' published 1-yr terms can be under $2).",
        ge=0,
        le=1000,
    )
    rent_reserved_3yr_usd_per_gpu_h: float = setting(
        2.50,
        title="Rental: reserved 3-yr",
        unit="$/GPU-h",
        source=f"{GUIDE}, H100 snapshot July 2026: reserved 3-yr $2.20-2.80; midpoint.",
        ge=0,
        le=1000,
    )
    rent_on_demand_usd_per_gpu_h: float = setting(
        3.50,
        title="Rental: on demand",
        unit="$/GPU-h",
        source="Planner assumption: H100 on demand at specialist clouds' published rates, 2025-26, $1.99-3.50; "
        f"the top of that range, a price without commitment not below the 1-yr reserved rates of {GUIDE} "
        "($2.80-3.50; their midpoint would be dearer than the range's midpoint, $2.75). Check the providers' "
        "current price lists.",
        ge=0,
        le=1000,
    )
    rent_gpu_factor: float | None = setting(
        None,
        title="Rental rate of the plan's GPUs against an H100's",
        unit="x",
        source="Empty: the rental rates above are H100 rates; the plan's GPUs rent at them times their price per "
        "GPU over the H100's, each the catalog's lowest price per GPU of a system carrying it (planner assumption: a "
        "cloud's rate recovers the capital in the GPU). Published surveys of specialist clouds' on-demand rates, "
        "2026, put H200 at about 1.3 x an H100's and A100 at about 0.4 x (Mercatus, 'Cloud GPU pricing', May 2026: "
        "$3.50-4.50, $1.10-1.50 against $2.50-3.50) and B200 at about 1.7 x ($4.50-6.00: Lyceum, 'NVIDIA B200 GPU "
        "cloud pricing 2026'). A number: the ratio of a quote for the plan's GPU to the H100 rates above.",
        gt=0,
        le=100,
    )
    rent_uplift: float = setting(
        0.15,
        title="Rental uplift for storage and networking",
        unit="fraction",
        source=f"{GUIDE}, FAQ: 'add 15% for storage and networking'.",
        ge=0,
        le=10,
    )
    utilisation: float = setting(
        1.0,
        title="Utilisation",
        unit="fraction",
        source=f"Share of hours the GPUs do useful work; 1 = 24/7. {GUIDE}: weekends, holidays or a "
        "2-week gap bring it to ~80%. Renting pays only for hours used; an owned cluster costs the same idle.",
        gt=0,
        le=1,
    )
    horizon_months: int = setting(
        36,
        title="Horizon",
        unit="months",
        source=f"Planner assumption: the 3-year reserved term (GPU generations turn over every ~2 years: {GUIDE}).",
        ge=1,
        le=HORIZON_MAX_MONTHS,
    )
    # -- parts the layout implies --------------------------------------------------
    cable_usd: float = setting(
        150.0,
        title="Cable without a catalog price (per link)",
        unit="$",
        source="Planner assumption: a fabric cable of a few metres; prices runs the catalog has no cable of that "
        "medium, speed and length for, runs to switches not placed, and each fabric tier of plans too large "
        "to route on every edit. Replace with a quote.",
        ge=0,
        le=1_000_000,
    )
    transceiver_usd: float = setting(
        1_000.0,
        title="Transceiver without a catalog price (per module)",
        unit="$",
        source="Planner assumption: a 400G/800G OSFP module; prices optics the catalog has no module of that "
        "speed, form factor and reach for. Other optics are priced by part from the catalog. Replace with a quote.",
        ge=0,
        le=1_000_000,
    )
    node_leaf_dac: bool = setting(
        False,
        title="Node-to-leaf links on passive copper (DAC)",
        source="Planner assumption: off, as a fibre link needs a transceiver at each end and only a passive "
        "copper (DAC) run of a few metres needs none. Only for plans too large to route on every edit; smaller "
        "plans take each run's medium from "
        "its length (the cable schedule).",
    )
    rack_usd: float = setting(
        2_500.0,
        title="Rack enclosure",
        unit="$",
        source="Planner assumption: a 42U, 1,200 mm deep enclosure with doors and side panels; replace with a quote.",
        ge=0,
        le=1_000_000,
    )
    rear_door_usd: float = setting(
        20_000.0,
        title="Rear-door heat exchanger",
        unit="$",
        source="Planner assumption: no public list price found; an active door of 40-60 kW with its fans, "
        "controls and hoses to the CDU, installed; replace with a quote. Bought for each rack that has one.",
        ge=0,
        le=1_000_000,
    )
    facility_power_usd_per_kw: float = setting(
        670.0,
        title="Facility power distribution per kW",
        unit="$/kW of IT power",
        source=f"{GUIDE}: 'The power distribution alone costs $50-100K' for its 16 nodes at 7 kW (112 kW): "
        "$75K / 112 kW = $670/kW. Times the plan's IT kW on its power basis. A new build's whole electrical "
        "plant is 25-30% of $8-12M per MW, $2,000-3,600/kW (Cortex Construct, data center construction cost "
        "breakdown, 2026). 0 to leave out.",
        ge=0,
        le=100_000,
    )
    facility_cooling_usd_per_kw: float = setting(
        0.0,
        title="Facility cooling plant per kW",
        unit="$/kW of IT power",
        source="Planner assumption: 0, as in colocation the provider's cooling plant is in the $/kW/month, and "
        "the liquid loop's CDUs "
        "are priced per unit in the bill of materials. For an owned new build, mechanical plant is 20-25% of "
        "$8-12M per MW, $1,600-3,000/kW (Cortex Construct, data center construction cost breakdown, 2026).",
        ge=0,
        le=100_000,
    )
    # -- project costs on top of the hardware (fractions of the bill of materials) -----
    installation_pct: float = setting(
        0.0,
        title="Installation and integration",
        unit="fraction of hardware",
        source="Planner assumption: 0, as rack-and-stack, cabling, burn-in and acceptance are quoted per project "
        "by an integrator; enter the integrator's figure "
        "(as a share of the bill of materials).",
        ge=0,
        le=1,
    )
    shipping_pct: float = setting(
        0.0,
        title="Shipping and insurance",
        unit="fraction of hardware",
        source="Planner assumption: 0, as freight and transit insurance are quoted per delivery; enter your figure.",
        ge=0,
        le=1,
    )
    tax_pct: float = setting(
        0.0,
        title="Sales / use tax on equipment",
        unit="fraction",
        source="Planner assumption: 0, as the rate depends on the jurisdiction and many data-centre equipment "
        "purchases are exempt; enter "
        "your rate. Applied to hardware and spares.",
        ge=0,
        le=1,
    )
    spares_pct: float = setting(
        0.0,
        title="Spare parts",
        unit="fraction of hardware",
        source="Planner assumption: 0 until set, as on-site spares (nodes, PSUs, fans, optics) held against failures "
        "follow your sparing policy.",
        ge=0,
        le=1,
    )
    contingency_pct: float = setting(
        0.0,
        title="Contingency",
        unit="fraction",
        source="Planner assumption: 0 until set; a reserve for what the plan does not foresee, on all capex above, "
        "is your finance team's policy.",
        ge=0,
        le=1,
    )
    support_pct_per_year: float = setting(
        0.0,
        title="Support and warranty per year",
        unit="fraction of hardware per year",
        source="Planner assumption: 0 until you enter your contract's figure for hardware support after the "
        "warranty the quote includes (a share of the bill of materials per year).",
        ge=0,
        le=1,
    )
    software_usd_per_gpu_year: float = setting(
        0.0,
        title="Software licences per GPU per year",
        unit="$/GPU/year",
        source="Planner assumption: 0, an open-source stack; NVIDIA AI Enterprise, e.g., is licensed per GPU "
        "per year (NVIDIA AI Enterprise licensing guide).",
        ge=0,
        le=1_000_000,
    )
    # -- finance -----------------------------------------------------------------
    depreciation_years: int = setting(
        5,
        title="Depreciation period (straight line)",
        unit="years",
        source="IRS Publication 946: computers and peripheral equipment are 5-year property; use your "
        "accounting policy.",
        ge=1,
        le=10,
    )
    discount_rate: float = setting(
        0.08,
        title="Discount rate",
        unit="per year",
        source="Planner assumption: a cost of capital; use your finance team's rate. NPV discounts each "
        "month at (1 + rate)^(1/12) - 1.",
        ge=0,
        le=1,
    )
    currency: str = setting(
        "USD",
        title="Reporting currency (ISO 4217 code)",
        source="Planner assumption: US dollars, the currency of the catalog's prices; the workbook and report "
        "also show the headline figures in this "
        "currency at the exchange rate below.",
        pattern=r"^[A-Z]{3}$",
    )
    usd_exchange_rate: float = setting(
        1.0,
        title="Exchange rate",
        unit="currency units per US dollar",
        source="Planner assumption: 1, for US dollars; enter the rate your finance team uses (e.g. from your "
        "bank or central bank).",
        gt=0,
        le=1e6,
    )

    def rental_rates(self, factor: float = 1.0) -> dict[str, float]:
        """Rental option -> $/GPU-hour, in the order the report and workbook list them: the
        H100 rates times ``factor``, the plan's GPUs' rate against an H100's (``gpu_factor``)."""
        return {
            "spot": self.rent_spot_usd_per_gpu_h * factor,
            "reserved_1yr": self.rent_reserved_1yr_usd_per_gpu_h * factor,
            "reserved_3yr": self.rent_reserved_3yr_usd_per_gpu_h * factor,
            "on_demand": self.rent_on_demand_usd_per_gpu_h * factor,
        }

    def gpu_factor(self, by_price: float) -> float:
        """The plan's GPUs' rental rate against an H100's: the user's figure, else ``by_price``
        (``planner.hardware.rent.rent_factor_by_price``)."""
        return self.rent_gpu_factor if self.rent_gpu_factor is not None else by_price

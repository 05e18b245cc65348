"""Power and cooling settings."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import GUIDE, Section, setting


class FacilitySettings(Section):
    power_basis: Literal["typical", "nameplate"] = setting(
        "typical",
        title="Power basis",
        source=f"{GUIDE}, sizes racks on typical draw (7 kW per 8 x H100 node); nameplate (10.2 kW, NVIDIA DGX "
        "H100/H200 User Guide) is the conservative basis.",
    )
    pue: float = setting(
        1.56,
        title="PUE",
        unit="",
        source="Uptime Institute, Global Data Center Survey 2023 and 2024: industry average PUE ~1.56-1.58; new "
        "large builds 1.3 or better.",
        why_low="a facility cannot use less power than its IT load",
        ge=1.0,
        le=3.0,
    )
    air_cooling_limit_kw: float = setting(
        25.0,
        title="Air-cooling limit per rack",
        unit="kW",
        source="Planner assumption: air cooling is practical up to about 20-30 kW per rack (sources differ); 25 kW "
        "is the midpoint.",
        gt=0,
        le=200,
    )
    cdu_policy: Literal["per_nodes", "capacity"] = setting(
        "capacity",
        title="CDU sizing",
        source="By capacity: the liquid heat at nameplate (design heat) over the CDU's rated kW, plus the "
        "redundancy below (vendors' CDU datasheets rate them in kW). The rule of thumb of "
        f"{GUIDE}, 'a CDU for every 8 nodes', stays selectable.",
    )
    cdu_redundancy: Literal["N", "N+1", "2N"] = setting(
        "N+1",
        title="CDU redundancy (by capacity)",
        source="One spare CDU so a pump or heat exchanger can be serviced at full load (ASHRAE TC 9.9 "
        "liquid cooling guidelines; Uptime Tier III concurrently maintainable).",
    )
    liquid_capture: float = setting(
        0.8,
        title="Heat to liquid, cold-plate devices without a datasheet figure",
        unit="fraction",
        source="Direct-to-chip cold plates on GPUs and CPUs take about 70-85% of a server's heat; memory, "
        "NICs, drives and power supplies stay on air (ASHRAE TC 9.9, 'Liquid Cooling Guidelines'). A "
        "device's own catalog figure wins.",
        ge=0,
        le=1,
    )
    coolant_cp_kj_kg_k: float = setting(
        4.18,
        title="Coolant specific heat",
        unit="kJ/(kg·K)",
        source="Water 4.18 kJ/(kg·K) at 20-40 °C; 25% propylene glycol ~3.9, 25% ethylene glycol ~3.7 "
        "(ASHRAE Handbook Fundamentals, ch. 31).",
        gt=0,
        le=10,
    )
    coolant_density_kg_l: float = setting(
        0.995,
        title="Coolant density",
        unit="kg/l",
        source="Water 0.995 kg/l at 30 °C; 25% propylene glycol ~1.02 (ASHRAE Handbook Fundamentals, ch. 31).",
        gt=0,
        le=3,
    )
    coolant_delta_t_k: float = setting(
        10.0,
        title="Coolant temperature rise (return - supply)",
        unit="K",
        source="Planner assumption: cold-plate loops are designed for a 10 K rise (NVIDIA GB200 NVL72 and OCP ACS cold-plate "
        "guidance: 5-15 K); flow Q = P / (c_p x density x delta T).",
        gt=0,
        le=60,
    )
    coolant_supply_c: float = setting(
        30.0,
        title="Facility water supply temperature",
        unit="°C",
        source="ASHRAE liquid cooling class W32 (up to 32 °C supply) allows chiller-free cooling most of the "
        "year; W17 needs chillers, W45 suits heat reuse.",
        ge=2,
        le=70,
    )
    rear_door_kw: float = setting(
        50.0,
        title="Rear-door heat exchanger capacity",
        unit="kW",
        source="Planner assumption: 50 kW, mid-range of the 30-75 kW per rack active rear-door heat exchangers "
        "remove into facility water (vendor datasheets, e.g. Motivair ChilledDoor, USystems ColdLogik); used by racks marked with a rear door.",
        gt=0,
        le=500,
    )
    nodes_per_cdu: int = setting(
        8,
        title="Liquid-cooled nodes per CDU",
        unit="nodes",
        source=f"{GUIDE}: 'direct-to-chip liquid cooling, with a CDU for every 8 nodes'.",
        why_low="a CDU serves at least one node",
        ge=1,
        le=1000,
    )
    cdu_device: str = setting(
        "cdu-inrack-250",
        title="CDU model",
        source="Planner assumption: an in-rack CDU at the top of the 50-250 kW in-rack class of vendors' CDU "
        "datasheets (e.g. Supermicro 250 kW, 4U).",
        min_length=1,
        max_length=64,
    )
    default_rack_cap_kw: float = setting(
        30.0,
        title="Default rack power cap",
        unit="kW",
        source=f"{GUIDE}: 'Most colocation facilities cap at 30kW per rack'.",
        gt=0,
        le=1000,
    )
    # -- the grid: what the utility or the site's generation accepts of the load's swings --------
    grid_max_swing_mw: float | None = setting(
        None,
        title="Grid: largest load swing allowed",
        unit="MW",
        source="Empty: no limit stated. The utility's or the site generation's dynamic power range, the "
        "short-term load change it accepts (a utility-level specification in E. Choukse et al., 'Power "
        "Stabilization for AI Training Datacenters', Microsoft, OpenAI, NVIDIA, arXiv 2508.14318, 2025); ask "
        "the utility for the figure of this site.",
        gt=0,
        le=100_000,
    )
    grid_max_ramp_mw_per_s: float | None = setting(
        None,
        title="Grid: fastest load ramp allowed",
        unit="MW/s",
        source="Empty: no limit stated. The utility's ramp-up and ramp-down rate limits (Choukse et al., arXiv "
        "2508.14318, utility-level specifications; NVIDIA, 'How New GB300 NVL72 Features Provide Steady Power "
        "for AI', 2025: generation takes one to 90 minutes to follow a ramp); ask the utility.",
        gt=0,
        le=100_000,
    )
    grid_avoid_period_min_s: float | None = setting(
        None,
        title="Grid: shortest swing period to avoid",
        unit="s",
        source="Empty: no band. A utility may name frequencies the load must not oscillate at (the resonances of "
        "its turbine-generators and lines: Choukse et al., arXiv 2508.14318, list critical frequency ranges from "
        "below 1 Hz to 100 Hz and more); a period of 1 / frequency. Ask the utility.",
        gt=0,
        le=100_000,
    )
    grid_avoid_period_max_s: float | None = setting(
        None,
        title="Grid: longest swing period to avoid",
        unit="s",
        source="Empty: no band. The band's other end (Choukse et al., arXiv 2508.14318); ask the utility.",
        gt=0,
        le=100_000,
    )
    gpu_comm_power_share: float = setting(
        0.3,
        title="GPU draw while the step waits (share of its TDP)",
        unit="fraction",
        source="Planner assumption: while the step waits on exposed communication, the pipeline bubble or a "
        "checkpoint, a GPU draws close to idle (Choukse et al., arXiv 2508.14318: compute phases near TDP, "
        "communication phases near idle); 30% of the TDP, above an idle GPU for the collectives' kernels. A "
        "GPU type's own catalog figure (comm_power_w) wins.",
        ge=0,
        le=1,
    )
    gpu_power_limit_w: float | None = setting(
        None,
        title="GPU power limit",
        unit="W",
        source="Empty: each GPU at its TDP (datasheet), no cap. A limit set with nvidia-smi -pl (NVIDIA System "
        "Management Interface documentation) between the GPU's minimum power limit and its TDP: the GPU lowers its "
        "clock to stay under it, so its tensor throughput falls (see the clock exponent below) and each node's "
        "typical and nameplate power fall by its GPUs x (TDP - limit). GPUs whose TDP is at or below the limit run "
        "uncapped.",
        gt=0,
        le=5000,
    )
    gpu_clock_power_exponent: float = setting(
        3.0,
        title="GPU power's growth with its clock (exponent k, P ~ f^k)",
        unit="",
        source="CMOS dynamic power P = a C V^2 f, with the voltage scaled along with the clock across the DVFS "
        "range (V ~ f), gives P ~ f^3 (N. Weste, D. Harris, 'CMOS VLSI Design', 4th ed., section 5.2; measured on "
        "NVIDIA GPUs: X. Mei, Q. Wang, X. Chu, 'A survey and measurement study of GPU DVFS on energy conservation', "
        "Digital Communications and Networks 3(2), 2017). A capped GPU's sustained clock, and so its compute-bound "
        "tensor throughput, is (limit / TDP)^(1/k) of the datasheet peak. Planner assumption: all of the TDP scales "
        "with the clock; a lower k (leakage and HBM power that do not scale) makes a cap cost more.",
        ge=1,
        le=5,
    )
    gpu_min_power_limit_share: float = setting(
        0.5,
        title="Lowest GPU power limit where the catalog has none (share of TDP)",
        unit="fraction",
        source="Planner assumption: where the catalog gives no minimum power limit for a GPU type, half its TDP. "
        "nvidia-smi reports 200 W of 700 W for the H100 SXM and 100 W of 400 W for the A100 SXM (Min Power Limit), "
        "so half is within what those GPUs accept.",
        gt=0,
        le=1,
    )
    gpu_power_edge_s: float = setting(
        0.1,
        title="Time a GPU takes between its compute and its waiting draw",
        unit="s",
        source="Planner assumption: the power traces of synchronous training (Choukse et al., arXiv 2508.14318, "
        "figure 1; NVIDIA's GB300 NVL72 blog, figure 1) change between the two levels in a step, well under a "
        "second; 0.1 s. The load's ramp is the swing over this time.",
        gt=0,
        le=600,
    )
    power_smoothing: Literal["none", "gpu_power_floor", "site_battery", "rack_storage"] = setting(
        "none",
        title="Power smoothing",
        source="What keeps the load's swing within the grid's limits (Choukse et al., arXiv 2508.14318, the "
        "GPU and datacenter measures): a GPU power floor, the lowest draw the GPUs keep while the step waits "
        "(NVIDIA GB300 NVL72 power smoothing; it burns energy), a site battery that charges in the waits "
        "and discharges in the compute, or the racks' own energy storage where the system has it (GB300 NVL72 "
        "power supplies: NVIDIA technical blog, 'How New GB300 NVL72 Features Provide Steady Power for AI', "
        "2025), which spreads each edge of the load. Each is sized to the limits above (without limits, to no "
        "swing).",
    )
    job_ramps: bool = setting(
        False,
        title="Ramp the job's stop and restart",
        source="At an interruption the GPUs step their draw down over a ramp (a power burn, as NVIDIA's GB300 "
        "NVL72 does at a job's end: NVIDIA technical blog, 2025) and at the restart are brought up in groups "
        "over the same ramp, so the grid sees a ramp instead of a step (Choukse et al., arXiv 2508.14318, ramp "
        "rate limits). With a site battery, the battery then need not take the drop.",
    )
    job_ramp_s: float = setting(
        60.0,
        title="Time the job's stop and restart are ramped over",
        unit="s",
        source="Planner assumption: a minute, the fastest that generation follows a ramp in NVIDIA's technical "
        "blog on GB300 NVL72 power smoothing (2025: one to 90 minutes); longer where the grid's ramp limit needs "
        "it (the drop over the limit). GPUs brought up in groups over it are idle half of it on average.",
        gt=0,
        le=86_400,
    )
    bess_usd_per_kw: float = setting(
        300.0,
        title="Site battery: price per kW of power",
        unit="$/kW",
        source="Planner assumption split from W. Cole and A. Karmakar, 'Cost Projections for Utility-Scale "
        "Battery Storage: 2023 Update', NREL/TP-6A40-85332 (the basis of NREL's Annual Technology Baseline): a "
        "4-hour system costs $245, $326 or $403 per kWh in 2030 (low, mid, high). Priced here as a power part "
        "(inverter, grid connection) of $300/kW plus an energy part (cells, enclosures) of $300/kWh: a 4-hour "
        "system at $375/kWh, between the mid and high cases. Replace with a quote.",
        ge=0,
        le=100_000,
    )
    bess_usd_per_kwh: float = setting(
        300.0,
        title="Site battery: price per kWh of storage",
        unit="$/kWh",
        source="Planner assumption: the energy part of the split of Cole and Karmakar's 4-hour system cost "
        "(NREL/TP-6A40-85332), see the price per kW. Replace with a quote.",
        ge=0,
        le=100_000,
    )
    bess_min_duration_h: float = setting(
        0.25,
        title="Site battery: least storage per unit of power",
        unit="h",
        source="Planner assumption: lithium-ion systems are built with at least about 15 minutes of storage at "
        "their rated power (the shortest, for frequency regulation, run 15-30 minutes; NREL's Annual Technology "
        "Baseline prices 2-10 hours). A step's swing needs seconds of storage; the battery is sold by this "
        "least duration.",
        ge=0,
        le=24,
    )
    bess_round_trip_efficiency: float = setting(
        0.85,
        title="Site battery: round-trip efficiency",
        unit="fraction",
        source="NREL, Annual Technology Baseline, utility-scale battery storage, after the technical report of "
        "W. Cole and A. Karmakar (NREL/TP-6A40-85332, 2023): 85% round-trip efficiency for lithium-ion systems.",
        gt=0,
        le=1,
    )

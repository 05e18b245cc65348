"""The report's optional sections (network, cost) as rows for the exports; tolerant of absence."""

from __future__ import annotations

from typing import Any

from planner.costs.bom import NO_CATALOG_PART, bom_counts
from planner import vocabulary
from planner.hardware.catalog import Catalog
from planner.plan.model import Plan
from planner.report.model import Report
from ui.export.labels import TIER_LINKS, describe, number


def money(value: Any) -> str:
    return vocabulary.text(value, "$")


def cost_headlines(report: Report) -> list[tuple[str, str]]:
    """Capex, opex and TCO from the cost section, where it has them."""
    cost = report.cost
    if cost is None:
        return []
    return [("Capex", money(cost.capex_usd)), ("Opex per month", money(cost.opex_usd_per_month)),
            ("TCO", money(cost.tco_usd))]


# The network figures a vendor quotes from, in this order: what to buy, how it is wired, and
# what the design is meant to deliver. (The per-fabric comparison, scaling curve and training
# step breakdown are the planner's; they stay in the app and the workbook.)
VENDOR_NETWORK_KEYS = ("fabric", "topology", "switch_model", "tiers", "leaf_switches", "spine_switches",
                       "core_switches", "switch_ports_needed", "switch_ports_placed", "oversubscription", "sharp",
                       "cables", "transceivers", "optical_links", "copper_links", "effective_bandwidth_gbs",
                       "allreduce_ms", "gpu_idle_pct")


def network_rows(report: Report, catalog: Catalog | None = None) -> list[list[str]]:
    """The network section as (label, value with unit) rows for a vendor: switch model by its
    catalog name, cables per tier, no empty tiers."""
    net = report.network
    if net is None:
        return []
    rows: list[list[str]] = []
    cost = report.sections.get("cost")
    for key in VENDOR_NETWORK_KEYS:
        value = getattr(net, key)
        if key == "core_switches" and not value:
            continue  # a two-tier fabric has no core
        if key == "transceivers" and cost is not None:
            # the modules the bill of materials buys (twin-port modules serve two links; copper
            # runs need none), not the sizing's count of every run as optical: one figure per pack
            rows.append(["Fabric transceivers (modules, as in the bill of materials)",
                         number(bom_counts(cost.bom)["transceiver"])])
            rows += part_rows(cost.parts.get("transceivers", {}), "Transceivers, all networks, by module", catalog)
            rows += ordered_cable_rows(cost.bom)
            continue
        label, text = describe("network", key, value, catalog)
        rows.append([label, text])
        if key == "cables":
            for tier, n in net.cables_per_tier.items():
                if n:
                    rows.append([f"    {TIER_LINKS.get(tier, tier)}", number(n)])
    return rows


def ordered_cable_rows(bom) -> list[list[str]]:
    """A heading row and one row per kind of cable the bill of materials orders ("Fabric
    cable, 400G passive copper DAC"), its stock lengths left to the cable pages and the bill (a
    catalog part of another length only prices a line, so its name would give the same cables
    a second length; and a campus orders hundreds of lengths)."""
    counts: dict[str, int] = {}
    for line in bom:
        if line.part_kind == "cable":
            head, _, tail = line.item.rpartition(", ")
            kind = head if head and tail.endswith(" m") else line.item
            counts[kind] = counts.get(kind, 0) + line.quantity
    if not counts:
        return []
    return [["Cables, all networks, by kind (lengths in the bill of materials)", number(sum(counts.values()))]] + [
        [f"    {kind}", number(n)] for kind, n in counts.items()]


def part_rows(counts: dict[str, int], title: str, catalog: Catalog | None) -> list[list[str]]:
    """A heading row and one row per catalog part of the bill of parts, by its catalog name."""
    if not counts:
        return []

    def name(part_id: str) -> str:
        c = catalog.components.get(part_id) if catalog is not None else None
        return c.title if c is not None else "without a catalog part" if part_id == NO_CATALOG_PART else part_id

    return [[title, number(sum(counts.values()))]] + [[f"    {name(i)}", number(n)] for i, n in counts.items()]


# The goodput figures a vendor is asked to meet: how often the plan is expected to stop, how
# it checkpoints, and what that leaves of the time (the curve stays in the app and workbook).
VENDOR_GOODPUT_KEYS = ("job_gpus", "job_hosts", "spare_nodes", "interruptions_per_day", "mtbf_h",
                       "checkpoint_interval_min", "checkpoint_interval_auto", "checkpoint_block_s",
                       "lost_per_interruption_min", "ettr", "goodput_tokens_per_s", "time_to_train_days",
                       "node_failures_per_repair")


def goodput_rows(report: Report) -> list[list[str]]:
    """The goodput section as (label, value with unit) rows; none without an ETTR."""
    g = report.sections.get("goodput")
    if g is None or g.ettr is None:
        return []
    return [list(describe("goodput", key, getattr(g, key))) for key in VENDOR_GOODPUT_KEYS]


# what the utility and the facility engineer read of the power dynamics section
VENDOR_DYNAMICS_KEYS = ("peak_mw", "floor_mw", "swing_mw", "period_s", "ramp_mw_per_s", "interruption_drop_mw",
                        "interruption_drop_s", "interruptions_per_day", "mean_mw", "raw_swing_mw", "max_swing_mw",
                        "max_ramp_mw_per_s", "smoothing", "gpu_floor_w", "bess_mw", "bess_mwh", "rack_storage_wh",
                        "edge_s", "job_ramp_s")
VENDOR_DYNAMICS_MONEY = ("smoothing_capex_usd", "energy_cost_usd_per_year",
                         "gpu_time_cost_usd_per_year")  # with prices only


def dynamics_rows(report: Report, with_prices: bool = False) -> list[list[str]]:
    """The power dynamics section as (label, value with unit) rows, its costs ``with_prices``;
    none without a training step."""
    d = report.sections.get("power_dynamics")
    if d is None or d.peak_mw is None:
        return []
    keys = VENDOR_DYNAMICS_KEYS + (VENDOR_DYNAMICS_MONEY if with_prices else ())
    # a smoothing the plan does not have is not listed: no floor, no battery, no rack storage, no ramps
    storage = d.smoothing == "rack_storage"
    absent = {"gpu_floor_w": not d.gpu_floor_w, "bess_mw": not d.bess_mw, "bess_mwh": not d.bess_mwh,
              "rack_storage_wh": not storage, "edge_s": not storage, "job_ramp_s": not d.job_ramps,
              "gpu_time_cost_usd_per_year": not d.job_ramps}
    return [list(describe("power_dynamics", key, getattr(d, key))) for key in keys if not absent.get(key)]


def fabric_headline(report: Report) -> tuple[str, str] | None:
    """("Compute fabric, rail-optimised", "400G InfiniBand (NDR)"): the plan's fabric for the cover."""
    net = report.network
    if net is None or not net.fabric:
        return None
    label, title = describe("network", "fabric", net.fabric)
    if net.topology:
        label += ", " + describe("network", "topology", net.topology)[1]
    return label, title


def describe_where(plan: Plan, where: str | None) -> str:
    """A finding's location as the user knows it: rack name or device label."""
    if not where:
        return ""
    rack = plan.rack(where)
    if rack is not None:
        return rack.name
    p = plan.placement(where)
    if p is not None:
        r = plan.rack(p.rack)
        return f"{p.label or p.id} ({r.name if r else p.rack})"
    return where

"""What a plan's GPUs rent for against an H100: the rental rates of the cost settings are H100
rates (the planning guide's snapshot of specialist clouds), and renting a plan's job means
renting its own GPUs. A GPU is taken to rent at the H100 rates times its price per GPU over
the H100's (planner assumption: a cloud's hourly rate recovers the capital it put into the
GPU, so rates follow purchase prices; H200 and B200 rent dearer than H100, A100 cheaper). A
GPU's price is the catalog's lowest price per GPU of a system that carries it (a cloud buys
the cheapest system for a GPU), a rack-scale system whole: its compute trays alone (GB300's
$195,000 for 4 GPUs against the rack's $3.7M for 72) lack the NVLink switch trays, power
shelves and rack that make them a system; a plan of several GPU systems weighs each by its
GPUs. The
user's own figure, a quote's ratio, replaces it (``CostSettings.rent_gpu_factor``)."""

from __future__ import annotations

from planner.hardware.catalog import Catalog

QUOTED_GPU = "H100 SXM 80GB"
"""The GPU the rental rates are quoted for (the catalog's GPU model name)."""


def gpu_price_usd(catalog: Catalog, gpu_model: str) -> float | None:
    """The catalog's lowest price per GPU of a GPU system carrying ``gpu_model``; None when
    no priced system carries it."""
    prices = [d.price_usd / d.gpus for d in catalog
              if d.is_gpu_system and d.gpu is not None and d.gpu.model == gpu_model and d.gpus and d.price_usd > 0]
    return min(prices) if prices else None


def rent_factor_by_price(catalog: Catalog, counts: dict[str, int]) -> float:
    """The plan's GPUs' rental rate over an H100's by their prices (module docstring); 1.0
    when the catalog prices no H100 system or the plan has no priced GPU system."""
    reference = gpu_price_usd(catalog, QUOTED_GPU)
    if not reference:
        return 1.0
    gpus = weighted = 0.0
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or not d.is_gpu_system or d.gpu is None or not n:
            continue
        price = gpu_price_usd(catalog, d.gpu.model)
        if price is None:
            continue
        gpus += n * d.gpus
        weighted += n * d.gpus * price
    return weighted / gpus / reference if gpus else 1.0

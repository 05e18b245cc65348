"""Device labels that continue a series: ``node-17`` after ``node-16``, ``leaf-09`` after ``leaf-08``."""

from __future__ import annotations

import re
from collections import Counter

from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.model import Plan

_NUMBERED = re.compile(r"^(.*?)(\d+)$")

CATEGORY_PREFIX = {"gpu_server": "node-", "switch": "sw-", "storage": "stor-", "cdu": "cdu-", "pdu": "pdu-",
                   "other": "dev-"}
"""The series a device starts when no device of its type or category is labelled yet."""


def series_prefix(plan: Plan, catalog: Catalog, device: DeviceType) -> str:
    """The prefix most labels of this device type use, else of its category, else the category's default."""
    same_type: Counter[str] = Counter()
    same_category: Counter[str] = Counter()
    for p in plan.placements:
        m = _NUMBERED.match(p.label)
        if not m or not m.group(1):
            continue
        if p.device == device.id:
            same_type[m.group(1)] += 1
        else:
            other = catalog.get(p.device)
            if other is not None and other.category == device.category:
                same_category[m.group(1)] += 1
    for counts in (same_type, same_category):
        if counts:
            return counts.most_common(1)[0][0]
    return CATEGORY_PREFIX.get(device.category, "dev-")


class LabelSeries:
    """The next labels of one prefix: one more than the highest number in use, zero-padded
    like the series is (``leaf-08`` -> ``leaf-09``; ``node-9`` -> ``node-10``)."""

    def __init__(self, plan: Plan, prefix: str):
        self.prefix = prefix
        highest, width = 0, 0
        # one regex over every label: a design continues series ~100 times over 71,679 devices
        # (campus-1m), and a Python-level loop a label made that 3 s of `new`'s 11 s
        in_series = re.compile(re.escape(prefix) + r"(\d+)$").fullmatch
        labels = [] if prefix[-1:].isdigit() else [p.label for p in plan.placements]  # "x9" + "1": not a series
        for m in filter(None, map(in_series, labels)):
            digits = m.group(1)
            highest = max(highest, int(digits))
            if len(digits) > 1 and digits.startswith("0"):
                width = max(width, len(digits))
        self.number, self.width = highest, width

    def next(self) -> str:
        self.number += 1
        return f"{self.prefix}{self.number:0{self.width}d}"


def next_label(plan: Plan, catalog: Catalog, device: DeviceType) -> str:
    """The label a new device of this type gets: the next of its series."""
    return LabelSeries(plan, series_prefix(plan, catalog, device)).next()


SLUG_LENGTH = 60  # the longest file name stem made from a plan's name


def file_slug(name: str, fallback: str = "plan") -> str:
    """A safe file name stem from a plan name: "16-node LLM cluster (128 x H100)" -> "16-node-llm-cluster-128-x-h100";
    a number's thousands separators are dropped ("1,024 x B200" -> "1024-x-b200", not "1-024")."""
    name = re.sub(r"(?<=\d),(?=\d{3}\b)", "", name)
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if len(slug) > SLUG_LENGTH:  # cut at a word's end, not inside one ("...-from-template-in")
        head = slug[:SLUG_LENGTH + 1]  # a hyphen right after the 60th character ends a word there
        slug = head.rsplit("-", 1)[0] if "-" in head.lstrip("-") else slug[:SLUG_LENGTH]
    return slug.rstrip("-") or fallback

"""The measured figures recorded as an "As built" variant of the plan, so every figure of the
report is recomputed for the cluster as delivered and compare shows planned vs as built.

- Fabric: the measured share of the expected cross-node all-reduce busbw (else of the
  expected ib_write_bw) scales the plan's fabric efficiency; it is recorded under the
  fabric's custom efficiency profile, as the efficiency of the plan's technology.
- Storage: the measured one-host checkpoint write x the hosts of a node is the node's
  storage bandwidth (``storage.node_storage_gbs``).
"""

from __future__ import annotations

from planner.acceptance.criteria import AcceptancePack
from planner.acceptance.results import Verdict
from planner.errors import PlannerError
from planner.hardware.catalog import Catalog
from planner.network.technologies import efficiency
from planner.plan.commands import CommandError, Macro
from planner.plan.model import Plan
from planner.plan.variants import CreateVariant, DeleteVariant, SwitchVariant
from planner.settings import Settings

AS_BUILT = "As built"
RECORD_LABEL = "Record as-built results"


def _ratio(verdicts: list[Verdict], test_id: str) -> float | None:
    v = next((v for v in verdicts if v.test_id == test_id and v.expected_gbs), None)
    return None if v is None else v.measured_gbs / v.expected_gbs


def as_built_settings(plan: Plan, pack: AcceptancePack, verdicts: list[Verdict]) -> tuple[Settings, list[str]]:
    """The plan's settings with the measured figures in, and one line per figure recorded."""
    settings = plan.settings
    fabric, storage = settings.fabric, settings.storage
    notes: list[str] = []
    ratio = _ratio(verdicts, "nccl.all_reduce.cluster")
    basis = "cross-node all-reduce busbw"
    if ratio is None:
        ratio, basis = _ratio(verdicts, "ib_write_bw"), "ib_write_bw"
    if ratio is not None:
        tech = fabric.technology
        now = efficiency(fabric, tech)
        new = round(min(1.0, max(0.01, now * ratio)), 4)
        fabric = type(fabric).model_validate({**fabric.model_dump(), "efficiency_profile": "custom",
                                              f"efficiency_{tech}": new})
        notes.append(f"fabric efficiency {now:.3f} -> {new:.3f} ({basis} at {100 * ratio:.0f} % of expected)")
    write = next((v for v in verdicts if v.test_id == "fio.checkpoint_write.node"), None)
    if write is not None and write.measured_gbs > 0:
        per_node = round(write.measured_gbs * pack.hosts_per_node, 3)
        storage = type(storage).model_validate({**storage.model_dump(), "node_storage_gbs": per_node})
        notes.append(f"storage bandwidth per node {per_node:,.1f} GB/s (measured checkpoint write)")
    if not notes:
        raise PlannerError("no measured nccl-tests, ib_write_bw or fio checkpoint write to record as built")
    return settings.model_copy(update={"fabric": fabric, "storage": storage}), notes


class RecordAsBuilt(Macro):
    """Add (or replace) the "As built" variant as one undo step: the current variant with the
    measured figures; the plan stays on the variant it was on. ``notes``: one line per
    figure recorded (after ``do``)."""

    def __init__(self, pack: AcceptancePack, verdicts: list[Verdict]):
        super().__init__(RECORD_LABEL, [])
        self.pack, self.verdicts = pack, list(verdicts)
        self.notes: list[str] = []

    def do(self, plan, catalog):
        if AS_BUILT == plan.current_variant:
            raise CommandError(f"the plan is on its '{AS_BUILT}' variant; measure against the planned variant")
        try:
            settings, self.notes = as_built_settings(plan, self.pack, self.verdicts)
        except PlannerError as exc:
            raise CommandError(str(exc)) from None
        start = plan.current_variant
        built = plan.model_copy(update={"settings": settings})  # the current racks and devices, measured settings
        self.commands = ([DeleteVariant(AS_BUILT)] if AS_BUILT in plan.variant_names else []) + [
            CreateVariant(AS_BUILT, source=built), SwitchVariant(start)]
        return super().do(plan, catalog)


def record_as_built(plan: Plan, catalog: Catalog, pack: AcceptancePack, verdicts: list[Verdict]) -> list[str]:
    """Do ``RecordAsBuilt`` on ``plan`` (the command line's way, with no undo); the lines recorded."""
    command = RecordAsBuilt(pack, verdicts)
    command.do(plan, catalog)  # CommandError is a PlannerError: the command line's message
    return command.notes

"""Auto-place that keeps the design whole: placing N GPU nodes also adds the fabric
switches and ports, storage, storage and management switches and CDUs they need, and
re-picks the parallelism for every GPU, as one undo step."""

from __future__ import annotations

from planner.design.intent import DesignError
from planner.design.layout import Layout, gpu_counts, job_summary
from planner.design.intent import DeviceCount, Intent, RackSpec
from planner.design.parallelism import choose_parallelism
from planner.plan.autoplace import AutoPlace
from planner.plan.changes import ChangeSet
from planner.plan.commands import Command, CommandError, _device_type

_STORAGE = "pfs-appliance"  # the plan's storage appliance when it has none yet


class PlaceNodes(Command):
    """``count`` nodes of ``device`` by auto-place (into ``racks`` first), then what they need."""

    def __init__(self, device: str, count: int, *, racks: list[str] | None = None, label_prefix: str = "node-"):
        self.device, self.count, self.racks, self.label_prefix = device, count, racks, label_prefix
        self._title = device
        self._done: list[AutoPlace] = []
        self._workload = self._new_workload = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Auto-place {self.count} x {self._title} with their network, storage and cooling"

    def do(self, plan, catalog):
        if self._done:  # redo: replay the same edits so ids stay stable for later commands
            changes = ChangeSet(settings=frozenset({"workload"}), structure=True)
            for c in self._done:
                changes = changes | c.do(plan, catalog)
            plan.settings.workload = self._new_workload
            return changes
        d = _device_type(catalog, self.device)
        if d.gpu is None:
            raise CommandError(f"{d.title} is not a GPU node")
        self._title = d.title
        old_workload = plan.settings.workload
        nodes = AutoPlace(self.device, self.count, racks=self.racks, new_rack_prefix="GPU",
                          label_prefix=self.label_prefix)
        changes = nodes.do(plan, catalog)
        # the job's nodes (they write the checkpoints the storage is sized for) and the hot spares beside them
        placed, spares = sum(gpu_counts(plan, catalog).values()), plan.settings.reliability.spare_nodes
        layout = Layout(plan, catalog, self._intent(plan, catalog), d, max(0, placed - spares),
                        spares=min(spares, placed))
        layout.net = [r.id for r in plan.racks if any(
            catalog.get(p.device) is not None and catalog[p.device].switch is not None
            for p in plan.rack_members(r.id).values())]
        gpu_racks = plan.in_rack_order(p.rack for p in plan.placements if p.device == self.device)
        try:
            layout.complete(gpu_racks)
        except (DesignError, CommandError) as exc:
            for c in reversed(layout.done):
                c.undo(plan, catalog)
            nodes.undo(plan, catalog)
            raise CommandError(str(exc)) from None
        self._done = [nodes, *layout.done]
        changes = changes | layout.changes
        summary = job_summary(plan, catalog)  # the job's GPUs: the hot spares stay out of the parallelism
        if plan.settings.workload.enabled and summary.gpus:
            plan.settings.workload, _ = choose_parallelism(plan.settings.workload, plan.settings.fabric, summary)
        self._workload, self._new_workload = old_workload, plan.settings.workload
        return changes | ChangeSet(settings=frozenset({"workload"}), structure=True)

    def _intent(self, plan, catalog) -> Intent:
        storage = next((p.device for p in plan.placements
                        if catalog.get(p.device) is not None and catalog[p.device].storage is not None), _STORAGE)
        # the plan's fabric switch is the user's: nodes its three tiers cannot hold are refused
        # with the reason, not moved silently onto another model (its placed switches left unused)
        return Intent(system=self.device, nodes=self.count, storage=DeviceCount(device=storage),
                      cdu_rack=RackSpec(prefix="CDU", cooling="liquid"), switch=plan.settings.fabric.switch_device)

    def undo(self, plan, catalog):
        changes = ChangeSet(settings=frozenset({"workload"}), structure=True)
        for c in reversed(self._done):
            changes = changes | c.undo(plan, catalog)
        if self._workload is not None:
            plan.settings.workload = self._workload
        return changes


"""A finding's remedy (``planner.findings.Remedy``) as an undoable command.

The additions reuse the design's placement (``planner.design.layout``): fabric switches go
into the network racks with room, then into new air-cooled network racks; CDUs one into each
liquid-cooled GPU rack with room, the rest into row-end CDU racks. The parallelism is the
design's (``choose_parallelism``); the batch is the figure the finding names. Rack splits and
moves are in ``planner.remedies.rack_commands``; a rack's cooling, a larger PDU, 2N feeds and a workload
change (the pipeline bubble's) set the settings the remedy names.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.design.intent import DesignError
from planner.design.layout import Layout, gpu_counts, plan_system, job_summary
from planner.design.intent import Intent
from planner.design.parallelism import choose_parallelism
from planner.design.racks import switch_label
from planner.findings import Remedy
from planner.plan.changes import ChangeSet
from planner.plan.commands import Command, CommandError, EditRack, Macro, RemoveDevices, SetSetting
from planner.remedies.rack_commands import MoveToLiquid, SplitRack
from planner.settings import WorkloadSettings
from planner.workload.search import split_text


def remedy_command(remedy: Remedy) -> Command:
    """The command that applies ``remedy``; its label is the remedy's."""
    if remedy.kind not in REMEDY_KINDS:
        raise CommandError(f"there is no automatic remedy '{remedy.kind}'")
    return REMEDY_KINDS[remedy.kind](remedy)


def _layout(plan, catalog) -> Layout:
    """The design's placement over the plan as it is: its GPU system, its network racks."""
    counts = gpu_counts(plan, catalog)
    system = plan_system(plan, catalog)
    if system is None:
        raise CommandError("the plan has no GPU nodes to size for")
    layout = Layout(plan, catalog, Intent(system=system, nodes=counts[system]), catalog[system],
                     sum(counts.values()))
    layout.net = [r.id for r in plan.racks if any(
        catalog.get(p.device) is not None and catalog[p.device].switch is not None
        for p in plan.rack_members(r.id).values())]
    return layout


class AddMissing(Command):
    """Add ``count`` fabric switches or CDUs where the design would put them, as one step."""

    def __init__(self, remedy: Remedy):
        self.remedy = remedy
        self.device, self.count = str(remedy.figure("device")), int(remedy.figure("count"))
        self._done: list[Command] = []

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.remedy.label

    def do(self, plan, catalog):
        if self._done:  # redo: the same edits, so ids stay stable for later commands
            changes = ChangeSet(structure=True)
            for c in self._done:
                changes = changes | c.do(plan, catalog)
            return changes
        layout = _layout(plan, catalog)
        had = {r.id for r in plan.racks}
        try:
            if self.remedy.kind == "add_switches":
                layout.place(self.device, self.count, layout._net_spec(), layout.net,
                             switch_label(catalog, self.device))
            else:
                gpus = gpu_counts(plan, catalog)
                gpu_racks = plan.in_rack_order(p.rack for p in plan.placements if p.device in gpus)
                layout.add_cdus(gpu_racks, self.count)
        except DesignError as exc:
            for c in reversed(layout.done):
                c.undo(plan, catalog)
            raise CommandError(str(exc)) from None
        self._done = list(layout.done)
        changes = layout.changes | ChangeSet(structure=True)
        # a rack the layout opened stands in the row of the rack before it (the design lays rows
        # out after placing; a remedy does not, and a rack without a row stands nowhere)
        for rack in [r for r in plan.racks if r.id not in had]:
            index = plan.rack_index(rack.id)
            before = next((r for r in reversed(plan.racks[:index]) if r.row), None)
            if not rack.row and before is not None:
                edit = EditRack(rack.id, row=before.row)
                changes = changes | edit.do(plan, catalog)
                self._done.append(edit)
        return changes

    def undo(self, plan, catalog):
        changes = ChangeSet(structure=True)
        for c in reversed(self._done):
            changes = changes | c.undo(plan, catalog)
        return changes


class SetParallelism(Command):
    """TP x PP x DP over the job's GPUs (every placed GPU less the hot spares', as the check
    counts them: ``job_nodes``), as the design chooses it."""

    def __init__(self, remedy: Remedy):
        self.remedy = remedy
        self._old = self._new = None

    @property
    def label(self) -> str:  # type: ignore[override]
        w = self._new
        return self.remedy.label if w is None else f"Set the parallelism to {split_text(w)}"

    def do(self, plan, catalog):
        old = plan.settings.workload
        if self._new is None:
            summary = job_summary(plan, catalog)
            new, _ = choose_parallelism(old, plan.settings.fabric, summary)
            if not summary.gpus or new.tp * new.cp * new.pp * new.dp != summary.gpus:
                raise CommandError(f"no TP x PP x DP uses all {summary.gpus:,} of the job's GPUs for this model")
            self._new = new
        self._old = old
        plan.settings.workload = self._new
        return ChangeSet(settings=frozenset({"workload"}))

    def undo(self, plan, catalog):
        plan.settings.workload = self._old
        return ChangeSet(settings=frozenset({"workload"}))


class _RemedySetting(SetSetting):
    """One setting the remedy names, labelled as the remedy."""

    def __init__(self, remedy: Remedy, section: str, name: str, value):
        super().__init__(section, name, value)
        self.remedy = remedy

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.remedy.label


def _set_batch(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "workload", "global_batch_tokens", int(remedy.figure("tokens")))


def _set_pdu(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "power", "pdu_device", str(remedy.figure("device")))


def _set_nic_rate(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "fabric", "nic_link_gbps", float(remedy.figure("gbps")))


def _set_restart_path(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "reliability", "restart_path", str(remedy.figure("path")))


def _set_feeds(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "power", "feed_redundancy", str(remedy.figure("redundancy")))


def _set_fabric_switch(remedy: Remedy) -> Command:
    return _RemedySetting(remedy, "fabric", "switch_device", str(remedy.figure("device")))


def _set_fabric(remedy: Remedy) -> Command:
    """The fabric technology, its switch model and SHARP at once, as one step."""
    return Macro(remedy.label, [SetSetting("fabric", "technology", str(remedy.figure("technology"))),
                                SetSetting("fabric", "switch_device", str(remedy.figure("device"))),
                                SetSetting("fabric", "sharp", remedy.figure("sharp") == "on")])


class RemoveSwitches(Command):
    """The remedy's count of placed devices of its type taken out, the last placed first
    (switches no network uses)."""

    def __init__(self, remedy: Remedy):
        self.remedy = remedy
        self._done: RemoveDevices | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.remedy.label

    def do(self, plan, catalog):
        device = str(self.remedy.figure("device"))
        ids = [p.id for p in plan.placements if p.device == device][-int(self.remedy.figure("count")):]
        if not ids:
            raise CommandError(f"no {device} is placed")
        self._done = RemoveDevices(ids)
        return self._done.do(plan, catalog)

    def undo(self, plan, catalog):
        return self._done.undo(plan, catalog)


def _set_rack_cooling(remedy: Remedy) -> Command:
    command = EditRack(str(remedy.figure("rack")), cooling=str(remedy.figure("cooling")))
    command.label = remedy.label
    return command


def _set_smoothing(remedy: Remedy) -> Command:
    """The smoothing and whether the job's stop and restart are ramped, as one step."""
    figures = dict(remedy.figures)
    commands: list[Command] = [SetSetting("facility", "power_smoothing", str(figures["smoothing"]))]
    if "job_ramps" in figures:
        commands.append(SetSetting("facility", "job_ramps", figures["job_ramps"] == "on"))
    return Macro(remedy.label, commands)


class SetWorkload(Command):
    """Several workload settings at once (the pipeline bubble's remedy: schedule and virtual
    stages, PP and DP, or the batch), as one step."""

    def __init__(self, remedy: Remedy):
        self.remedy = remedy
        self._old = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.remedy.label

    def do(self, plan, catalog):
        old = plan.settings.workload
        try:
            new = WorkloadSettings.model_validate({**old.model_dump(), **dict(self.remedy.figures)})
        except ValueError as exc:
            raise CommandError(f"the workload cannot take {dict(self.remedy.figures)}: {exc}") from None
        self._old = old
        plan.settings.workload = new
        return ChangeSet(settings=frozenset({"workload"}))

    def undo(self, plan, catalog):
        plan.settings.workload = self._old
        return ChangeSet(settings=frozenset({"workload"}))


REMEDY_KINDS: dict[str, Callable[[Remedy], Command]] = {
    "add_switches": AddMissing, "add_cdus": AddMissing, "set_parallelism": SetParallelism, "set_batch": _set_batch,
    "set_pdu": _set_pdu, "add_pdus": _set_feeds, "split_rack": SplitRack, "move_to_liquid": MoveToLiquid,
    "set_workload": SetWorkload, "set_nic_rate": _set_nic_rate, "set_restart_path": _set_restart_path,
    "set_smoothing": _set_smoothing, "set_rack_cooling": _set_rack_cooling, "set_fabric_switch": _set_fabric_switch,
    "set_fabric": _set_fabric,
    "remove_devices": RemoveSwitches}

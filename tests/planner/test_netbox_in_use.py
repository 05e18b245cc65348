"""Two plans into one NetBox: their files checked as NetBox 4.x's bulk-import forms would take
them, file by file in the folder's order, against what the NetBox already holds.

``NetBox`` below keeps what NetBox's models keep unique and refuses what its import forms
refuse (netbox/dcim/forms/bulk_import.py, v4.4 and v4.5.8): a name or slug that exists
("already exists", the whole file fails), a reference that resolves to nothing or, for the
forms that find a device by name alone (interfaces, power ports, power outlets), to devices
of several sites; a cable end that is not there or already cabled.

Why it is long: the simulated NetBox (what its import forms accept) is the fixture every
test here stands on, and it belongs beside them.
"""

from __future__ import annotations

import copy
import csv
import math
from collections import defaultdict
from pathlib import Path

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan

KINDS = {"dcim.interface": "interfaces", "dcim.powerport": "power-ports", "dcim.poweroutlet": "power-outlets"}


class Refused(AssertionError):
    pass


class NetBox:
    """What the import forms check, and NetBox's rack power utilisation."""

    def __init__(self) -> None:
        self.sites: set[str] = set()
        self.slugs: dict[str, set] = defaultdict(set)
        self.locations: set = set()
        self.manufacturers: dict[str, str] = {}  # name -> slug
        self.roles: dict[str, str] = {}
        self.types: dict[tuple, tuple] = {}  # (manufacturer, model) -> (slug, template components)
        self.racks: set = set()
        self.devices: dict[tuple, str] = {}  # (site, name) -> rack
        self.components: dict[tuple, dict] = {}  # (site, device, kind, name) -> fields
        self.feeds: dict[tuple, dict] = {}  # (site, panel, name) -> row
        self.panels: set = set()
        self.cabled: set = set()
        self.links: list[tuple] = []

    # -- helpers ------------------------------------------------------------------------------
    def _new(self, kind: str, key, slug: str | None = None) -> None:
        store = getattr(self, kind)
        if key in store or (slug is not None and slug in self.slugs[kind]):
            raise Refused(f"{kind}: {key} already exists")
        if slug is not None:
            self.slugs[kind].add(slug)

    def _device(self, name: str, site: str | None = None) -> tuple:
        found = [k for k in self.devices if k[1] == name and (site is None or k[0] == site)]
        if len(found) != 1:
            raise Refused(f"device {name!r}: {'not found' if not found else 'more than one'}")
        return found[0]

    def _end(self, row: dict, side: str) -> tuple:
        site = row.get(f"side_{side}_site") or None
        if row[f"side_{side}_type"] == "dcim.powerfeed":
            key = (site, row[f"side_{side}_power_panel"], row[f"side_{side}_name"])
            if key not in self.feeds:
                raise Refused(f"power feed {key} not found")
            return ("feed", *key)
        device = self._device(row[f"side_{side}_device"], site)
        key = (*device, KINDS[row[f"side_{side}_type"]], row[f"side_{side}_name"])
        if key not in self.components:
            raise Refused(f"{side.upper()} side termination not found: {key}")
        return key

    # -- one file -----------------------------------------------------------------------------
    def import_file(self, path: Path) -> int:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        kind = path.name[3:-4].rstrip("0123456789").rstrip("-")
        getattr(self, "_" + kind.replace("-", "_"))(rows)
        return len(rows)

    def _sites(self, rows):
        for r in rows:
            self._new("sites", r["name"], r["slug"])
            self.sites.add(r["name"])

    def _locations(self, rows):
        # LocationImportForm: site, parent (a location of that site, found by name), name, slug, status
        for r in rows:
            assert r["site"] in self.sites and r["slug"] and r["status"] == "planned", r
            if r["parent"] and (r["site"], r["parent"]) not in self.locations:
                raise Refused(f"location {r['name']}: parent {r['parent']!r} not found")
            self._new("locations", (r["site"], r["name"]), (r["site"], r["slug"]))
            self.locations.add((r["site"], r["name"]))

    def _manufacturers(self, rows):
        for r in rows:
            if r["name"] in self.manufacturers or r["slug"] in self.manufacturers.values():
                raise Refused(f"manufacturer {r['name']} already exists")
            self.manufacturers[r["name"]] = r["slug"]

    def _device_roles(self, rows):
        for r in rows:
            if r["name"] in self.roles or r["slug"] in self.roles.values():
                raise Refused(f"device role {r['name']} already exists")
            self.roles[r["name"]] = r["slug"]

    def _device_types(self, rows):
        for r in rows:
            if r["manufacturer"] not in self.manufacturers:
                raise Refused(f"manufacturer {r['manufacturer']} not found")
            key = (r["manufacturer"], r["model"])
            if key in self.types or any(m == r["manufacturer"] and s == r["slug"]
                                        for (m, _), (s, _) in self.types.items()):
                raise Refused(f"device type {key} already exists")
            self.types[key] = (r["slug"], frozenset())

    def _racks(self, rows):
        for r in rows:
            key = (r["site"], r["location"], r["name"])
            assert (r["site"], r["location"]) in self.locations, key
            if key in self.racks:
                raise Refused(f"rack {key} already exists")
            self.racks.add(key)

    def _devices(self, rows):
        for r in rows:
            assert r["role"] in self.roles and r["manufacturer"] in self.manufacturers, r
            if (r["manufacturer"], r["device_type"]) not in self.types:
                raise Refused(f"device type {r['device_type']} not found")
            assert (r["site"], r["location"], r["rack"]) in self.racks, r
            key = (r["site"], r["name"])
            if key in self.devices or len(r["name"]) > 64:
                raise Refused(f"device {key} already exists or is too long")
            self.devices[key] = r["rack"]
            for kind, name in self.types[(r["manufacturer"], r["device_type"])][1]:
                self.components[(*key, kind, name)] = {}  # made from the type's templates

    def _components(self, rows, kind):
        for r in rows:
            key = (*self._device(r["device"]), kind, r["name"])  # by name alone, as the forms do
            if key in self.components:
                raise Refused(f"{kind} {key} already exists")
            if kind == "power-outlets" and r["power_port"]:
                assert (*key[:2], "power-ports", r["power_port"]) in self.components, r
            self.components[key] = r

    def _power_ports(self, rows):
        self._components(rows, "power-ports")

    def _power_outlets(self, rows):
        self._components(rows, "power-outlets")

    def _interfaces(self, rows):
        self._components(rows, "interfaces")

    def _power_panels(self, rows):
        for r in rows:
            assert (r["site"], r["name"]) not in self.panels
            self.panels.add((r["site"], r["name"]))

    def _power_feeds(self, rows):
        for r in rows:
            key = (r["site"], r["power_panel"], r["name"])
            assert (r["site"], r["power_panel"]) in self.panels and key not in self.feeds, key
            self.feeds[key] = r

    def _cables(self, rows):
        for r in rows:
            a, b = self._end(r, "a"), self._end(r, "b")
            for end in (a, b):
                if end in self.cabled:
                    raise Refused(f"{end} is already connected")
                self.cabled.add(end)
            self.links.append((a, b))

    _power_cables = _power_feed_cables = _cables

    def _inventory_items(self, rows):
        for r in rows:  # InventoryItemImportForm: the device by name alone; unique (device, parent, name)
            if r["manufacturer"] and r["manufacturer"] not in self.manufacturers:
                raise Refused(f"manufacturer {r['manufacturer']} not found")
            key = (*self._device(r["device"]), "inventory-items", r["name"])
            if key in self.components:
                raise Refused(f"inventory item {key} already exists")
            self.components[key] = r

    # -- what NetBox shows --------------------------------------------------------------------
    def rack_power_utilisation(self, site: str, rack: str) -> float:
        """Rack.get_power_utilization: the allocated draw of the power ports cabled to the
        outlets of the PDUs on the rack's feeds, over the feeds' available power."""
        peer = {a: b for a, b in self.links} | {b: a for a, b in self.links}
        feeds = [k for k, f in self.feeds.items() if k[0] == site and f["rack"] == rack]
        available = sum(float(self.feeds[k]["voltage"]) * float(self.feeds[k]["amperage"])
                        * (math.sqrt(3) if self.feeds[k]["phase"] == "three-phase" else 1)
                        * int(self.feeds[k]["max_utilization"]) / 100 for k in feeds)
        allocated = 0.0
        for k in feeds:
            inlet = peer[("feed", *k)]
            outlets = [c for c, r in self.components.items() if c[:2] == inlet[:2] and c[2] == "power-outlets"
                       and r.get("power_port") == inlet[3]]
            allocated += sum(int(self.components[peer[o]]["allocated_draw"]) for o in outlets if o in peer)
        return round(allocated / available * 100, 1)


def import_folder(netbox: NetBox, folder: Path, chunk_rows: int) -> None:
    for path in sorted(folder.iterdir()):  # the names keep the import order: number, then part
        assert netbox.import_file(path) <= chunk_rows, path.name


def export(tmp_path: Path, plan, name: str, *options: str) -> Path:
    save_plan(plan, tmp_path / f"{name}.json")
    out = tmp_path / name
    assert main(["export", str(tmp_path / f"{name}.json"), "-o", str(out), "--netbox", *options]) == 0
    return out


def netbox_exports(netbox: NetBox, folder: Path) -> list[str]:
    """NetBox's own exports of its device types (YAML, "All data"), manufacturers and roles (CSV),
    with the columns NetBox 4.4 writes."""
    folder.mkdir()
    docs = []
    for (maker, model), (slug, _) in netbox.types.items():
        docs.append(f"manufacturer: {maker}\nmodel: '{model}'\nslug: {slug}\nu_height: 1.0\nis_full_depth: true\n")
    (folder / "device-types.yaml").write_text("---\n".join(docs))
    with open(folder / "manufacturers.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Name", "Rack Types", "Device Types", "Module Types", "Description", "Slug", "ID"])
        w.writerows([n, 0, 1, 0, "", s, i] for i, (n, s) in enumerate(netbox.manufacturers.items()))
    with open(folder / "device-roles.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Name", "Devices", "VMs", "Color", "VM role", "Description", "ID", "Slug"])
        w.writerows([n, 1, 0, "#000000", "False", "", i, s] for i, (n, s) in enumerate(netbox.roles.items()))
    return [str(folder / n) for n in ("device-types.yaml", "manufacturers.csv", "device-roles.csv")]


@pytest.fixture(scope="module")
def plans():
    catalog = default_catalog()
    return build_template("medium", catalog=catalog), build_template("gb200-nvl72-su", catalog=catalog)


def test_two_plans_go_into_one_netbox_with_prefixes_and_what_it_holds(tmp_path, plans):
    medium, gb200 = plans
    netbox = NetBox()
    import_folder(netbox, export(tmp_path, medium, "a", "--prefix", "a"), 100)
    first = len(netbox.devices)
    second = export(tmp_path, gb200, "b", "--prefix", "b")
    with pytest.raises(Refused, match="manufacturer .* already exists"):  # the shared objects, again
        copy.deepcopy(netbox).import_file(next(second.glob("03-*")))
    has = netbox_exports(netbox, tmp_path / "nb-export")
    second = export(tmp_path, gb200, "b2", "--prefix", "b", "--netbox-has", *has)
    import_folder(netbox, second, 100)
    # every device of both plans, and one PDU per power feed
    placed = len(medium.placements) + len(gb200.placements)
    assert len(netbox.devices) - first == len(gb200.placements) + sum(1 for k in netbox.feeds if k[0] == gb200.name)
    assert len(netbox.devices) == placed + len(netbox.feeds)
    assert all(name.startswith(("a-", "b-")) for _, name in netbox.devices)
    # every feed cabled to a PDU, every powered device to an outlet
    assert {e for link in netbox.links for e in link if e[0] == "feed"} == {("feed", *k) for k in netbox.feeds}


def test_without_a_prefix_the_same_plan_twice_is_ambiguous(tmp_path, plans):
    medium = plans[0]
    netbox = NetBox()
    import_folder(netbox, export(tmp_path, medium, "one"), 100)
    other = medium.model_copy(update={"name": "Second site"})
    has = netbox_exports(netbox, tmp_path / "nb")
    with pytest.raises(Refused, match="more than one"):  # node-1 of both sites
        import_folder(netbox, export(tmp_path, other, "two", "--netbox-has", *has), 100)
    import_folder(_fresh(tmp_path, medium), export(tmp_path, other, "three", "--prefix", "s2", "--netbox-has",
                                                    *has), 100)


def _fresh(tmp_path: Path, plan) -> NetBox:
    netbox = NetBox()
    import_folder(netbox, export(tmp_path, plan, "fresh"), 100)
    return netbox


def test_a_library_device_type_is_reused_with_its_templates(tmp_path, plans):
    medium = plans[0]
    # a NetBox holding the community library's QM9700 (slug nvidia-qm9700, ports swp1-64)
    netbox = NetBox()
    netbox.manufacturers["Nvidia"] = "nvidia"
    templates = frozenset({("interfaces", f"swp{i}") for i in range(1, 65)} | {("power-ports", "psu0")})
    netbox.types[("Nvidia", "QM9700")] = ("nvidia-qm9700", templates)
    (tmp_path / "dt.yaml").write_text("manufacturer: Nvidia\nmodel: QM9700\nslug: nvidia-qm9700\nu_height: 1\n"
                                      "power-ports:\n  - name: psu0\ninterfaces:\n"
                                      + "".join(f"  - name: swp{i}\n    type: 400gbase-x-osfp\n" for i in range(1, 65)))
    out = export(tmp_path, medium, "lib", "--prefix", "m", "--netbox-has", str(tmp_path / "dt.yaml"))
    import_folder(netbox, out, 100)
    switches = [k for k, rack in netbox.devices.items() if k[1].startswith("m-ib-")]
    assert len(switches) == 10  # 8 leaves + 2 spines, all on the library's type
    rows = list(csv.DictReader(open(out / "05-device-types.csv", newline="")))
    assert not any("QM9700" in r["model"] for r in rows)  # not written again
    assert not any(r["name"] == "NVIDIA" for r in csv.DictReader(open(out / "03-manufacturers.csv", newline="")))


def test_netbox_computes_rack_power_from_the_pdus(tmp_path, plans):
    medium = plans[0]
    netbox = NetBox()
    import_folder(netbox, export(tmp_path, medium, "p", "--prefix", "p"), 100)
    # GPU-01: four HGX H100 nodes at 7,000 W allocated = 28,000 W, over four feeds (A1, A2,
    # B1, B2) of 415 V x 60 A x sqrt(3) x 80 % = 34,501 W each = 138,004 W: 20.3 %
    assert netbox.rack_power_utilisation(medium.name, "GPU-01") == 20.3


def test_files_are_split_into_parts_of_the_chosen_size(tmp_path, plans):
    gb200 = plans[1]
    out = export(tmp_path, gb200, "c", "--chunk-rows", "250")
    parts = sorted(p.name for p in out.glob("12-interfaces-*.csv"))
    # 3,872 interfaces (its storage leaf-spine's five SN5600 129 each: 128 ports and a BMC) in
    # parts of 250: 15 full parts and one of 122
    assert parts == [f"12-interfaces-{k:02d}.csv" for k in range(1, 17)]
    sizes = [sum(1 for _ in open(out / p)) - 1 for p in parts]
    assert sizes == [250] * 15 + [122]
    import_folder(NetBox(), out, 250)
    default = export(tmp_path, gb200, "d")
    assert len(list(default.glob("12-interfaces-*.csv"))) == 39  # 3,872 rows / 100 per part


def test_text_fields_fit_netbox_and_are_elided_at_a_word(tmp_path, plans):
    plan = build_template("medium", catalog=default_catalog())
    plan.description = "A description of many words " * 12  # 336 characters
    plan.placements[0].label = "a very long device label that is much longer than NetBox takes " * 2
    out = export(tmp_path, plan, "t", "--prefix", "x")
    (site,) = csv.DictReader(open(out / "01-sites.csv", newline=""))
    assert len(site["description"]) <= 200 and site["description"].endswith("…")
    kept = site["description"][:-1]
    assert plan.description.startswith(kept) and plan.description[len(kept)] == " "  # cut before a space
    names = [r["name"] for p in sorted(out.glob("07-devices*.csv")) for r in csv.DictReader(open(p, newline=""))]
    assert max(map(len, names)) <= 64 and names[0].startswith("x-a very long") and names[0].endswith("…")

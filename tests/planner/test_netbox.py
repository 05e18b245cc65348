"""NetBox round trip: the plan as NetBox 4.x bulk-import CSV files, and NetBox device-type YAML
(the community library's schema) read into a catalog file.

Why it is long: one export's tests, file by file in NetBox's import order, with the counts
worked out by hand beside each.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog, read_catalog_file
from planner.network.cables import build_schedule
from planner.plan.fileio import save_plan

# The field names of NetBox's import forms (netbox/dcim/forms/bulk_import.py, v4.6: the
# ``Meta.fields`` of SiteImportForm, LocationImportForm, ManufacturerImportForm,
# DeviceRoleImportForm, DeviceTypeImportForm, RackImportForm, DeviceImportForm,
# PowerPanelImportForm, PowerFeedImportForm, PowerPortImportForm, InterfaceImportForm,
# CableImportForm), and the ones each form requires.
NETBOX_FIELDS = {
    "sites.csv": ({"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description",
                   "physical_address", "shipping_address", "latitude", "longitude", "owner", "comments", "tags"},
                  {"name", "slug", "status"}),
    "locations.csv": ({"site", "parent", "name", "slug", "status", "tenant", "facility", "description", "owner",
                       "comments", "tags"}, {"site", "name", "slug", "status"}),
    "manufacturers.csv": ({"name", "slug", "description", "owner", "comments", "tags"}, {"name", "slug"}),
    "device-roles.csv": ({"name", "slug", "parent", "color", "vm_role", "config_template", "description", "owner",
                          "comments", "tags"}, {"name", "slug"}),
    "device-types.csv": ({"manufacturer", "default_platform", "model", "slug", "part_number", "u_height",
                          "exclude_from_utilization", "is_full_depth", "subdevice_role", "airflow", "description",
                          "weight", "weight_unit", "owner", "comments", "tags"}, {"manufacturer", "model", "slug"}),
    "racks.csv": ({"site", "location", "group", "name", "facility_id", "tenant", "status", "role", "rack_type",
                   "form_factor", "serial", "asset_tag", "width", "u_height", "desc_units", "outer_width",
                   "outer_height", "outer_depth", "outer_unit", "mounting_depth", "airflow", "weight", "max_weight",
                   "weight_unit", "description", "owner", "comments", "tags"},
                  {"site", "name", "status", "width", "u_height"}),  # width and height: no rack type given
    "devices.csv": ({"name", "role", "tenant", "manufacturer", "device_type", "platform", "serial", "asset_tag",
                     "status", "site", "location", "rack", "position", "face", "latitude", "longitude", "parent",
                     "device_bay", "airflow", "virtual_chassis", "vc_position", "vc_priority", "cluster",
                     "description", "config_template", "owner", "comments", "tags"},
                    {"role", "manufacturer", "device_type", "status", "site"}),
    "power-panels.csv": ({"site", "location", "name", "description", "owner", "comments", "tags"}, {"site", "name"}),
    "power-feeds.csv": ({"site", "power_panel", "location", "rack", "name", "status", "type", "mark_connected",
                         "supply", "phase", "voltage", "amperage", "max_utilization", "tenant", "description",
                         "owner", "comments", "tags"},
                        {"site", "power_panel", "name", "status", "type", "supply", "phase"}),
    "power-ports.csv": ({"device", "name", "label", "type", "mark_connected", "maximum_draw", "allocated_draw",
                         "description", "owner", "tags"}, {"device", "name"}),
    "power-outlets.csv": ({"device", "name", "label", "type", "color", "mark_connected", "power_port", "feed_leg",
                           "description", "owner", "tags"}, {"device", "name"}),
    "interfaces.csv": ({"device", "name", "label", "parent", "bridge", "lag", "type", "speed", "duplex", "enabled",
                        "mark_connected", "wwn", "vdcs", "mtu", "mgmt_only", "description", "poe_mode", "poe_type",
                        "mode", "vlan_group", "untagged_vlan", "tagged_vlans", "qinq_svlan", "vrf", "rf_role",
                        "rf_channel", "rf_channel_frequency", "rf_channel_width", "tx_power", "owner", "tags"},
                       {"device", "name", "type"}),
    "cables.csv": ({"side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
                    "side_b_site", "side_b_device", "side_b_power_panel", "side_b_type", "side_b_name", "type",
                    "status", "profile", "tenant", "bundle", "label", "color", "length", "length_unit",
                    "description", "owner", "comments", "tags"},
                   {"side_a_type", "side_a_name", "side_b_type", "side_b_name"}),
}
NETBOX_FIELDS["inventory-items.csv"] = ({"device", "name", "label", "status", "role", "manufacturer", "parent",
                                         "part_id", "serial", "asset_tag", "discovered", "description", "owner",
                                         "tags", "component_type", "component_name"}, {"device", "name"})
NETBOX_FIELDS["power-cables.csv"] = NETBOX_FIELDS["power-feed-cables.csv"] = NETBOX_FIELDS["cables.csv"]
# NetBox's choices (netbox/dcim/choices.py) for the columns the export fills
CHOICES = {("racks.csv", "status"): {"reserved", "available", "planned", "active", "deprecated"},
           ("racks.csv", "width"): {"10", "19", "21", "23"},
           ("devices.csv", "status"): {"offline", "active", "planned", "staged", "failed", "inventory",
                                       "decommissioning"},
           ("devices.csv", "face"): {"front", "rear"},
           ("power-feeds.csv", "type"): {"primary", "redundant"},
           ("power-feeds.csv", "supply"): {"ac", "dc"},
           ("power-feeds.csv", "phase"): {"single-phase", "three-phase"},
           ("cables.csv", "status"): {"connected", "planned", "decommissioning"}}


def read(folder: Path, name: str) -> tuple[list[str], list[dict]]:
    """The header and rows of the file for ``name`` ("racks.csv" is written as "06-racks.csv"),
    its parts ("12-interfaces-01.csv", ...) read in order, each with the same header."""
    stem = name[:-4]
    paths = sorted(folder.glob(f"[0-9][0-9]-{stem}.csv")) + sorted(folder.glob(f"[0-9][0-9]-{stem}-[0-9]*.csv"))
    assert paths, name
    header, rows = None, []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows += list(reader)
            assert header in (None, reader.fieldnames), path
            header = reader.fieldnames
    return list(header or []), rows


@pytest.fixture(scope="module")
def medium_export(tmp_path_factory):
    """The medium template with its racks in two rows (NetBox locations), exported by the command."""
    folder = tmp_path_factory.mktemp("netbox")
    plan = build_template("medium", catalog=default_catalog())
    for i, rack in enumerate(plan.racks):
        rack.row = "Row A" if i < 4 else "Row B"
    save_plan(plan, folder / "medium.json")
    out = folder / "netbox"
    assert main(["export", str(folder / "medium.json"), "-o", str(out), "--netbox"]) == 0
    return out, plan


def test_every_file_has_netbox_import_field_names(medium_export):
    out, _ = medium_export
    # numbered in the order NetBox must import them: each refers only to the ones before it
    stems = [re.sub(r"-\d+\.csv$", ".csv", p.name) for p in sorted(out.iterdir())]
    assert list(dict.fromkeys(stems)) == [f"{i:02d}-{n}" for i, n in enumerate(NETBOX_FIELDS, 1)]
    for name, (fields, required) in NETBOX_FIELDS.items():
        header, rows = read(out, name)
        assert set(header) <= fields, (name, set(header) - fields)
        assert required <= set(header), (name, required - set(header))
        for row in rows:
            assert all(row[k] != "" for k in required), (name, row)
            for (file, column), allowed in CHOICES.items():
                if file == name and row.get(column):
                    assert row[column] in allowed, (name, column, row[column])


def test_every_device_sits_in_a_rack_of_the_racks_file_at_a_position_it_has(medium_export):
    out, plan = medium_export
    _, racks = read(out, "racks.csv")
    _, listed = read(out, "devices.csv")
    _, types = read(out, "device-types.csv")
    # rack PDUs are devices too, mounted at the side (no U): one per power feed
    devices = [d for d in listed if d["position"]]
    pdus = [d for d in listed if not d["position"]]
    assert len(pdus) == len(read(out, "power-feeds.csv")[1]) == 22 and not any(d["face"] for d in pdus)
    height = {(r["site"], r["location"], r["name"]): int(r["u_height"]) for r in racks}
    u_of = {(t["manufacturer"], t["model"]): int(t["u_height"]) for t in types}
    assert len(racks) == len(plan.racks) == 7 and len(devices) == len(plan.placements) == 37
    # the plan's one building and one hall, its two rows in the hall (NetBox location parents)
    parents = {(loc["site"], loc["name"]): loc["parent"] for loc in read(out, "locations.csv")[1]}
    site = racks[0]["site"]
    assert parents == {(site, "Building 1"): "", (site, "Hall 1"): "Building 1", (site, "Row A"): "Hall 1",
                       (site, "Row B"): "Hall 1"}
    locations = set(parents)
    assert all((r["site"], r["location"]) in locations for r in racks)
    for d in devices:
        key = (d["site"], d["location"], d["rack"])
        assert key in height, d
        top = int(d["position"]) + u_of[(d["manufacturer"], d["device_type"])] - 1
        assert 1 <= int(d["position"]) and top <= height[key], d
        assert d["face"] == "front"
    assert len({d["name"] for d in listed}) == len(listed)  # NetBox names devices uniquely per site


def test_types_roles_and_manufacturers_are_declared_before_use(medium_export):
    out, _ = medium_export
    _, devices = read(out, "devices.csv")
    roles = {r["name"] for r in read(out, "device-roles.csv")[1]}
    makers = {m["name"] for m in read(out, "manufacturers.csv")[1]}
    types = {(t["manufacturer"], t["model"]) for t in read(out, "device-types.csv")[1]}
    for d in devices:
        assert d["role"] in roles and d["manufacturer"] in makers and (d["manufacturer"], d["device_type"]) in types


def test_power_ports_and_feeds_follow_the_plans_power(medium_export):
    out, plan = medium_export
    _, ports = read(out, "power-ports.csv")
    _, devices = read(out, "devices.csv")
    by_name = {d["name"]: d for d in devices}
    # an 8 x H100 HGX node: 10.2 kW nameplate, 7 kW typical (catalog hgx-h100-8)
    node = next(p for p in ports if by_name[p["device"]]["device_type"].startswith("HGX H100"))
    assert (int(node["maximum_draw"]), int(node["allocated_draw"])) == (10200, 7000)
    _, feeds = read(out, "power-feeds.csv")
    # GPU-01 holds four nodes: feeds are sized on the nameplate, 4 x 10.2 = 40.8 kW, so two
    # 34.5 kW circuits on each feed, A and B (2N)
    gpu01 = [f for f in feeds if f["rack"] == "GPU-01"]
    assert sorted(f["name"] for f in gpu01) == ["GPU-01-A1", "GPU-01-A2", "GPU-01-B1", "GPU-01-B2"]
    # the PDU's circuit: 3-phase 415 V 60 A (sqrt(3) x 415 V x 60 A x 0.8 = 34.5 kW)
    assert {(f["voltage"], f["amperage"], f["phase"]) for f in feeds} == {("415", "60", "three-phase")}
    assert {p["name"] for p in read(out, "power-panels.csv")[1]} == {"PP-A", "PP-B"}


def test_under_a_gpu_power_limit_each_device_draws_and_its_feeds_carry_the_capped_figure(tmp_path):
    # 350 W a GPU: an HGX H100 node draws 8 x (700 - 350) = 2.8 kW less than its datasheet,
    # 7.4 kW nameplate and 4.2 typical; GPU-01's four nodes need 4 x 7.4 = 29.6 kW, one 34.5 kW
    # circuit a feed (two at the datasheet's 40.8). The device type stays the hardware's.
    plan = build_template("medium", catalog=default_catalog())
    plan.settings.facility = plan.settings.facility.model_copy(update={"gpu_power_limit_w": 350})
    save_plan(plan, tmp_path / "capped.json")
    out = tmp_path / "netbox"
    assert main(["export", str(tmp_path / "capped.json"), "-o", str(out), "--netbox"]) == 0
    by_name = {d["name"]: d for d in read(out, "devices.csv")[1]}
    node = next(p for p in read(out, "power-ports.csv")[1]
                if by_name[p["device"]]["device_type"].startswith("HGX H100"))
    assert (int(node["maximum_draw"]), int(node["allocated_draw"])) == (7400, 4200)
    gpu01 = sorted(f["name"] for f in read(out, "power-feeds.csv")[1] if f["rack"] == "GPU-01")
    assert gpu01 == ["GPU-01-A1", "GPU-01-B1"]


def test_cables_join_interfaces_that_exist_once_each(medium_export):
    out, _ = medium_export
    interfaces = {(i["device"], i["name"]) for i in read(out, "interfaces.csv")[1]}
    _, cables = read(out, "cables.csv")
    ends = [(c["side_a_device"], c["side_a_name"]) for c in cables] + \
           [(c["side_b_device"], c["side_b_name"]) for c in cables]
    assert set(ends) <= interfaces
    assert max(Counter(ends).values()) == 1  # a port takes one cable
    labels = Counter(c["label"] for c in cables)
    # 16 nodes x 8 compute NICs = 128 node-leaf cables; 8 leaves x 16 uplinks = 128 to the 2 spines;
    # then the schedule's storage (16 x 2 + 7 x 4) and management (36 powered devices) links
    assert labels == {"node-leaf": 128, "leaf-spine": 128, "storage": 60, "management": 36}


def test_a_three_tier_fabric_is_cabled_tier_by_tier(tmp_path):
    """massive: 48 nodes x 8 rails = 384 node-leaf links on 16 leaves (8 of 32 down, 8 of 16);
    spread evenly (ECMP) over spines of 32 ports down: 2 links from each leaf to each of 16
    spines, 16 x 32 = 512 leaf-spine links, as many spine-core to 512 / 64 = 8 cores."""
    plan = build_template("massive", catalog=default_catalog())
    save_plan(plan, tmp_path / "massive.json")
    assert main(["export", str(tmp_path / "massive.json"), "-o", str(tmp_path / "nb"), "--netbox"]) == 0
    _, cables = read(tmp_path / "nb", "cables.csv")
    labels = Counter(c["label"] for c in cables)
    assert {k: labels.pop(k) for k in ("storage", "storage-spine", "management")} == {
        k: n for k, n in build_schedule(plan, default_catalog()).totals()["by_tier"].items()
        if k in ("storage", "storage-spine", "management")}  # every storage NIC's link, every powered device's BMC port
    assert labels == {"node-leaf": 384, "leaf-spine": 512, "spine-core": 512}
    ends = [(c["side_a_device"], c["side_a_name"]) for c in cables] + \
           [(c["side_b_device"], c["side_b_name"]) for c in cables]
    assert max(Counter(ends).values()) == 1
    fabric = [c for c in cables if c["label"] in ("node-leaf", "leaf-spine", "spine-core")]
    per_switch = Counter(device for c in fabric for device, name in ((c["side_a_device"], c["side_a_name"]),
                                                                     (c["side_b_device"], c["side_b_name"]))
                         if name.startswith("swp"))
    assert max(per_switch.values()) <= 64  # a QM9700 has 64 ports


# -- NetBox device types in, catalog entries out ------------------------------------------

GPU_SERVER = """\
manufacturer: Example Systems
model: XG-480 GPU Server
slug: example-systems-xg-480
part_number: XG480-8
u_height: 4
is_full_depth: true
airflow: front-to-rear
weight: 132
weight_unit: lb
power-ports:
  - name: PSU1
    type: iec-60320-c20
    maximum_draw: 2700
    allocated_draw: 2100
  - name: PSU2
    type: iec-60320-c20
    maximum_draw: 2700
    allocated_draw: 2100
interfaces:
""" + "".join(f"  - name: osfp{i}\n    type: 400gbase-x-osfp\n" for i in range(1, 9)) + """\
  - name: bmc
    type: 1000base-t
    mgmt_only: true
"""

SWITCH = """\
manufacturer: Example Networks
model: XS-6400
slug: example-networks-xs-6400
u_height: 1
is_full_depth: true
weight: 14.5
weight_unit: kg
power-ports:
  - name: PS1
    maximum_draw: 1100
  - name: PS2
    maximum_draw: 1100
interfaces:
""" + "".join(f"  - name: swp{i}\n    type: 400gbase-x-osfp\n" for i in range(1, 65)) + """\
  - name: eth0
    type: 1000base-t
    mgmt_only: true
"""

NO_HEIGHT = """\
manufacturer: Example Systems
model: Mystery Box
slug: example-systems-mystery
is_full_depth: false
"""


def write_yaml(folder: Path, **files: str) -> list[str]:
    paths = []
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text)
        paths.append(str(folder / f"{name}.yaml"))
    return paths


def test_a_gpu_server_and_a_switch_import_with_their_u_power_and_ports(tmp_path, capsys):
    server, switch = write_yaml(tmp_path, server=GPU_SERVER, switch=SWITCH)
    out = tmp_path / "mine.json"
    assert main(["catalog", "import", server, switch, "-o", str(out), "--gpu", "H100 SXM 80GB:8"]) == 0
    printed = capsys.readouterr().out
    devices = {d.id: d for d in read_catalog_file(out)}
    gpu = devices["example-systems-xg-480"]
    assert (gpu.category, gpu.u_height, gpu.vendor, gpu.model) == ("gpu_server", 4, "Example Systems",
                                                                   "XG-480 GPU Server")
    # two ports of 2,700 W allocating 2 x 2,100 = 4,200 W typical: one supply cannot carry
    # 4,200 W, so both carry the load, 5,400 W nameplate
    assert (gpu.power_max_w, gpu.power_typical_w) == (5400, 4200)
    assert gpu.weight_kg == pytest.approx(132 * 0.45359237, abs=0.001)  # 59.874 kg
    assert [(n.count, n.gbps, n.technology, n.purpose) for n in gpu.nics] == [(8, 400, "ethernet", "compute")]
    assert (gpu.gpu.count, gpu.gpu.model) == (8, "H100 SXM 80GB")
    assert gpu.price_usd == 0 and "price" in gpu.notes and "price" in printed
    sw = devices["example-networks-xs-6400"]
    # two identical 1,100 W supplies are 1+1 redundant: one carries the load, 1,100 W nameplate
    assert (sw.category, sw.u_height, sw.power_max_w, sw.weight_kg) == ("switch", 1, 1100, 14.5)
    assert (sw.switch.ports, sw.switch.gbps_per_port, sw.switch.technology) == (64, 400, "ethernet")
    assert sw.power_typical_w == 1100 and "typical power" in sw.notes  # no allocated_draw: marked
    # the file is a catalog the planner loads
    assert main(["--catalog", str(out), "catalog", "--json"]) == 0
    assert "example-networks-xs-6400" in capsys.readouterr().out


def test_without_a_gpu_the_server_is_marked_to_complete(tmp_path, capsys):
    (server,) = write_yaml(tmp_path, server=GPU_SERVER)
    out = tmp_path / "mine.json"
    assert main(["catalog", "import", server, "-o", str(out)]) == 0
    (d,) = read_catalog_file(out)
    assert d.category == "other" and d.gpu is None and "GPU count and model" in d.notes
    assert "GPU count and model" in capsys.readouterr().out


def test_a_file_without_u_height_is_refused_in_one_line_and_the_others_are_written(tmp_path, capsys):
    (bad,) = write_yaml(tmp_path, nohu=NO_HEIGHT)
    out = tmp_path / "mine.json"
    assert main(["catalog", "import", bad, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nohu.yaml" in err and "u_height" in err and "missing" in err, err
    assert not out.exists()
    # with good files beside it: the bad file named, the good ones written, status 1
    good = write_yaml(tmp_path, server=GPU_SERVER, switch=SWITCH)
    assert main(["catalog", "import", *good, bad, "-o", str(out)]) == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 1 and "nohu.yaml" in err[0] and "not imported" in err[0]
    assert "2 device types imported" in captured.out and "1 of 3 files not imported" in captured.out
    assert {d.id for d in read_catalog_file(out)} == {"example-systems-xg-480", "example-networks-xs-6400"}


def test_every_cable_with_its_medium_and_length_matches_the_bill(tmp_path):
    """medium: the cable schedule's compute fabric (128 + 128 links), 60 storage links (16 nodes
    x 2 + 7 appliances x 4 to the SN5600 split) and 36 management links (one per powered device
    but the management switch) with their stock lengths: 352 cables, as many as the bill of
    parts has cables; by medium and length every row is the bill of materials' cable lines
    (the fabric's in-rack passive copper and fibre too, not one medium without a length)."""
    from planner.hardware.catalog import default_catalog as cat
    from planner.report.evaluate import evaluate

    catalog = cat()
    plan = build_template("medium", catalog=catalog)
    save_plan(plan, tmp_path / "m.json")
    assert main(["export", str(tmp_path / "m.json"), "-o", str(tmp_path / "nb"), "--netbox"]) == 0
    _, cables = read(tmp_path / "nb", "cables.csv")
    assert Counter(c["label"] for c in cables) == {"node-leaf": 128, "leaf-spine": 128, "storage": 60,
                                                   "management": 36}
    report = evaluate(plan, catalog)
    assert len(cables) == sum(report.cost.parts["cables"].values()) == 352
    media = {"ACC": "dac-active", "AOC": "aoc", "MMF": "mmf-om4", "Cat6A": "cat6a", "DAC": "dac-passive"}
    bom = Counter()
    for line in report.cost.bom:
        if line.item.startswith(("Fabric cable, ", "Storage cable, ", "Management cable, ")):
            part = line.item.split(", ", 1)[1]  # "200G active optical cable, 10 m"
            medium = next(m for m, words in (("ACC", "active copper"), ("AOC", "active optical"), ("MMF", "multimode"),
                                             ("Cat6A", "Cat6A"), ("DAC", "passive copper")) if words in part)
            bom[(media[medium], part.rsplit(", ", 1)[1].removesuffix(" m"))] += line.quantity
    rows = Counter((c["type"], c["length"]) for c in cables)
    assert rows == bom
    assert rows[("dac-passive", "1.5")] == 128  # each node's 8 rails to the leaves in its rack
    assert all(c["length_unit"] == "m" for c in cables)
    _, interfaces = read(tmp_path / "nb", "interfaces.csv")
    named = {(i["device"], i["name"]) for i in interfaces}
    assert all((c["side_a_device"], c["side_a_name"]) in named and (c["side_b_device"], c["side_b_name"]) in named
               for c in cables)


def test_the_devices_hold_the_transceivers_the_bill_buys_as_inventory_items(tmp_path):
    """medium: the bill of parts' modules (125 + 28 single-port SR4, 64 + 14 twin-port, by
    hand in tests/planner/test_parts_bill.py) are inventory items of the devices that hold
    them. By device, from the cage rule: a node's single-port ConnectX-7 cages take one SR4 per
    fibre run: 8 compute rails + 2 storage ports on 14 nodes; the 2 nodes whose storage ports
    are on 5 m copper (the 4 ACC storage runs) take their 8 rails, but node-16's last 3 rails are
    on copper too: 8 and 5;
    a QM9700 leaf's twin-port cages ceil(fibre ends / 2) = 8 (16 or 15 ends); the SN5600's
    28 storage ends 14 twin-port; the spines (1.5 m DAC) none."""
    catalog = default_catalog()
    items, bill = _items_and_bill(tmp_path, "medium", catalog)
    assert Counter(i["part_id"] for i in items) == bill == {"xcvr-400g-osfp-sr4": 153, "xcvr-2x400g-osfp-sr8": 78}
    _, devices = read(tmp_path / "nb", "devices.csv")
    kind = {d["name"]: d["device_type"] for d in devices}
    held = Counter(i["device"] for i in items)
    nodes = sorted(n for n, t in kind.items() if catalog["hgx-h100-8"].model in t)
    assert len(nodes) == 16 and sorted(held[n] for n in nodes) == [5, 8] + [8 + 2] * 14
    leaves = [n for n in held if kind[n] == catalog["qm9700"].model]
    assert len(leaves) == 8 and all(held[n] == 8 for n in leaves)  # the 2 spines hold none
    assert [held[n] for n in held if kind[n] == catalog["sn5600-400"].model] == [14]
    # each row names a device of the export, a manufacturer it writes, and a name unique on its device
    _, makers = read(tmp_path / "nb", "manufacturers.csv")
    assert {i["manufacturer"] for i in items} <= {m["name"] for m in makers}
    assert len({(i["device"], i["name"]) for i in items}) == len(items)


def test_gb200_inventory_items_are_the_bills_transceivers(tmp_path):
    """gb200-nvl72-su: the same count of each module in NetBox as in the bill of parts
    (check's cost.parts, counted by hand per tier in tests/planner/test_parts_bill.py)."""
    items, bill = _items_and_bill(tmp_path, "gb200-nvl72-su", default_catalog())
    assert bill and Counter(i["part_id"] for i in items) == bill


def _items_and_bill(tmp_path, template: str, catalog):
    """The inventory items of the template's NetBox export (in tmp_path/nb), and the bill's
    transceivers by catalog id."""
    from planner.report.evaluate import evaluate

    plan = build_template(template, catalog=catalog)
    save_plan(plan, tmp_path / "p.json")
    assert main(["export", str(tmp_path / "p.json"), "-o", str(tmp_path / "nb"), "--netbox"]) == 0
    return read(tmp_path / "nb", "inventory-items.csv")[1], evaluate(plan, catalog).cost.parts["transceivers"]


def test_the_streamed_files_hold_the_rows_an_export_made_in_memory_holds(tmp_path):
    """The export writes each row as it is made (a campus's millions are never held); on a
    small plan, split into parts of 1,000 rows, its files read back to exactly the rows the
    same export built in memory, file by file and in order."""
    from planner.export.netbox import FILES, NetBoxOptions, build_netbox, write_netbox

    plan = build_template("gb200-nvl72-su", catalog=default_catalog())
    in_memory = build_netbox(plan, default_catalog())
    write_netbox(plan, default_catalog(), tmp_path / "nb", NetBoxOptions(chunk_rows=1000))
    compared = 0
    for name in FILES:
        rows = in_memory.rows.get(name) or []
        if not rows:
            continue
        header, written = read(tmp_path / "nb", name)
        assert header == list(FILES[name])
        assert written == [{k: str(row.get(k, "")) for k in header} for row in rows], name
        compared += len(rows)
    assert compared > 9_000  # 9,634 rows in all

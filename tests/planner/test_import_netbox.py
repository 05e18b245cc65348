"""import-netbox: NetBox's own exports of a site (tests/data/netbox_samples, exported by NetBox
4.4.10 after importing the planner's export of two templates) come back as the plan they
came from: a round trip planner -> NetBox -> NetBox's export -> planner.

Why it is long: the round trip of both samples, then each way an export can be unusable
(a missing column, a device type not in the YAML, an unknown type, a file cut short), each
with the sample it starts from."""

import csv
import json
import math
import shutil
from pathlib import Path

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.importers.netbox import import_netbox
from planner.importers.netbox_files import interface_kind
from planner.report.evaluate import evaluate

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "netbox_samples"
MEDIUM = SAMPLES / "16-node-llm-cluster-128-x-h100-ndr400"
GB200 = SAMPLES / "dgx-superpod-gb200-scalable-unit-8-x-gb200-nvl72-576-gpus"


def cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return code, capsys.readouterr()


def sample_copy(tmp_path, folder=MEDIUM) -> Path:
    out = tmp_path / "site"
    shutil.copytree(folder, out)
    for f in out.iterdir():
        f.chmod(0o644)
    return out


def racks_of(plan):
    return {(r.name, r.height_u, r.row) for r in plan.racks}


def positions_of(plan):
    """(device name, rack name, U, device type) of every device (NetBox's rack face is always
    front: the planner places from the front)."""
    return {(p.label, plan.rack(p.rack).name, p.u, p.device) for p in plan.placements}


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


def test_medium_comes_back_as_the_template_made_it(catalog):
    template = build_template("medium")
    imported = import_netbox(MEDIUM, catalog)
    assert racks_of(imported.plan) == racks_of(template)
    assert positions_of(imported.plan) == positions_of(template)
    assert {r.name: (r.cooling, r.power_cap_kw, r.max_weight_kg) for r in imported.plan.racks} == \
        {r.name: (r.cooling, r.power_cap_kw, r.max_weight_kg) for r in template.racks}
    assert not imported.skipped_devices and not imported.unknown_cables and not imported.unmapped_types
    # every cable NetBox holds joins two devices of the plan; all are the compute fabric's links
    sized = evaluate(template, catalog).network.cables
    assert imported.cables == imported.cables_between_devices == imported.fabric_cables == sized


@pytest.mark.parametrize("folder, template", [(MEDIUM, "medium"), (GB200, "gb200-nvl72-su")])
def test_imported_plan_evaluates_with_the_templates_gpus_and_fabric_links(folder, template, catalog):
    imported = import_netbox(folder, catalog)
    mine, theirs = evaluate(imported.plan, catalog), evaluate(build_template(template), catalog)
    assert mine.totals.gpus == theirs.totals.gpus
    assert mine.network.cables == theirs.network.cables == imported.fabric_cables
    s, t = imported.plan.settings, build_template(template).settings
    assert (s.fabric.switch_device, s.fabric.technology, s.fabric.topology, s.fabric.storage_switch_device,
            s.power.feed_redundancy, s.power.pdu_device) == \
        (t.fabric.switch_device, t.fabric.technology, t.fabric.topology, t.fabric.storage_switch_device,
         t.power.feed_redundancy, t.power.pdu_device)
    # the layout is the design's search over the imported job: the template's own where the
    # export carried the template's batch; the GB200 sample predates its batch of 1,152
    # sequences (it takes the default 1,024), so there the layout need only use every GPU
    if s.workload.global_batch_tokens == t.workload.global_batch_tokens:
        assert (s.workload.tp, s.workload.pp, s.workload.dp) == (t.workload.tp, t.workload.pp, t.workload.dp)
    assert s.workload.tp * s.workload.cp * s.workload.pp * s.workload.dp == mine.totals.gpus
    assert not [f for f in mine.findings if f.code.startswith("workload.") and f.severity == "error"]


def test_gb200_racks_and_systems_come_back(catalog):
    """The gb200 sample was exported before the template's network racks were redesigned
    (balanced spines, a third network rack, the CDU rack in a row of its own): its GPU racks
    and systems are the template's; its other racks are the template's racks of the same name
    and height."""
    template = build_template("gb200-nvl72-su")
    imported = import_netbox(GB200, catalog)
    assert {r[:2] for r in racks_of(imported.plan)} <= {r[:2] for r in racks_of(template)}
    gpu_racks = {r.name for r in template.racks if any(catalog[p.device].gpu for p in template.rack_members(r.id).values())}
    assert {r for r in racks_of(imported.plan) if r[0] in gpu_racks} == {r for r in racks_of(template) if r[0] in gpu_racks}
    systems = {x for x in positions_of(template) if catalog[x[3]].gpu}
    assert {x for x in positions_of(imported.plan) if catalog[x[3]].gpu} == systems
    rack_types = {r.name: r.rack_type for r in template.racks if r.name in gpu_racks}
    assert {r.name: r.rack_type for r in imported.plan.racks if r.name in gpu_racks} == rack_types
    assert not imported.skipped_devices and not imported.unknown_cables


def test_cli_writes_a_plan_that_check_evaluates(tmp_path, capsys):
    out = tmp_path / "plan.json"
    code, printed = cli(capsys, "import-netbox", MEDIUM, "-o", out)
    assert code == 0, printed.err
    assert "7 racks, 37 devices" in printed.out and f"check {out}" in printed.out
    code, printed = cli(capsys, "check", "--json", out)
    assert code in (0, 1)  # 1: the plan has errors; it evaluated
    report = json.loads(printed.out)
    assert report["totals"]["gpus"] == evaluate(build_template("medium"), default_catalog()).totals.gpus


def test_a_device_type_missing_from_the_yaml_is_reported(tmp_path, capsys, catalog):
    """The QM9700 document removed: its switches are skipped, and every cable (all of them end
    at a fabric switch) has an end the plan does not hold."""
    site = sample_copy(tmp_path)
    yaml_path = site / "device-types.yaml"
    docs = yaml_path.read_text().split("\n---\n")
    yaml_path.write_text("\n---\n".join(d for d in docs if "slug: qm9700" not in d))
    template = build_template("medium")
    switches = sum(p.device == "qm9700" for p in template.placements)
    out = tmp_path / "plan.json"
    code, printed = cli(capsys, "import-netbox", site, "-o", out, "--json")
    assert code == 0, printed.err
    report = json.loads(printed.out)
    assert len(report["skipped_devices"]) == switches
    assert all("Quantum-2 QM9700" in s["reason"] and "not in device-types.yaml" in s["reason"]
               for s in report["skipped_devices"])
    assert report["devices"] == len(template.placements) - switches
    assert len(report["unknown_cables"]) == report["cables"]["in_netbox"] == evaluate(template, catalog).network.cables
    assert report["cables"]["fabric"] == 0
    assert "is not a device of the plan" in report["unknown_cables"][0]["reason"]
    code, printed = cli(capsys, "import-netbox", site, "-o", out)
    assert f"device 'ib-1' not imported: its device type 'NVIDIA Quantum-2 QM9700 (64 x NDR 400G)' is not in " \
           "device-types.yaml" in printed.out
    assert f"... and {switches - 5} more devices not imported (see --json)" in printed.out
    assert main(["check", str(out)]) in (0, 1)


def test_an_unknown_type_goes_through_the_device_type_import(tmp_path, capsys, catalog):
    """A switch type the catalog does not know (its slug and model changed) is imported with
    the ports and power its devices have in NetBox, written beside the plan, and evaluates."""
    site = sample_copy(tmp_path)
    for name, old, new in (("device-types.yaml", "slug: sn5600-400", "slug: sn5600-site"),
                           ("device-types.yaml", "model: Spectrum-4 SN5600 split (128 x 400GbE)", "model: SN5600 site"),
                           ("devices.csv", "Spectrum-4 SN5600 split (128 x 400GbE)", "SN5600 site")):
        (site / name).write_text((site / name).read_text().replace(old, new))
    out = tmp_path / "plan.json"
    code, printed = cli(capsys, "import-netbox", site, "-o", out)
    assert code == 0, printed.err
    types_file = tmp_path / "plan.types.json"
    assert f"wrote {types_file}: 1 device types" in printed.out
    entry = json.loads(types_file.read_text())["devices"][0]
    known = catalog["sn5600-400"]
    assert (entry["id"], entry["category"], entry["u_height"]) == ("sn5600-site", "switch", known.u_height)
    assert (entry["switch"]["ports"], entry["switch"]["gbps_per_port"]) == (known.switch.ports, known.switch.gbps_per_port)
    # NetBox's power port of each such switch: the planner's nameplate and typical draw
    assert (entry["power_max_w"], entry["power_typical_w"]) == (round(known.power_max_w), round(known.power_typical_w))
    code, printed = cli(capsys, "--catalog", types_file, "check", "--json", out)
    assert code in (0, 1) and json.loads(printed.out)["totals"]["gpus"] == 128


def test_a_rack_without_the_planners_description_takes_its_feeds_power(tmp_path, catalog):
    site = sample_copy(tmp_path)
    racks = site / "racks.csv"
    racks.write_text(racks.read_text().replace('"liquid-cooled, 30 kW cap"', ""))
    imported = import_netbox(site, catalog)
    feeds = (site / "power-feeds.csv").read_text().splitlines()
    gpu01_primary = sum(1 for line in feeds if line.startswith("GPU-01-A"))
    # 415 V x 60 A x sqrt(3) x 80 % maximum utilisation per primary feed
    per_feed_kw = 415 * 60 * math.sqrt(3) * 0.80 / 1000
    rack = next(r for r in imported.plan.racks if r.name == "GPU-01")
    assert rack.power_cap_kw == pytest.approx(gpu01_primary * per_feed_kw, abs=0.001)
    assert rack.cooling == "liquid"  # its H100 nodes are liquid-cooled


def test_unracked_and_rear_devices(tmp_path, catalog):
    site = sample_copy(tmp_path)
    devices = site / "devices.csv"
    lines = devices.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace(",1,Front,", ",,,", 1)  # cdu-1: no position
    lines[2] = lines[2].replace(",Front,", ",Rear,", 1)  # cdu-2 at the rear
    devices.write_text("".join(lines))
    imported = import_netbox(site, catalog)
    assert [(s.name, s.reason) for s in imported.skipped_devices] == [
        ("cdu-1", "it has no position in rack CDU-01 (a child or zero-U device)")]
    assert any("1 devices are mounted at the rear" in n for n in imported.notes)
    assert "cdu-2" in {p.label for p in imported.plan.placements}


def edit_rows(path: Path, name: str, **cells) -> None:
    """Set ``cells`` (column title -> text) in the row of ``path`` whose Name is ``name``."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, rows = reader.fieldnames, list(reader)
    row = next(r for r in rows if r["Name"] == name)
    row.update(cells)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


def test_a_rack_numbered_from_another_unit_keeps_its_devices_in_place(tmp_path, catalog):
    """NetBox racks may start at U0 or U10; the planner's U1 is the rack's lowest unit."""
    site = sample_copy(tmp_path)
    edit_rows(site / "racks.csv", "CDU-01", **{"Starting unit": "10"})
    edit_rows(site / "devices.csv", "cdu-1", Position="10")  # the rack's lowest unit
    edit_rows(site / "devices.csv", "cdu-2", Position="14")
    imported = import_netbox(site, catalog)
    assert {(p.label, p.u) for p in imported.plan.placements if p.label.startswith("cdu-")} == {("cdu-1", 1), ("cdu-2", 5)}


def test_a_site_larger_than_a_plan_may_be_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("planner.plan.model.MAX_DEVICES", 30)  # the medium site has 37 devices
    out = tmp_path / "plan.json"
    code, printed = cli(capsys, "import-netbox", MEDIUM, "-o", out)
    assert code == 2 and "37 devices are more than a plan may have (30)" in printed.err
    assert not out.exists()


def test_netbox_display_labels_of_interface_types():
    assert interface_kind("NDR (100 Gbps)") == "infiniband-ndr"  # NetBox labels IB by generation
    assert interface_kind("OSFP (400GE)") == "400gbase-x"
    assert interface_kind("QSFP56 (200GE)") == "200gbase-x"
    assert interface_kind("400gbase-x-osfp") == "400gbase-x-osfp"


def _edit(site: Path, name: str, old: str, new: str) -> None:
    path = site / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("change, message", [
    (lambda s: (s / "devices.csv").unlink(), "devices.csv: missing; export NetBox's Devices list"),
    (lambda s: (s / "device-types.yaml").unlink(), "device-types.yaml: missing"),
    (lambda s: shutil.copy(s / "device-types.csv", s / "racks.csv"),
     "racks.csv: no column 'Name', 'Location', 'Height', 'Max Weight', 'Description'"),
    (lambda s: _edit(s, "device-types.yaml", "u_height: 1.0", "u_height: [1.0"), "device-types.yaml: not valid YAML"),
    (lambda s: _edit(s, "racks.csv", ",42U,", ",forty-two,"), "racks.csv row 2 ('CDU-01'): Height 'forty-two' is not"),
    (lambda s: _edit(s, "racks.csv", "1360 kg", "1360 stone"), "racks.csv row 2 ('CDU-01'): Max Weight '1360 stone'"),
    (lambda s: _edit(s, "devices.csv", ",1,Front,", ",1.x,Front,"), "devices.csv row 2 ('cdu-1'): Position '1.x'"),
    (lambda s: (s / "sites.csv").write_bytes(b"\xff\xfe\x00"), "sites.csv: not a UTF-8 text file"),
    # a rack whose planner description gives it no power
    (lambda s: _edit(s, "racks.csv", '"liquid-cooled, 30 kW cap"', '"liquid-cooled, 0 kW cap"'),
     "racks.csv row 2 ('CDU-01'): rack 'CDU-01': power_cap_kw input should be greater than 0"),
    # a feed of a negative voltage
    (lambda s: _edit(s, "power-feeds.csv", "Primary,AC,415,60,", "Primary,AC,-415,60,"),
     "power-feeds.csv row 2 ('CDU-01-A1'): a power feed of -415 V and 60 A: voltage and amperage are 0 or more"),
])
def test_bad_input_is_refused_naming_the_file_and_nothing_is_written(tmp_path, capsys, change, message):
    site = sample_copy(tmp_path)
    change(site)
    out = tmp_path / "plan.json"
    out.write_text("the previous plan")
    code, printed = cli(capsys, "import-netbox", site, "-o", out)
    assert code == 2
    assert message in printed.err and "Traceback" not in printed.err
    assert printed.err.count("\n") == 1
    assert out.read_text() == "the previous plan"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json", "site"]


def test_the_exports_are_never_written_over(tmp_path, capsys):
    site = sample_copy(tmp_path)
    before = (site / "sites.csv").read_bytes()
    code, printed = cli(capsys, "import-netbox", site, "-o", site / "sites.csv")
    assert code == 2 and "it is an input of this command" in printed.err
    assert (site / "sites.csv").read_bytes() == before


def test_a_folder_that_is_not_there(tmp_path, capsys):
    code, printed = cli(capsys, "import-netbox", tmp_path / "nowhere", "-o", tmp_path / "p.json")
    assert code == 2 and "not a folder" in printed.err
    assert not (tmp_path / "p.json").exists()



def test_the_planners_own_import_files_are_told_apart_from_netboxs_exports(tmp_path, capsys):
    # The import files the planner writes go into NetBox; reading a plan back takes the lists
    # NetBox exports afterwards. Given the first, the message says which is which.
    plan = tmp_path / "plan.json"
    assert cli(capsys, "new", "-t", "single-node", "-o", plan)[0] == 0
    assert cli(capsys, "export", plan, "-o", tmp_path / "nb", "--netbox")[0] == 0
    code, printed = cli(capsys, "import-netbox", tmp_path / "nb", "-o", tmp_path / "back.json")
    assert code == 2 and "holds the planner's NetBox import files (01-sites.csv, ...)" in printed.err
    assert "export its Sites, Racks, Devices and Cables lists" in printed.err
    assert printed.err.count("\n") == 1 and not (tmp_path / "back.json").exists()


@pytest.mark.parametrize("name, size", [("devices.csv", 2000), ("device-types.yaml", 500), ("cables.csv", 3001)])
def test_an_export_cut_short_is_refused_not_imported_in_part(tmp_path, capsys, name, size):
    """A file cut mid-line (a copy stopped, a download broken) would import part of the site
    and report success: refused naming the file, exit 2, and no plan written. NetBox ends every
    row with all its columns and every file with a line end."""
    site = sample_copy(tmp_path)
    path = site / name
    path.write_bytes(path.read_bytes()[:size])
    out = tmp_path / "plan.json"
    code, printed = cli(capsys, "import-netbox", site, "-o", out)
    assert code == 2 and not out.exists()
    line = printed.err.strip()
    assert "\n" not in line and name in line and "cut short" in line, line


def test_a_row_cut_at_a_line_end_is_refused_by_its_cells(tmp_path, capsys):
    site = sample_copy(tmp_path)
    path = site / "devices.csv"
    text = path.read_text()
    head, first, *rest = text.split("\n")
    path.write_text("\n".join([head, first, first.rsplit(",", 3)[0]]) + "\n")  # the last row lost 3 cells
    code, printed = cli(capsys, "import-netbox", site, "-o", tmp_path / "plan.json")
    columns = len(next(csv.reader([head])))
    assert code == 2 and f"devices.csv row 3: {columns - 3} cells under {columns} column titles" in printed.err

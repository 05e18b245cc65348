"""Ten device-type files of the community library's format (tests/data/netbox-device-types/,
written for these tests on the kinds of real files the import meets) through ``catalog import``:
what each becomes, worked out by hand from its YAML."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import main
from planner.hardware.catalog import read_catalog_file

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "netbox-device-types"
FILES = sorted(str(p) for p in FIXTURES.glob("*.yaml"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("types") / "mine.json"
    status = main(["catalog", "import", *FILES, "-o", str(out), "--psu-redundancy", "auto"])
    return status, {d.id: d for d in read_catalog_file(out)}


def test_one_bad_file_does_not_block_the_other_nine(imported, tmp_path, capsys):
    status, devices = imported
    assert len(FILES) == 10
    assert status == 1 and len(devices) == 9  # the file that is not YAML is the one left out
    out = tmp_path / "again.json"
    assert main(["catalog", "import", *FILES, "-o", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "08-not-yaml.yaml" in err[0] and "not imported" in err[0]


def test_a_power_port_without_maximum_draw_is_a_gap_not_a_refusal(imported):
    d = imported[1]["example-networks-ib-6400"]
    # psu0 and psu1 give no maximum_draw (NetBox holds it optional): nothing to add up, marked
    assert (d.category, d.power_max_w) == ("switch", 0)
    assert "nameplate power (no maximum_draw on psu0, psu1)" in d.notes
    assert (d.switch.ports, d.switch.gbps_per_port) == (64, 400)  # P0.0 ... P31.1


def test_a_server_with_36_data_interfaces_stays_a_server(imported):
    d = imported[1]["example-systems-gx-8-640gb"]
    # a VGA and USB console: a server, whatever its 36 ports; 8 x 400G the compute NICs, 28 x 100G storage
    assert d.category == "other" and d.switch is None and "video or USB keyboard console" in d.source
    assert [(n.count, n.gbps, n.purpose) for n in d.nics] == [(8, 400, "compute"), (28, 100, "storage")]
    # 2 x 1,071 W supplies allocating 2 x 586 = 1,172 W: one supply cannot carry 1,172 W, both do
    assert (d.power_max_w, d.power_typical_w) == (2142, 1172)


def test_management_ports_are_not_fabric_ports_and_redundant_supplies_are_not_added(imported):
    d = imported[1]["example-networks-xd-144"]
    # 72 cages x 2 = 144 XDR ports; eth0 (mgmt_only), eth1 (1G) and fnm1 (in-band management) left out
    assert (d.switch.ports, d.switch.gbps_per_port, d.switch.technology) == (144, 800, "infiniband")
    # 8 x 875 W = 7,000 W installed; as N+N four carry the load: 3,500 W, and the rule is shown
    assert d.power_max_w == 3500
    assert "8 power supplies of 875 W as N+N, 4 carrying the load" in d.source


def test_front_end_nics_are_not_compute_nics(imported):
    d = imported[1]["example-systems-hx-8-ndr"]
    # 8 x NDR (ib0-ib7) the compute fabric; fe0, fe1 (400GbE, "front-end network") storage / front end
    assert sorted((n.count, n.technology, n.purpose) for n in d.nics) == [
        (2, "ethernet", "storage"), (8, "infiniband", "compute")]
    # 4 x 3,000 W allocating 4 x 1,200 = 4,800 W: N+N, two carry it (6,000 W >= 4,800 W)
    assert (d.power_max_w, d.power_typical_w) == (6000, 4800)


def test_supplies_in_module_bays_are_named_in_the_gap(imported):
    d = imported[1]["example-networks-ex-64"]
    assert (d.category, d.switch.ports, d.switch.gbps_per_port, d.power_max_w) == ("switch", 64, 800, 0)
    assert "2 power supplies in module bays" in d.notes


def test_a_management_switch_is_classed_by_its_serial_console(imported):
    d = imported[1]["example-networks-mg-48"]
    # console con0 over USB mini (serial), eth0 "Management" left out: its ports are the 48 x 1G
    assert (d.category, d.switch.ports, d.switch.gbps_per_port) == ("switch", 48, 1)
    assert (d.power_max_w, d.power_typical_w) == (100, 40)  # one supply: its own draw


def test_three_supplies_are_n_plus_one(imported):
    d = imported[1]["example-systems-st-2"]
    assert d.power_max_w == 3200 and "as N+1, 2 carrying the load" in d.source  # 3 x 1,600 W, one spare
    assert [(n.count, n.gbps) for n in d.nics] == [(2, 200)]  # ipmi left out


def test_a_box_nothing_classes_is_marked_and_the_user_classes_it(imported, tmp_path):
    d = imported[1]["example-systems-appliance-a4"]
    assert d.category == "other" and "give --as switch or --as server" in d.notes
    # different supplies (450 W and 350 W) are not a redundant set: 800 W, their sum
    assert d.power_max_w == 800
    out = tmp_path / "as.json"
    assert main(["catalog", "import", str(FIXTURES / "09-unclassed-box.yaml"), "-o", str(out), "--as", "switch"]) == 0
    (sw,) = read_catalog_file(out)
    assert (sw.category, sw.switch.ports, sw.switch.gbps_per_port) == ("switch", 4, 25)
    assert "as chosen on import" in sw.source


def test_a_gpu_server_with_a_gpu_given_and_the_redundancy_chosen(tmp_path, capsys):
    out = tmp_path / "gpu.json"
    path = str(FIXTURES / "10-gpu-server-c19.yaml")
    assert main(["catalog", "import", path, "-o", str(out), "--gpu", "H100 SXM 80GB:8"]) == 0
    printed = capsys.readouterr().out  # the rules applied are shown with the entry
    assert "nameplate 9,900 W: 6 power supplies of 3,300 W as N+N, 3 carrying the load" in printed
    assert "classed server: its video or USB keyboard console" in printed
    (d,) = read_catalog_file(out)
    assert (d.category, d.gpu.count) == ("gpu_server", 8)
    assert [(n.count, n.purpose) for n in d.nics] == [(8, "compute"), (2, "storage")]
    # 6 x 3,300 W as N+N: 3 carry the load, 9,900 W; allocated 6 x 1,200 = 7,200 W typical
    assert (d.power_max_w, d.power_typical_w) == (9900, 7200)
    assert main(["catalog", "import", path, "-o", str(out), "--psu-redundancy", "N+1"]) == 0
    assert read_catalog_file(out)[0].power_max_w == 5 * 3300  # one spare: 16,500 W
    assert main(["catalog", "import", path, "-o", str(out), "--psu-redundancy", "none"]) == 0
    assert read_catalog_file(out)[0].power_max_w == 6 * 3300  # all carry it: 19,800 W

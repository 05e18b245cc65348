"""A plan exported to NetBox and read back (``export --netbox``, NetBox's Export > All data,
``import-netbox``) has the findings it had: the settings NetBox has no field for travel in
the site's comments; an export without them (NetBox's own, of an older export) still gets
a floor that carries its racks."""

import csv
import json

import pytest

from planner.cli import main
from planner.design.templates import build_template, template_names
from planner.export.netbox import write_netbox
from planner.hardware.catalog import default_catalog
from planner.importers.netbox import import_netbox
from planner.report.evaluate import evaluate
from tests.planner.netbox_site_export import site_export
from tests.planner.test_import_netbox import GB200, sample_copy

# NetBox's interface list of a campus is millions of rows (campus-400k: 426,816 GPU NICs and
# 14,820 switches of 144 ports; campus-1m more), about 280 bytes each in NetBox's export:
# far over the 64 MB a file the import reads (planner.importers.netbox_files.MAX_CSV_BYTES).
TOO_BIG_FOR_NETBOX = {"campus-400k", "campus-1m"}
SLOW = {"frontier-100k"}  # 2,849 racks, 366,752 cables: about a minute and a half each way


def findings(plan, catalog):
    return sorted((f.severity, f.code, f.message) for f in evaluate(plan, catalog).findings)


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in template_names() if n not in TOO_BIG_FOR_NETBOX])
def test_a_template_read_back_from_netbox_has_the_same_findings(name, tmp_path, catalog):
    plan = build_template(name)
    write_netbox(plan, catalog, tmp_path / "import")
    back = import_netbox(site_export(tmp_path / "import", tmp_path / "netbox"), catalog)
    assert back.plan.settings == plan.settings
    assert findings(back.plan, catalog) == findings(plan, catalog)


def test_the_gb200_unit_read_back_keeps_its_floor(tmp_path, catalog):
    """The template spreads each NVL72's load over 1,050 mm of aisle (its description); the
    default floor is a raised floor counting the footprint alone, 0 mm."""
    plan = build_template("gb200-nvl72-su")
    write_netbox(plan, catalog, tmp_path / "import")
    back = import_netbox(site_export(tmp_path / "import", tmp_path / "netbox"), catalog)
    assert back.plan.settings.floor.aisle_share_mm == 1050
    assert not [f for f in evaluate(back.plan, catalog).findings if f.code == "rack.floor.over_rating"]


def test_netboxs_export_without_the_settings_spreads_the_racks_the_floor_cannot_carry(tmp_path, catalog, capsys):
    """NetBox's export of the GB200 unit made before the settings travelled: an NVL72 weighs
    1,360 kg with its own rack (NVIDIA DGX GB200 user guide) on 600 x 1,200 mm. The TIA-942
    floor of 1,224 kg/m² carries it over 1,360 / (1,224 x 0.6) = 1.852 m of depth: 652 mm
    more than the rack, 700 mm in whole 50 mm."""
    imported = import_netbox(GB200, catalog)
    assert imported.plan.settings.floor.aisle_share_mm == 700
    report = evaluate(imported.plan, catalog)
    assert not [f for f in report.findings if f.code == "rack.floor.over_rating"]
    nvl = next(r for r in report.racks if r.name == "NVL-01")
    assert nvl.floor_load_kg_m2 == pytest.approx(1360 / (0.6 * 1.9))
    out = tmp_path / "plan.json"
    assert main(["import-netbox", str(GB200), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "8 racks (NVL-01" in printed and "700 mm aisle share" in printed and "structural engineer" in printed


@pytest.mark.parametrize("block, why", [
    ("```json\n{not json\n```", "not valid JSON"),
    ('```json\n{"schema_version": 99, "settings": {}}\n```', "newer GPU Cluster Planner"),
    ('```json\n{"schema_version": 7, "settings": {"floor": {"aisle_share_mm": -5}}}\n```', "aisle_share_mm"),
])
def test_a_settings_block_that_cannot_be_read_is_said_and_the_site_is_read_without_it(tmp_path, catalog, capsys,
                                                                                     block, why):
    site = sample_copy(tmp_path, GB200)
    with open(site / "sites.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[1][rows[0].index("Comments")] = f"GPU Cluster Planner settings (import-netbox reads them back):\n\n{block}"
    with open(site / "sites.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    out = tmp_path / "plan.json"
    code = main(["import-netbox", str(site), "-o", str(out), "--json"])
    assert code == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    said = [n for n in notes if n.startswith("settings:")]
    assert len(said) == 1 and "cannot be read" in said[0] and why in said[0], notes
    assert any("700 mm aisle share" in n for n in notes)  # read without the block, as NetBox's own export

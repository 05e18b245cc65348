"""The vendor pack's site pages, read back from the PDF (pdftotext): plan properties on the
cover, power distribution / cooling / floor per rack, liquid cooling, the floor plan and
the cable summary, with figures worked out by hand from the catalog's datasheet values."""

import re
import subprocess

import pytest

from planner.design.templates import build_template
from planner.plan.commands import SetPlanInfo
from planner.report.evaluate import evaluate
from ui.export.files import export_drawing

pytestmark = pytest.mark.needs_tool("pdftotext")


def pack_pages(plan, catalog, path):
    export_drawing(plan, catalog, path, evaluate(plan, catalog))
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout
    return text.split("\f")


def page(pages, title):
    found = [p for p in pages if p.lstrip().startswith(title)]
    assert found, f"no page titled {title!r}"
    return found[0]


def row(text, first, containing=""):
    """The line of a table that starts with ``first`` (and has ``containing``), its cells
    separated by single spaces."""
    line = next(x for x in text.splitlines() if x.strip().startswith(first + " ") and containing in x)
    return " ".join(line.split())


@pytest.fixture(scope="module")
def medium_pages(tmp_path_factory, qapp):  # the QApplication the window tests share
    from planner.hardware.catalog import default_catalog

    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    SetPlanInfo(customer="Acme AI Labs", site="DC-3 Hall B, Ashburn", contact="J. Doe, j.doe@example.com",
                revision="C", date="2026-11-30", go_live="2027-03-01").do(plan, catalog)
    return pack_pages(plan, catalog, tmp_path_factory.mktemp("pack") / "medium.pdf")


def test_cover_shows_the_plan_properties(medium_pages):
    cover = medium_pages[0]
    for text in ("Acme AI Labs", "DC-3 Hall B, Ashburn", "J. Doe, j.doe@example.com", "Revision", "2026-11-30",
                 "Requested go-live", "2027-03-01"):
        assert text in cover, text


def test_per_rack_power_distribution_cooling_and_floor_table(medium_pages):
    text = page(medium_pages, "Feeds, heat and floor per rack")
    # 4 x HGX H100 (catalog: 7.0 kW typical, 10.2 kW nameplate, 80 kg): 28.0 / 40.8 kW.
    # 2N on 415 V 3-phase 60 A PDUs: sqrt(3) x 415 x 60 x 0.8 = 34.50 kW each, so 40.8 kW needs
    # 2 on each feed. Heat at nameplate, 80% captured by the cold plates: 32.64 kW to liquid,
    # 8.16 kW to air; water 32.64 / (4.18 x 0.995 x 10 K) x 60 = 47.1 l/min. Weight 4 x 80 +
    # 160 kg enclosure = 480 kg on 0.6 x 1.2 = 0.72 m²: 666.7 kg/m².
    assert row(text, "GPU-01") == "GPU-01 28.0 kW 40.8 kW A+B (2N) 2 + 2 415 V 3-phase 60 A, IEC 60309 560P6 " \
                                  "32.6 kW 8.2 kW 47.1 l/min 480 kg 0.72 m² 667 kg/m²"
    # the air-cooled network rack: 20.35 kW nameplate -> one PDU per feed; all heat to air
    # the air-cooled network rack (10 x QM9700 at 1.72 kW, SN5600 split and a management switch:
    # 20.35 kW nameplate) needs one PDU per feed and puts all its heat into the air
    assert row(text, "NET-01").startswith("NET-01 15.0 kW 20.4 kW A+B (2N) 1 + 1 415 V 3-phase 60 A, IEC 60309 "
                                          "560P6 0.0 kW 20.4 kW 0.0 l/min ")
    # totals: 4 x 4 + 3 x 2 = 22 PDUs; 4 x 32.64 = 130.56 kW to liquid; 4 x 47.09 = 188.3 l/min
    # air: 4 x 8.16 + 20.35 + 16.8 + 6.0 = 75.79 kW
    assert row(text, "All racks").startswith("All racks 142.6 kW 206.3 kW 22 in all 130.6 kW 75.8 kW 188.3 l/min")


def test_liquid_cooling_table(medium_pages):
    text = page(medium_pages, "Liquid cooling")
    # 4 GPU racks x 32.64 kW = 130.56 kW to liquid, 4 x 47.09 = 188.3 l/min; supply 30 °C, return 40 °C
    assert "supply 30 °C, return 40 °C" in text
    assert row(text, "GPU-01") == "GPU-01 liquid-cooled 32.6 kW 8.2 kW 47.1 l/min 30 / 40 °C 0"
    assert row(text, "Total") == "Total 130.6 kW 188.3 l/min 2 placed"


def test_floor_plan_page(medium_pages):
    text = page(medium_pages, "Floor plan")
    # one row A of 7 racks, 600 mm wide and 1,200 mm deep: 4.2 m x 1.2 m
    assert "Floor 4.2 m along the rows x 1.2 m across them: 1 row, 7 racks" in text
    for name in ("GPU-01", "NET-01", "CDU-01"):
        assert name in text


def test_cable_summary(medium_pages):
    text = page(medium_pages, "Cables by type and length")
    # 16 nodes x 8 rails = 128 node-leaf links (passive copper, 1.5 m stock) and 128 leaf-spine
    # links: 256 compute; 60 storage and 36 management: 352 links (tests/planner/test_cables.py)
    assert row(text, "All cables").startswith("All cables 352 ")
    # 128 runs x 1.5 m = 192 m
    assert row(text, "Compute fabric", "DAC") == "Compute fabric 400G passive copper DAC, 1.5 m 128 192.0 m"
    cross = page(medium_pages, "Cross-connects by network")
    assert row(cross, "Compute fabric").startswith("Compute fabric 256 ")
    assert row(cross, "Storage network").startswith("Storage network 60 ")
    assert row(cross, "Management network").startswith("Management network 36 ")
    assert any(p.lstrip().startswith("Cables between racks") for p in medium_pages)


def test_rack_headers_show_both_power_bases(medium_pages):
    elevations = [p for p in medium_pages if p.lstrip().startswith("Rack elevations")]
    text = "\n".join(elevations)
    # every GPU rack: typical 28.0 and nameplate 40.8 against its 30 kW cap (93% / 136%)
    assert len(re.findall(r"(nameplate|npl\.) 40\.8 / 30 kW \(93% / 136%\)", text)) == 4


def test_a_plan_priced_per_tier_lists_its_cabling_once_on_the_bill(tmp_path, monkeypatch, qapp):
    import planner.costs.section as cost_section
    from planner.hardware.catalog import default_catalog

    catalog = default_catalog()
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)  # medium's 352 links: priced per tier
    pages = pack_pages(build_template("medium", catalog=catalog), catalog, tmp_path / "tiers.pdf")
    # no Cables page repeating the bill's rows; the bill says why it counts per tier
    assert not any(p.lstrip().startswith("Cables by type") for p in pages)
    bill = " ".join(page(pages, "Bill of materials").split())
    assert "The plan has more than 10 links" in bill and "cables PLAN --csv FILE" in bill
    # the storage and management networks are bought too, a line per catalog cable: 60 storage
    # cables (16 nodes x 2 + 7 appliances x 4 ports) and 36 management cords
    # (tests/planner/test_network_tier_costs.py)
    def bought(network: str) -> int:  # each line's item ends in its length, then its quantity
        return sum(int(n.replace(",", "")) for n in re.findall(rf"Cabling {network} cable, .*? m (\d[\d,]*) (?=[A-Z])",
                                                                 bill))

    storage, management = bought("Storage"), bought("Management")
    assert (storage, management) == (60, 36), bill

"""`check` text output: every figure with a label and a unit, None shown per key, and the
shared label table (`planner.report.labels`) the other renderers use."""

from __future__ import annotations

import json

import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.plan.fileio import save_plan
from planner.report.labels import describe
from planner.plan.templates import build_template


@pytest.fixture(scope="module")
def medium_text(tmp_path_factory):
    path = tmp_path_factory.mktemp("check") / "m.json"
    save_plan(build_template("medium"), path)
    return path


def run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def line(out: str, label: str) -> str:
    return next(x for x in out.splitlines() if x.strip().startswith(label))


def test_break_even_shows_every_option_even_when_one_is_none(medium_text, capsys):
    code, out = run(capsys, "check", str(medium_text))
    assert code == 0
    be = line(out, "Building pays off vs renting after")
    # Opex 54,273.31 a month: 52,075.61 before switch optics counted + the 10 QM9700s' 32
    # twin-port modules x 17 W = 5.44 kW more IT load, at 5.44 x (1.56 x 730 h x electricity
    # + colocation per kW) = 2,197.70.
    # Reserved 1-yr: capex 7,765,900 / (rent 338,486.40 - opex 54,273.31) = 27.3 months.
    # Spot: 7,765,900 / (225,657.60 - 54,273.31) = 45.3 months > 36-month horizon -> None;
    # reserved 3-yr: 7,765,900 / (268,640 - 54,273.31) = 36.2 > 36 -> None; on demand
    # 7,765,900 / (295,504 - 54,273.31) = 32.2.
    assert "spot not within the horizon" in be and "reserved 1-yr 27.3 months" in be
    assert "reserved 3-yr not within the horizon" in be and "on demand 32.2 months" in be
    spent = line(out, "Spent by break-even")
    # spent by then: 7,765,900 + 27.3 months x 54,273.31 opex = 9,247,561
    assert "spot not within the horizon" in spent and "reserved 1-yr $9,247,561" in spent


def test_figures_read_with_units_not_raw_keys(medium_text, capsys):
    _, out = run(capsys, "check", str(medium_text))
    # 4.375 GB once at 43.125 GB/s = 101.45 ms (+ 10 us) -> "101.5 ms"
    assert line(out, "Gradient all-reduce per step").endswith("101.5 ms")
    # capex: the guide's medium design ($6,728,400 with 2 storage appliances) + 5 more
    # appliances x $250,000 + SN5600 instead of SN4600C ($60,000 - $25,000) + a CDU rack
    # ($2,500) and its 2 PDUs (2 x $3,000) = 6,728,400 + 1,250,000 + 35,000 + 2,500 + 6,000
    # = 8,021,900, less the transceivers counted twice: twin-port modules serve two links,
    # so 256 modules for the 256 links, not 512 (256 x $1,000): 7,765,900
    assert line(out, "Capex").endswith("$7,765,900")
    assert line(out, "Compute fabric").endswith("400G InfiniBand (NDR)")
    assert line(out, "Fabric switch").endswith("QM9700 (64 x NDR 400G)")
    assert line(out, "SHARP in-network reduction").endswith("on")
    for raw in ("bus bandwidth gbs", "allreduce ms", "capex usd", "gpu idle pct", "rail_optimized", "qm9700 "):
        assert raw not in out


def test_json_output_keeps_the_raw_keys(medium_text, capsys):
    _, out = run(capsys, "check", str(medium_text), "--json")
    report = json.loads(out)
    assert report["cost"]["break_even_months"]["spot"] is None
    assert report["network"]["bus_bandwidth_gbs"] == pytest.approx(64.681, abs=1e-3)


def test_describe_gives_label_and_text_with_unit():
    cat = default_catalog()
    assert describe("network", "allreduce_ms", 101.459) == ("Gradient all-reduce per step", "101.5 ms")
    assert describe("cost", "capex_usd", 6_728_400.0) == ("Capex", "$6,728,400")
    assert describe("network", "switch_model", "qm9700", cat)[1] == cat["qm9700"].title
    assert describe("network", "fabric", "ib400")[1] == "400G InfiniBand (NDR)"
    assert describe("network", "sharp", False)[1] == "off"
    assert describe("storage", "checkpoint_write_s", None)[1] == "-"
    assert describe("network", "sizing.ports_per_tier.leaf_down", 128) == ("Leaf ports down (to nodes)", "128")

"""`check` text output: every figure with a label and a unit, None shown per key, and the
shared label table (`planner.report.labels`) the other renderers use."""

from __future__ import annotations

import json

import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.plan.fileio import save_plan
from planner.report.labels import describe
from planner.design.templates import build_template


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
    be = line(out, "Break-even vs renting")
    # Opex: energy 142.648 kW (with the switches' optics) x 1.56 x 730 h x $0.12 = 19,493.71
    # + colocation billed on the committed kW (racks' caps: 4 GPU x 30 + NET 25 + STOR 25 +
    # CDU 30 = 200 kW) x $200 = 40,000 + staffing 75,000 / 12 = 6,250 -> 65,743.71 a month.
    # Reserved 1-yr: capex 7,728,545.16 (test_figures_read_with_units_not_raw_keys) /
    # (rent 338,486.40 - 65,743.71) = 28.3 months.
    # Spot: 7,728,545.16 / (225,657.60 - 65,743.71) = 48.3 months > 36-month horizon (not within 36 months);
    # reserved 3-yr: 7,728,545.16 / (268,640 - 65,743.71) = 38.1 > 36 (not within 36 months); on demand
    # at $3.50 (128 GPUs x 730 h x 3.50 x 1.15 uplift = 376,096): 7,728,545.16 / (376,096 - 65,743.71) = 24.9.
    assert "spot not within 36 months" in be and "reserved 1-yr month 28.3" in be
    assert "reserved 3-yr not within 36 months" in be and "on demand month 24.9" in be
    spent = line(out, "Spent by break-even")
    # spent by then: 7,728,545.16 + 28.3 months x 65,743.71 opex = 9,589,092
    assert "spot -" in spent and "reserved 1-yr $9,589,092" in spent


def test_figures_read_with_units_not_raw_keys(medium_text, capsys):
    _, out = run(capsys, "check", str(medium_text))
    # 4.375 GB once at 400 Gb/s x 94% = 47 GB/s (nccl-tests: 46-48 GB/s per NDR NIC)
    # = 93.085 ms (+ 10 us) -> "93.1 ms"
    assert line(out, "Gradient all-reduce per step").endswith("93.1 ms")
    # capex: the guide's medium design ($6,728,400 with 2 storage appliances) + 5 more
    # appliances x $250,000 + SN5600 instead of SN4600C ($60,000 - $25,000) + a CDU rack
    # ($2,500) and its 2 PDUs (2 x $3,000) = 6,728,400 + 1,250,000 + 35,000 + 2,500 + 6,000
    # = 8,021,900, less the transceivers counted twice: twin-port modules serve two links,
    # so 256 modules for the 256 links, not 512 (256 x $1,000): 7,765,900. Then cables and
    # optics by part instead of 256 cables x $150 and 256 modules x $1,000 (-294,400): the
    # cable schedule's 224,571 (tests/planner/test_part_prices.py), and power distribution
    # per kW instead of a flat 75,000: 142.648 kW x $670 = 95,574.16. The HGX H100's compute
    # NICs are single-port ConnectX-7: 125 single-port SR4 at $700 at the nodes' fibre ends
    # where 63 twin-port modules at $1,200 were counted: + 87,500 - 75,600 = + 11,900
    # (tests/planner/test_part_prices.py).
    # 7,765,900 - 294,400 + 224,571 - 75,000 + 95,574.16 + 11,900 = 7,728,545.16
    assert line(out, "Capex").endswith("$7,728,545")
    assert line(out, "Compute fabric").endswith("400G InfiniBand (NDR)")
    assert line(out, "Fabric switch").endswith("QM9700 (64 x NDR 400G)")
    assert line(out, "SHARP in-network reduction").endswith("on")
    for raw in ("bus bandwidth gbs", "allreduce ms", "capex usd", "gpu idle pct", "rail_optimized", "qm9700 "):
        assert raw not in out
    # medium: 16 DGX-class nodes of 8 H100, no hot spares: whole GPUs, not "128.00 GPUs"
    assert line(out, "GPUs rented").endswith(" 128 GPUs")
    assert line(out, "Checkpoint write (share of the interval set)").endswith(
        "no interval set (automatic: Goodput gives the time writes block the job)")
    _, fabrics = run(capsys, "fabrics", str(medium_text))
    assert ", DDP, " in fabrics.splitlines()[0]  # the sharding by its name, not its key "ddp"


def test_json_output_keeps_the_raw_keys(medium_text, capsys):
    _, out = run(capsys, "check", str(medium_text), "--json")
    report = json.loads(out)
    assert report["cost"]["break_even_months"]["spot"] is None
    # ring-equivalent 2 x 3/4 x 4.375 GB over 4.375 / 47 s + 10 us = 70.492 GB/s
    assert report["network"]["bus_bandwidth_gbs"] == pytest.approx(6.5625 / (4.375 / 47 + 10e-6), abs=1e-3)


def test_describe_gives_label_and_text_with_unit():
    cat = default_catalog()
    assert describe("network", "allreduce_ms", 101.459) == ("Gradient all-reduce per step", "101.5 ms")
    assert describe("cost", "capex_usd", 6_728_400.0) == ("Capex", "$6,728,400")
    assert describe("network", "switch_model", "qm9700", cat)[1] == cat["qm9700"].title
    assert describe("network", "fabric", "ib400")[1] == "400G InfiniBand (NDR)"
    assert describe("network", "sharp", False)[1] == "off"
    assert describe("storage", "checkpoint_write_s", None)[1] == "-"
    assert describe("network", "sizing.ports_per_tier.leaf_down", 128) == ("Leaf ports down (to nodes)", "128")


def test_a_yes_no_figure_reads_yes_or_no_and_a_switch_on_or_off():
    # "Fits in GPU memory" answers a question; SHARP is a switch the plan turns on
    assert describe("workload", "fits", True) == ("Fits in GPU memory", "yes")
    assert describe("workload", "fits", False)[1] == "no"
    assert describe("network", "sharp", True)[1] == "on"


def test_check_prints_fits_as_yes_and_its_json_keeps_the_boolean(medium_text, capsys):
    # 70B on 128 H100 80 GB with TP 8 x PP 4: the template's case the guide sizes to fit
    _, out = run(capsys, "check", str(medium_text))
    assert line(out, "Fits in GPU memory").split()[-1] == "yes"
    _, out = run(capsys, "check", str(medium_text), "--json")
    assert json.loads(out)["workload"]["fits"] is True


def test_the_summary_has_the_training_run_on_the_calendar(medium_text, capsys):
    _, out = run(capsys, "check", str(medium_text))
    _, js = run(capsys, "check", str(medium_text), "--json")
    s, work = json.loads(js)["schedule"], json.loads(js)["workload"]
    # one phase, trained on from energization: the calendar's cost is the whole cluster's
    assert s["training_cost_usd"] == pytest.approx(work["run_cost_usd"], abs=0.01)
    summary = out.split("\n\n")[1]  # the lines above the rack table
    run_line = line(summary, "Training from month")
    assert run_line.startswith(f"Training from month {s['energized_month']} (energization) to month "
                               f"{s['training_done_month']:g} after the order: ")
    assert f"build ${s['training_cost_usd']['build']:,.0f}" in run_line
    assert f"rent reserved 1-yr ${s['training_cost_usd']['rent_reserved_1yr']:,.0f}" in run_line


def test_a_plan_without_a_training_run_says_so_on_every_schedule_line(tmp_path, capsys):
    # the inference template trains nothing: the run's cost on the calendar is not a blank
    path = tmp_path / "i.json"
    save_plan(build_template("inference"), path)
    _, out = run(capsys, "check", str(path))
    assert line(out, "The training run's cost on the calendar").endswith("no training run")
    assert line(out, "The training run's GPU-hours").endswith("no training run")


def test_one_of_a_thing_is_said_in_the_singular(capsys, tmp_path):
    # single-node: 4 GPUs in one node in one rack ("1 nodes, 1 racks" read as a slip)
    path = tmp_path / "one.json"
    save_plan(build_template("single-node"), path)
    code, out = run(capsys, "check", str(path))
    assert out.splitlines()[2].startswith("4 GPUs in 1 node, 1 rack (1 with GPUs);")


def test_one_token_gpu_or_day_is_singular_in_every_figure():
    from planner.vocabulary import text

    assert [text(1, "tokens"), text(1, "GPUs"), text(1, "days"), text(1, "months")] == [
        "1 token", "1 GPU", "1 day", "1 month"]
    # many, or a figure that is not whole, keep the plural
    assert [text(2, "tokens"), text(4096, "tokens"), text(1.0, "days"), text(1.5, "days")] == [
        "2 tokens", "4,096 tokens", "1.0 days", "1.5 days"]


def test_a_settings_value_is_written_whole_or_to_its_last_digit():
    from planner.vocabulary import setting_text

    assert setting_text(4194304.0, "tokens") == "4,194,304 tokens"  # not 4.1943e+06
    assert setting_text(1.56) == "1.56" and setting_text(0.000125, "fraction") == "0.000125 fraction"
    assert setting_text(None) == "none" and setting_text("cudnn") == "cuDNN attention"
    assert setting_text(1e-7) == "1e-07"  # not "0."
    assert setting_text(1, "stages") == "1 stage" and setting_text(1, "switches") == "1 switch"  # compare: 4 -> 1
    assert setting_text(1, "ms") == "1 ms" and setting_text(1, "tokens/s") == "1 tokens/s"  # rates as they are


def test_a_plans_intent_is_described_in_words():
    from planner.design.templates import intent_words
    from planner.hardware.catalog import default_catalog

    words = intent_words({"gpus": 1, "train_tokens_b": 2e6, "attention_kernel": "auto",
                          "settings": {"workload": {"tp": 2}}, "system": "dgx-h100", "requests_per_s": 12.5},
                         default_catalog())
    assert words == ("1 GPU, 2,000,000B tokens to train, each GPU's own attention kernel, its own workload "
                     "settings, NVIDIA DGX H100, 12.5 requests/s")


def test_json_findings_name_their_rack_as_the_message_does(tmp_path, capsys):
    """check --json keeps ``where`` (the rack's id in the plan file) and adds ``where_name``, the
    name the message uses ("Rack GPU-01 fits its 40 kW cap ..."): 16 DGX B200 at 40 kW racks, 4
    a rack (4 x 10 kW typical, 4 x 14.3 kW nameplate over the cap: a warning per GPU rack)."""
    path = tmp_path / "b200.json"
    assert main(["new", "--system", "dgx-b200", "--gpus", "128", "--rack-kw", "40", "-o", str(path)]) == 0
    capsys.readouterr()
    main(["check", "--json", str(path)])
    data = json.loads(capsys.readouterr().out)
    over = [f for f in data["findings"] if f["code"] == "rack.power.nameplate_over_cap"]
    assert len(over) == 4
    for f in over:
        assert f["where"] != f["where_name"] and f["message"].startswith(f"Rack {f['where_name']} fits")
    (group,) = [g for g in data["finding_groups"] if g["code"] == "rack.power.nameplate_over_cap"]
    assert group["where_names"] == [f["where_name"] for f in over] == ["GPU-01", "GPU-02", "GPU-03", "GPU-04"]

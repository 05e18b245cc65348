"""compare: two designs side by side; every difference is the difference of their check reports.

Why it is long: every figure Compare shows, its direction and its verdict, and the findings
gained and lost, are checked here against two plans worked by hand.
"""

from __future__ import annotations

import json

import pytest

from planner.cli import main


def cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out


@pytest.fixture(scope="module")
def medium_and_massive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cmp")
    for name in ("medium", "massive"):
        assert main(["new", "-t", name, "-o", str(folder / f"{name}.json")]) == 0
    return folder / "medium.json", folder / "massive.json"


def test_compare_medium_and_massive_differences_are_those_of_the_check_reports(capsys, medium_and_massive):
    a, b = medium_and_massive
    checks = []
    for f in (a, b):
        code, out = cli(capsys, "check", str(f), "--json")
        assert code == 0
        checks.append(json.loads(out.out))
    code, out = cli(capsys, "compare", str(a), str(b), "--json")
    assert code == 0, out.err
    c = json.loads(out.out)
    assert [s["name"] for s in c["sides"]] == ["medium.json", "massive.json"]
    d = c["differences"][0]
    ca, cb = checks
    where = {  # each total, as check --json gives it
        "gpus": lambda r: r["totals"]["gpus"],
        "it_power_kw": lambda r: r["totals"]["it_power_kw"],
        "facility_power_kw": lambda r: r["totals"]["facility_power_kw"],
        "racks": lambda r: r["totals"]["racks"],
        "cdus": lambda r: r["totals"]["cdus"],
        "cdus_placed": lambda r: r["totals"]["cdus_placed"],
        "capex_usd": lambda r: r["cost"]["capex_usd"],
        "opex_usd_per_month": lambda r: r["cost"]["opex_usd_per_month"],
        "tco_usd": lambda r: r["cost"]["tco_usd"],
        "tokens_per_s": lambda r: r["workload"]["tokens_per_s"],
        "time_to_train_days": lambda r: r["workload"]["time_to_train_days"],
        "break_even_months": lambda r: r["cost"]["break_even_months"]["on_demand"],
    }
    for key, get in where.items():
        assert c["sides"][0]["totals"][key] == get(ca), key
        assert c["sides"][1]["totals"][key] == get(cb), key
        assert d["totals"][key] == pytest.approx(get(cb) - get(ca), abs=1e-6), key
    # By hand: 48 - 16 nodes of 8 GPUs; 18 - 7 racks (the templates' layouts; massive's 16
    # leaves, 16 spines and 8 cores, ECMP-balanced, fill 3 network racks, one more than 16 + 12 + 6,
    # and its storage leaf-spine of 3 stands together in the third, which has room for it).
    assert (d["totals"]["gpus"], d["totals"]["racks"]) == (256, 11)
    # The BOM's line differences add up to the capex difference.
    capex = cb["cost"]["capex_usd"] - ca["cost"]["capex_usd"]
    assert sum(line["cost_difference_usd"] for line in d["bom"]) == pytest.approx(capex, abs=0.01 * len(d["bom"]))
    gpu_line = next(line for line in d["bom"] if line["category"] == "GPU servers")
    assert (gpu_line["change"], gpu_line["quantity_difference"]) == ("changed", 32)
    assert gpu_line["cost_difference_usd"] == 32 * 315_000  # the catalog's $315,000 per HGX H100 node
    # Cabling is priced from each plan's cable schedule: massive's longer runs are lines medium does not have.
    assert any(line["change"] == "added" and line["category"] == "Cabling" for line in d["bom"])
    # The facility's power distribution is one line in both, priced per kW of IT power: changed in cost only.
    facility = next(line for line in d["bom"] if line["item"] == "Facility power distribution")
    assert (facility["change"], facility["quantity_difference"]) == ("changed", 0) and facility["cost_difference_usd"] > 0
    # Findings: massive gains its 8 extra GPU racks' nameplate warnings; medium's archetype note is lost.
    gained = [(f["code"], f["count"]) for f in d["findings"]["gained"]]
    assert sum(n for code, n in gained if code == "rack.power.nameplate_over_cap") >= 8
    assert [f["code"] for f in d["findings"]["lost"]] == ["workload.archetype"]
    # Better or worse, by each figure's direction: more capex is worse, a sooner break-even is better.
    assert d["verdicts"]["capex_usd"] == "worse" and d["verdicts"]["gpus"] is None
    months = d["totals"]["break_even_months"]
    assert d["verdicts"]["break_even_months"] == ("better" if months < 0 else "worse" if months > 0 else "same")


def test_compare_text_shows_each_side_and_the_difference(capsys, medium_and_massive):
    capex_of = []
    for f in medium_and_massive:
        _, out = cli(capsys, "check", str(f), "--json")
        capex_of.append(json.loads(out.out)["cost"]["capex_usd"])
    code, out = cli(capsys, "compare", *map(str, medium_and_massive))
    assert code == 0
    gpus = next(line for line in out.out.splitlines() if line.startswith("GPUs"))
    assert gpus.split() == ["GPUs", "128", "384", "+256"]
    capex = next(line for line in out.out.splitlines() if line.startswith("Capex")).split()
    a, b = capex_of
    assert capex == ["Capex", f"${a:,.0f}", f"${b:,.0f}", f"+${b - a:,.0f}", "worse"]


def test_compare_variants_of_one_plan(capsys, tmp_path):
    from planner.plan.commands import History, SetSetting
    from planner.plan.fileio import save_plan
    from planner.design.templates import build_template
    from planner.plan.variants import CreateVariant
    from planner.hardware.catalog import default_catalog

    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    h = History(plan, catalog)
    h.apply(CreateVariant("PUE 1.2"))
    h.apply(SetSetting("facility", "pue", 1.2))
    save_plan(plan, tmp_path / "p.json")
    code, out = cli(capsys, "compare", str(tmp_path / "p.json"), "--variants", "Base", "PUE 1.2", "--json")
    assert code == 0, out.err
    d = json.loads(out.out)["differences"][0]
    # Same IT power; facility power = IT x PUE: 142.648 kW x (1.2 - 1.56).
    assert d["totals"]["it_power_kw"] == 0
    assert d["totals"]["facility_power_kw"] == pytest.approx(142.648 * (1.2 - 1.56), abs=1e-6)
    assert d["verdicts"]["facility_power_kw"] == "better" and d["bom"] == []


@pytest.mark.parametrize("args, message", [
    (["--variants", "Base", "Ghost"], "no variant 'Ghost' (variants: Base, Nameplate)"),
    (["--variants", "Base"], "needs two variant names"),
    ([], "needs two plan files"),
])
def test_compare_bad_input_is_one_line_and_exit_2(capsys, args, message):
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "data" / "plan_v5.json"
    code, out = cli(capsys, "compare", str(sample), *args)
    assert code == 2 and out.out == ""
    assert out.err.count("\n") == 1 and message in out.err


def test_workbook_compare_sheet_agrees_with_the_comparison(capsys, tmp_path, medium_and_massive):
    import openpyxl

    a, b = medium_and_massive
    code, out = cli(capsys, "compare", str(a), str(b), "--json")
    out_json = out.out
    d = json.loads(out_json)["differences"][0]
    code, out = cli(capsys, "export", str(a), "-o", str(tmp_path / "c.xlsx"), "--compare-with", str(b))
    assert code == 0, out.err
    wb = openpyxl.load_workbook(tmp_path / "c.xlsx")  # formulas
    values = openpyxl.load_workbook(tmp_path / "c.xlsx", data_only=True)  # their cached results
    assert wb.sheetnames[:3] == ["Summary", "Compare", "BOM"]
    ws, wv = wb["Compare"], values["Compare"]
    rows = {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1)}
    capex = rows["Capex"]
    sides = json.loads(out_json)["sides"]
    assert (wv.cell(capex, 4).value, wv.cell(capex, 5).value) == (sides[0]["totals"]["capex_usd"],
                                                                  sides[1]["totals"]["capex_usd"])
    assert ws.cell(capex, 6).value == f"=E{capex}-D{capex}"
    assert wv.cell(capex, 6).value == pytest.approx(d["totals"]["capex_usd"])
    # Worse is red, better green: more capex is worse; break-even here comes sooner.
    assert ws.cell(capex, 6).fill.fgColor.rgb.endswith("F6D5D3") and wv.cell(capex, 7).value == "worse"
    be = rows["Break-even vs on-demand rent"]
    assert wv.cell(be, 7).value == d["verdicts"]["break_even_months"]
    # The BOM differences' total (a SUM formula) equals the capex difference beside it.
    total = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 8).value == "Total")
    assert ws.cell(total, 9).value.startswith("=SUM(")
    assert wv.cell(total, 9).value == pytest.approx(wv.cell(total + 1, 9).value, abs=0.01)
    assert wv.cell(total + 1, 8).value == "Capex difference"


def test_compare_exits_1_when_a_side_has_errors_as_check_does(capsys, medium_and_massive, tmp_path):
    """GPU-01 of the medium plan capped at 20 kW draws 4 x 7.0 = 28 kW: an error on that side.
    The comparison is still printed; the status says a side has errors."""
    a, _ = medium_and_massive
    plan = json.loads(a.read_text())
    gpu1 = next(r for r in plan["racks"] if r["name"] == "GPU-01")
    gpu1["power_cap_kw"] = 20.0
    capped = tmp_path / "capped.json"
    capped.write_text(json.dumps(plan))
    code, out = cli(capsys, "check", str(capped))
    assert code == 1
    code, out = cli(capsys, "compare", str(a), str(capped))
    assert code == 1 and "Findings, capped.json against medium.json" in out.out
    code, out = cli(capsys, "compare", str(a), str(a), "--json")
    assert code == 0 and json.loads(out.out)["sides"]


def test_findings_of_one_cause_over_many_racks_compare_as_one_line():
    # Three racks gaining a nameplate warning (their figures differ rack by rack) read as one
    # line with their count, as check groups them; other findings stay as they are.
    from planner.report.compare import FindingDifference, grouped_differences

    racks = [FindingDifference("warning", "rack.power.nameplate_over_cap", f"Rack GPU-0{i} fits ... {i} kW", 1)
             for i in (1, 2, 3)]
    other = FindingDifference("info", "workload.archetype", "A 70B-parameter model ...", 1)
    (merged, kept) = grouped_differences([*racks, other])
    assert (merged.code, merged.count) == ("rack.power.nameplate_over_cap", 3)
    assert merged.message.startswith("3 racks fit their power cap at typical draw but not at nameplate")
    assert kept == other
    assert grouped_differences(racks[:1]) == racks[:1]  # one is itself, its text unchanged


def test_a_difference_below_what_the_text_shows_is_no_change():
    from planner.report.compare import METRIC, verdict
    from planner.vocabulary import difference

    # 0.3 tokens/s of 121,198 prints as "0 tokens/s", 0.004 days as "0.0 days", 0.004
    # interruptions a day as "0.00 per day": no change, neither better nor worse.
    for key, tiny in (("tokens_per_s", -0.3), ("time_to_train_days", 0.04), ("interruptions_per_day", 0.004)):
        m = METRIC[key]
        assert difference(tiny, m.unit) == "no change" and verdict(m, tiny) == "same", key
    m = METRIC["tokens_per_s"]
    assert (difference(-0.6, m.unit), verdict(m, -0.6)) == ("−1 tokens/s", "worse")
    # a share's difference is in percentage points: ETTR 99.4% -> 99.7% is +0.3 points, which
    # "+0.3%" would read as a relative change
    ettr = METRIC["ettr"]
    assert (difference(0.997 - 0.994, ettr.unit), verdict(ettr, 0.003)) == ("+0.3 percentage points", "better")
    # a figure itself under 10 tokens/s (a 405B replica on PCIe nodes: 1.45 output tokens/s a
    # GPU) keeps two decimals, not "1 tokens/s"; larger ones stay whole
    from planner.vocabulary import text

    assert (text(1.45, m.unit), text(121_198.3, m.unit), text(3, m.unit)) == (
        "1.45 tokens/s", "121,198 tokens/s", "3 tokens/s")


def test_compare_text_keeps_each_column_apart(capsys, medium_and_massive):
    # every row reads label, the two values and the difference, at least two spaces apart,
    # however wide a figure is ("1,305,240 tokens/s−257,599 tokens/s" ran together)
    import re

    code, out = cli(capsys, "compare", *map(str, medium_and_massive))
    rows = out.out.split("\n\n")[0].splitlines()[1:]
    assert rows and all(len(re.split(r"\s{2,}", row.strip())) == 4 for row in rows), rows


def test_compare_names_the_settings_that_differ(capsys, medium_and_massive, tmp_path):
    medium = medium_and_massive[0]
    other = tmp_path / "cudnn.json"
    assert main(["new", "-t", "medium", "--attention-kernel", "cudnn", "--rack-kw", "40", "-o", str(other)]) == 0
    code, out = cli(capsys, "compare", str(medium), str(other))
    assert code == 0, out.err
    text = out.out.split("Settings, cudnn.json against medium.json:\n")[1].split("\n\n")[0].splitlines()
    assert "  Default rack power cap (facility): 30 kW -> 40 kW" in text
    assert "  Attention kernel (workload): automatic -> cuDNN attention" in text
    code, out = cli(capsys, "compare", str(medium), str(other), "--json")
    settings = {s["setting"]: (s["first"], s["side"]) for s in json.loads(out.out)["differences"][0]["settings"]}
    assert settings["workload.attention_kernel"] == ("auto", "cudnn")
    assert settings["facility.default_rack_cap_kw"] == (30.0, 40.0)
    code, out = cli(capsys, "compare", str(medium), str(medium))
    assert "Settings," not in out.out  # the same plan twice: nothing to name


def test_two_inference_plans_compare_by_the_output_they_serve(capsys, tmp_path):
    """Three times the replicas serve three times the output tokens; the per-GPU decode rate,
    a serving efficiency, stays as it was and is named so."""
    for name, rps in (("a", 10), ("b", 30)):
        assert main(["new", "--inference", "--system", "dgx-h100", "--model", "llama3-70b", "--requests-per-s",
                     str(rps), "-o", str(tmp_path / f"{name}.json")]) == 0
    capsys.readouterr()
    reports = []
    for name in ("a", "b"):
        code, out = cli(capsys, "check", str(tmp_path / f"{name}.json"), "--json")
        reports.append(json.loads(out.out)["workload"])
    ra, rb = reports
    # requests/s the placed GPUs serve x 256 output tokens a request
    assert ra["inference_output_tokens_per_s"] == pytest.approx(ra["inference_requests_per_s"] * 256, rel=1e-4)
    assert rb["inference_output_tokens_per_s"] == pytest.approx(rb["inference_requests_per_s"] * 256, rel=1e-4)
    assert rb["inference_requests_per_s"] >= 30 > ra["inference_requests_per_s"] >= 10
    assert ra["decode_tokens_per_s"] == rb["decode_tokens_per_s"]  # the same replica: the same rate per GPU
    text_code, text = cli(capsys, "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    line = next(x for x in text.out.splitlines() if x.startswith("Inference output served"))
    assert line.split()[-1] == "better" and "tokens/s" in line
    assert any(x.startswith("Inference decode per GPU") for x in text.out.splitlines())
    # a break-even the horizon does not reach reads as check says it, not "-"
    code, out = cli(capsys, "check", str(tmp_path / "a.json"), "--json")
    words = json.loads(out.out)["cost"]["break_even_text"]["on_demand"]
    line = next(x for x in text.out.splitlines() if x.startswith("Break-even vs on-demand rent"))
    assert json.loads(out.out)["cost"]["break_even_months"]["on_demand"] is None
    assert words == "not within 36 months" and words in line


def test_cdus_placed_compare_beside_the_cdus_needed(capsys, tmp_path):
    """Medium's 130.6 kW of liquid heat needs 2 CDUs (one 250 kW and a spare); a copy with its
    CDUs taken out needs as many and places none: the difference is in what is placed."""
    from planner.design.templates import build_template
    from planner.hardware.catalog import default_catalog
    from planner.plan.fileio import save_plan

    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    save_plan(plan, tmp_path / "a.json")
    plan.placements = [p for p in plan.placements if catalog[p.device].category != "cdu"]
    save_plan(plan, tmp_path / "b.json")
    code, out = cli(capsys, "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--json")
    d = json.loads(out.out)["differences"][0]["totals"]
    assert (d["cdus"], d["cdus_placed"]) == (0, -2)
    code, out = cli(capsys, "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    line = next(x for x in out.out.splitlines() if x.startswith("CDUs placed"))
    assert line.split()[2:] == ["2", "0", "\u22122"]  # a minus sign, as every difference shows it


def test_fewer_warnings_are_not_better_where_they_became_errors():
    from planner.report.compare import finding_verdicts

    # medium on typical power: 4 warnings ("fits at typical, not at nameplate"); its nameplate
    # variant: those 4 racks are over their caps, 4 errors and no warning
    typical, nameplate = {"error": 0, "warning": 4, "info": 1}, {"error": 4, "warning": 0, "info": 1}
    v = finding_verdicts(typical, nameplate)
    assert v["error"][0] == "worse"
    assert v["warning"][0] is None and "errors rose" in v["warning"][1]
    # fewer warnings with no more errors is better; more of either is worse
    assert finding_verdicts(typical, {"error": 0, "warning": 1, "info": 0})["warning"][0] == "better"
    # and the other way: errors that became warnings are better, the warnings they became no worse
    back = finding_verdicts(nameplate, typical)
    assert back["error"] == ("better", "Errors: fewer is better.")
    assert back["warning"][0] is None and "errors fell" in back["warning"][1]
    assert finding_verdicts(typical, {"error": 0, "warning": 6, "info": 0})["warning"][0] == "worse"

"""Compare reads power like with like (typical with typical) and calls the training figures
"not comparable", with why, when two plans train different jobs."""

import json

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import SetSetting
from planner.plan.fileio import save_plan
from planner.report.compare import NOT_COMPARABLE, compare_plans

CATALOG = default_catalog()


def _with(*settings):
    plan = build_template("medium", catalog=CATALOG)
    for section, field, value in settings:
        SetSetting(section, field, value).do(plan, CATALOG)
    return plan


def test_a_basis_switch_alone_changes_no_power_figure():
    base, nameplate = _with(), _with(("facility", "power_basis", "nameplate"))
    c = compare_plans(["typical", "nameplate"], [base, nameplate], CATALOG)
    d = c.differences[0]
    # medium: 142.648 kW typical, 206.348 kW nameplate (tests/ui/test_charts.py works both sums);
    # read on the reference's typical basis, both sides draw 142.648 kW: nothing physical changed
    assert c.basis == "typical"
    assert c.totals(c.sides[1])["it_power_kw"] == 142.648
    assert d.totals["it_power_kw"] == 0 and d.verdicts["it_power_kw"] == "same"
    assert d.totals["facility_power_kw"] == 0 and d.verdicts["facility_power_kw"] == "same"
    # the other way round both are read on the nameplate
    c = compare_plans(["nameplate", "typical"], [nameplate, base], CATALOG)
    assert c.basis == "nameplate" and c.totals(c.sides[1])["it_power_kw"] == c.totals(c.sides[0])["it_power_kw"]
    assert c.differences[0].verdicts["it_power_kw"] == "same"


def test_a_different_model_makes_throughput_and_time_to_train_not_comparable():
    c = compare_plans(["70B", "405B"], [_with(), _with(("workload", "model", "llama3-405b"))], CATALOG)
    d = c.differences[0]
    for key in ("tokens_per_s", "time_to_train_days"):
        assert d.totals[key] is not None  # both sides train: a figure each
        assert d.verdicts[key] == NOT_COMPARABLE, key
        assert d.notes[key].startswith("the workloads differ in model (custom, Llama 3 405B), parameters (B) (70"), \
            d.notes[key]
    assert d.verdicts["capex_usd"] == "same"  # the hardware is the same
    # one job, two clusters: throughput is compared as before
    c = compare_plans(["a", "b"], [_with(), _with(("fabric", "technology", "eth100_tcp"))], CATALOG)
    assert c.differences[0].verdicts["tokens_per_s"] == "worse" and not c.differences[0].notes


def test_compare_text_names_the_basis_and_why_not_comparable(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    save_plan(_with(), a)
    save_plan(_with(("workload", "seq_len", 8192)), b)
    main(["compare", str(a), str(b)])
    out = capsys.readouterr().out
    assert "IT power (typical)" in out
    assert "training throughput and time to train are not comparable: the workloads differ in sequence length " \
           "(4096, 8192)" in out
    main(["compare", str(a), str(b), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["power_basis"] == "typical"
    assert data["differences"][0]["verdicts"]["tokens_per_s"] == NOT_COMPARABLE

"""Every figure the planner shows is a finite number, whatever valid values a plan holds.

Random valid plans (each setting and rack number drawn anywhere in the range its model
allows, extremes included) are evaluated; every figure of the report must be finite
(``check --json`` is strict JSON), and the summary strip, the checks list, every chart
and the workbook must render from that report. A value the model refuses is skipped:
the bounds are what keep the rest finite.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import annotated_types as at
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from planner.design.templates import build_template
from planner.export.xlsx import build_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import plan_from_json, plan_to_json, save_plan
from planner.report.evaluate import evaluate
from planner.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
CATALOG = default_catalog()
TEMPLATES = {name: plan_to_json(build_template(name)) for name in ("single-node", "medium", "inference")}


def _bounds(info) -> tuple[float, float, bool, bool]:
    lo, hi, open_lo, open_hi = -1e9, 1e9, False, False
    for m in info.metadata:
        if isinstance(m, at.Ge):
            lo = m.ge
        elif isinstance(m, at.Gt):
            lo, open_lo = m.gt, True
        elif isinstance(m, at.Le):
            hi = m.le
        elif isinstance(m, at.Lt):
            hi, open_hi = m.lt, True
    return float(lo), float(hi), open_lo, open_hi


def number(info):
    """Any float the field's own range admits, its edges and tiny values included."""
    lo, hi, open_lo, open_hi = _bounds(info)
    inside = st.floats(lo, hi, exclude_min=open_lo, exclude_max=open_hi, allow_nan=False, allow_infinity=False)
    edges = [v for v in (lo, hi, math.nextafter(lo, hi), 1e-310, 1e-7, 1e-6) if lo <= v <= hi
             and not (open_lo and v == lo) and not (open_hi and v == hi)]
    return st.one_of(inside, st.sampled_from(edges)) if edges else inside


# (section, field, strategy) for every float setting.
FLOAT_SETTINGS = [(section, name, number(info))
                  for section, model in ((s, Settings.model_fields[s].annotation) for s in Settings.model_fields)
                  for name, info in model.model_fields.items() if info.annotation is float]


@st.composite
def plans(draw):
    data = json.loads(TEMPLATES[draw(st.sampled_from(sorted(TEMPLATES)))])
    for section, name, values in draw(st.lists(st.sampled_from(FLOAT_SETTINGS), min_size=1, max_size=12)):
        data["settings"][section][name] = draw(values)
    rack_fields = {"power_cap_kw": (0, 1000), "max_weight_kg": (0, 20000)}
    for rack in data["racks"]:
        if draw(st.booleans()):
            field = draw(st.sampled_from(sorted(rack_fields)))
            lo, hi = rack_fields[field]
            rack[field] = draw(st.one_of(st.floats(lo, hi, exclude_min=True), st.sampled_from([1e-310, 1e-6, hi])))
    try:
        return plan_from_json(json.dumps(data))
    except Exception:  # noqa: BLE001 - a value the model refuses: not a valid plan
        assume(False)


def figures(obj, where="report"):
    """Every number in the report's JSON, with where it is."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from figures(v, f"{where}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from figures(v, f"{where}[{i}]")
    elif isinstance(obj, float):
        yield where, obj


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                                   HealthCheck.function_scoped_fixture])
@given(plan=plans())
def test_every_figure_is_finite_and_every_view_renders(qtbot, plan):
    from ui.charts.panel import ChartsPanel
    from ui.checks_panel import ChecksPanel
    from ui.summary_strip import SummaryStrip

    report = evaluate(plan, CATALOG)
    bad = [(w, v) for w, v in figures(report.to_json()) if not math.isfinite(v)]
    assert not bad, bad[:5]
    json.dumps(report.to_json(), allow_nan=False)
    strip, checks, charts = SummaryStrip(), ChecksPanel(), ChartsPanel()
    for w in (strip, checks, charts):
        qtbot.addWidget(w)
    strip.show_report(report)
    checks.show_report(report)
    for chart in charts.charts:
        chart.update_report(report, None)
    wb = build_workbook(plan, CATALOG, report)
    assert wb.sheetnames[0] == "Summary"


def test_a_denormal_setting_is_refused_with_one_line_not_printed_as_nan(tmp_path):
    """Finding 3: efficiency 1e-310 was accepted; check --json then printed NaN/Infinity."""
    data = json.loads(TEMPLATES["medium"])
    data["settings"]["fabric"]["efficiency_ib400"] = 1e-310
    target = tmp_path / "tiny.json"
    target.write_text(json.dumps(data))
    for extra in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "planner", "check", str(target), *extra], capture_output=True,
                              text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
        assert done.returncode == 2, done.stdout[-500:]
        assert done.stderr.strip().splitlines() == [
            "cluster-planner: tiny.json: settings.fabric.efficiency_ib400: Input should be greater than or equal to 0.01"]
    data["settings"]["fabric"]["efficiency_ib400"] = 0.5
    data["settings"]["facility"]["pue"] = 1e-310
    with pytest.raises(Exception, match="too small to be a real quantity|greater than or equal"):
        plan_from_json(json.dumps(data))


def test_a_denormal_typed_into_settings_is_refused_as_an_edit():
    from planner.plan.commands import CommandError, SetSetting

    plan = build_template("medium")
    before = plan.settings.fabric.efficiency_ib400
    with pytest.raises(CommandError, match="is at least 0.01"):
        SetSetting("fabric", "efficiency_ib400", 1e-310).do(plan, CATALOG)
    with pytest.raises(CommandError, match="too small to be a real quantity"):
        SetSetting("fabric", "latency_ib_us", 1e-310).do(plan, CATALOG)
    assert plan.settings.fabric.efficiency_ib400 == before  # the refused edits changed nothing


def test_check_json_is_strict_json_for_every_template(tmp_path):
    for name in TEMPLATES:
        save_plan(build_template(name), tmp_path / f"{name}.json", keep=0)
        done = subprocess.run([sys.executable, "-m", "planner", "check", "--json", str(tmp_path / f"{name}.json")],
                              capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                              timeout=120)
        json.loads(done.stdout, parse_constant=lambda c: pytest.fail(f"{name}: {c} in check --json"))

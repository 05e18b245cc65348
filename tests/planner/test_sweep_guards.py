"""sweep refuses what it cannot finish before the first point: every axis of the grid, the
output's folder; more workers than cores are capped with a note."""

from __future__ import annotations

import json

import pytest

import planner.cli.cmd_sweep as cmd_sweep
from planner.cli import main
from planner.sweep import SweepError, available_cores, parse_grid


@pytest.mark.parametrize("rack, words", [
    ({"power_cap_kw": -5}, "power_cap_kw"),
    ({"height_u": "x"}, "height_u"),
    ({"cooling": "plasma"}, "cooling"),
    ({"rack_type": "nvl72-mgx-48u", "max_weight_kg": 0}, "max_weight_kg"),
])
def test_a_bad_rack_axis_is_refused_up_front_like_a_bad_fabric(catalog, rack, words):
    with pytest.raises(SweepError, match=words) as info:
        parse_grid({"rack": [{"power_cap_kw": 30}, rack]}, catalog, "g.json")
    assert "\n" not in str(info.value) and str(info.value).startswith("g.json: rack ")


def test_good_rack_axes_still_pass(catalog):
    grid = parse_grid({"rack": [{"power_cap_kw": 30}, {"rack_type": "nvl72-mgx-48u"}, {"cooling": "liquid", "height_u": 48}]},
                      catalog, "g.json")
    assert grid.size == 3


@pytest.fixture
def sweep_files(tmp_path):
    assert main(["new", "-t", "single-node", "-o", str(tmp_path / "base.json")]) == 0
    (tmp_path / "grid.json").write_text(json.dumps({"nodes": [1, 2]}))
    return tmp_path


@pytest.fixture
def no_points(monkeypatch):
    """run_sweep replaced: a test fails if any point would run."""
    calls = []
    monkeypatch.setattr(cmd_sweep, "run_sweep", lambda *a, **k: calls.append(k) or pytest.fail("points ran"))
    return calls


def test_an_output_folder_that_does_not_exist_is_refused_before_the_first_point(sweep_files, no_points, capsys):
    code = main(["sweep", str(sweep_files / "base.json"), "--grid", str(sweep_files / "grid.json"),
                 "-o", str(sweep_files / "missing" / "r.csv")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "missing" in err and "does not exist" in err, err
    assert no_points == []


def test_more_workers_than_cores_are_capped_with_a_note(sweep_files, monkeypatch, capsys):
    used = []
    real = cmd_sweep.run_sweep
    monkeypatch.setattr(cmd_sweep, "run_sweep", lambda *a, **k: used.append(k["workers"]) or real(*a, **k))
    code = main(["sweep", str(sweep_files / "base.json"), "--grid", str(sweep_files / "grid.json"),
                 "-o", str(sweep_files / "r.csv"), "--workers", "256"])
    err = capsys.readouterr().err
    cores = available_cores()
    assert code == 0 and used == [cores]
    assert f"--workers 256: {cores} core" in err and "available" in err
    assert len((sweep_files / "r.csv").read_text().splitlines()) == 3  # header and the two points


def test_zero_workers_is_a_usage_error(sweep_files, no_points, capsys):
    code = main(["sweep", str(sweep_files / "base.json"), "--grid", str(sweep_files / "grid.json"),
                 "-o", str(sweep_files / "r.csv"), "--workers", "0"])
    assert code == 2 and "--workers takes 1 to" in capsys.readouterr().err


def test_a_pareto_front_of_one_figure_twice_is_a_usage_error(sweep_files, no_points, capsys):
    code = main(["sweep", str(sweep_files / "base.json"), "--grid", str(sweep_files / "grid.json"),
                 "-o", str(sweep_files / "r.csv"), "--pareto", "gpus", "gpus"])
    assert code == 2 and "--pareto takes two different figures, not gpus twice" in capsys.readouterr().err
    assert not (sweep_files / "r.csv").exists()


def test_a_grid_file_naming_no_axis_is_a_usage_error(sweep_files, no_points, capsys, tmp_path):
    # the CLI's grid file names what to sweep; {} is a mistake (the app's dialog, with nothing
    # ticked, runs the plan as it is)
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    code = main(["sweep", str(sweep_files / "base.json"), "--grid", str(empty), "-o", str(tmp_path / "r.csv")])
    assert code == 2 and "empty.json: the grid names no axis to sweep (gpu_system, nodes" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()

"""CLI numbers are checked as the app's settings check them: one line, exit status 2."""

from __future__ import annotations

import pytest

from planner.cli import main
from planner.settings.costs import CostSettings


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(["rent", *argv])
    return exc.value.code, capsys.readouterr().err


def test_uplift_15_is_refused_with_the_fraction_suggested(capsys):
    # The settings model takes 0..10 (a fraction): 15 would be 1,500%; the user meant 0.15.
    with pytest.raises(ValueError):
        CostSettings(rent_uplift=15)
    code, err = run(capsys, "--gpus", "64", "--days", "90", "--uplift", "15")
    assert code == 2 and err.count("\n") == 1
    assert "takes a fraction" in err and "0.15 for 15%" in err and "for 15% use 0.15" in err


@pytest.mark.parametrize("args, words", [
    (["--gpus", "-5", "--days", "9"], "whole number of GPUs"),
    (["--gpus", "1.5", "--days", "9"], "whole number of GPUs"),
    (["--gpus", "0", "--days", "9"], "whole number of GPUs"),
    (["--gpus", "8", "--days", "-1"], "above 0"),
    (["--gpus", "8", "--days", "0"], "above 0"),
    (["--gpus", "8", "--hours", "nan"], "finite"),
    (["--gpus", "8", "--days", "9", "--rate", "-2"], "0 to 1,000"),
    (["--gpus", "8", "--days", "9", "--rate", "2000"], "0 to 1,000"),
    (["--gpus", "8", "--days", "9", "--uplift", "-0.1"], "fraction"),
])
def test_bad_numbers_exit_2_with_one_line(capsys, args, words):
    code, err = run(capsys, *args)
    assert code == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_good_numbers_still_compute_the_guides_faq(capsys):
    # 64 GPUs x 2,160 h x $2.10 x 1.15 = $333,849.60
    assert main(["rent", "--gpus", "64", "--days", "90", "--rate", "2.10", "--uplift", "0.15"]) == 0
    assert "$333,849.60" in capsys.readouterr().out
    # a GPU count with its thousands grouped, as new takes it: 1,024 x 720 h x 2.10 x 1.15 = 1,780,531.20
    assert main(["rent", "--gpus", "1,024", "--days", "30", "--rate", "2.10", "--uplift", "0.15"]) == 0
    assert "$1,780,531.20" in capsys.readouterr().out
    # An uplift of 2 (200%) is allowed, as in the app, with a note: 64 x 2,160 x 2.10 x 3 = 870,912
    assert main(["rent", "--gpus", "64", "--days", "90", "--rate", "2.10", "--uplift", "2"]) == 0
    out = capsys.readouterr()
    assert "$870,912.00" in out.out and "0.02 for 2%" in out.err


@pytest.mark.parametrize("args", [
    ["--gpus", "1", "--hours", "1e-320"],      # a denormal: "above 0", yet no real duration
    ["--gpus", "1", "--days", "1e-9"],
    ["--gpus", "1", "--hours", "5", "--rate", "1e-310"],
    ["--gpus", "1", "--hours", "5", "--uplift", "1e-320"],
])
def test_vanishingly_small_numbers_are_refused_as_in_a_plan(capsys, args):
    code, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "at least 1e-06" in err, err


def test_one_gpu_is_one_gpu(capsys):
    # 1 GPU x 10 h x $2.00 x 1.15 = $23.00
    assert main(["rent", "--gpus", "1", "--hours", "10", "--rate", "2", "--uplift", "0.15"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 GPU x 10 h") and "$23.00" in out

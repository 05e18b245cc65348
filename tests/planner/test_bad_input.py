"""Every class of bad input through `python3 -m planner check`: exit 2, one line, file untouched.

Each case writes a file, runs the CLI in a fresh process and asserts: exit status 2, a
single line on stderr that says what is wrong (no "Traceback"), and the file's bytes and
modification time unchanged.

Why it is long: every kind of malformed input the command line refuses has its case, each
held to the one contract (one line, status 2, nothing written).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from planner.plan.model import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = json.loads((ROOT / "tests" / "data" / "plan_v1.json").read_text())
NODE = "hgx-h100-8"  # the guide's 8 x H100 node (8 U) in the built-in catalog


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=60)


def assert_refused(tmp_path: Path, files: dict[str, bytes], args: list[str], *expect: str) -> str:
    """Write ``files``, run the CLI, check the contract; return the message."""
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    before = {n: ((tmp_path / n).read_bytes(), (tmp_path / n).stat().st_mtime_ns) for n in files}
    proc = run_cli(*args, cwd=tmp_path)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert len(lines[0]) < 600
    for fragment in expect:
        assert fragment in lines[0], lines[0]
    after = {n: ((tmp_path / n).read_bytes(), (tmp_path / n).stat().st_mtime_ns) for n in files}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)  # nothing written beside them
    return lines[0]


def mutated(edit) -> bytes:
    plan = copy.deepcopy(SAMPLE)
    edit(plan)
    return json.dumps(plan, indent=1).encode()


def check_plan(tmp_path, data: bytes, *expect: str) -> str:
    return assert_refused(tmp_path, {"p.json": data}, ["check", "p.json"], "p.json", *expect)


# -- project files ----------------------------------------------------------------------

def test_truncated_file(tmp_path):
    whole = (ROOT / "tests" / "data" / "plan_v1.json").read_bytes()
    check_plan(tmp_path, whole[: len(whole) // 2], "not a valid plan file", "JSON error")


@pytest.mark.parametrize("data, expect", [
    (b"hello, this is not JSON", "not a valid plan file"),
    (b"", "the file is empty, not a plan"),
    (b"  \n", "the file is empty, not a plan"),
    (b"\xff\xfe\x00binary\x00", "not a"),
    (b"[1, 2, 3]", "expected a JSON object, found an array"),
    (b"null", "expected a JSON object, found null"),
    (b'"just a string"', "expected a JSON object, found a string"),
])
def test_not_json_or_not_a_plan(tmp_path, data, expect):
    check_plan(tmp_path, data, expect)


def test_wrong_type(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["racks"][0].update(height_u="tall")),
               "racks[0] (id 'r1').height_u", "valid integer")


def test_wrong_type_of_container(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p.update(placements={"d1": 1})), "placements", "valid list")


def test_negative_power(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["racks"][0].update(power_cap_kw=-30)),
               "power_cap_kw", "greater than 0")


def test_thousand_u_rack(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["racks"][0].update(height_u=1000)), "height_u", "less than or equal to 60")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity(tmp_path, literal):
    text = mutated(lambda p: p["racks"][0].update(power_cap_kw=12345.5)).replace(b"12345.5", literal.encode())
    check_plan(tmp_path, text, "power_cap_kw" if literal == "1e999" else "not a number a plan may hold")


def test_unknown_device_type(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["placements"][0].update(device="dgx-z9000")),
               "type 'dgx-z9000', which the catalog does not have")


def test_unknown_device_type_with_a_line_break_stays_one_line(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["placements"][0].update(device="evil\nsecond line")), "evil\\nsecond line")


def test_duplicate_rack_ids(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["racks"].append(dict(p["racks"][0]))), "rack id 'r1' is used twice")


def test_duplicate_device_ids(tmp_path):
    dup = SAMPLE["placements"][0]["id"]
    check_plan(tmp_path, mutated(lambda p: p["placements"].append(dict(p["placements"][0], u=40))),
               f"device id '{dup}' is used twice")


def test_device_in_a_rack_the_plan_does_not_have(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["placements"][0].update(rack="r99")), "rack 'r99'")


def test_unknown_key(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p["racks"][0].update(colour="red")), "colour", "Extra inputs")


def test_unknown_key_with_a_line_break_stays_one_line(tmp_path):
    # Found by the fuzz test: a key "\n" used to split the message over two lines.
    check_plan(tmp_path, mutated(lambda p: p.update({"\n": None})), "p.json: \\n: Extra inputs")


def test_newer_schema_version(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p.update(schema_version=SCHEMA_VERSION + 1)),
               f"file format {SCHEMA_VERSION + 1}", f"formats up to {SCHEMA_VERSION}")


def test_one_megabyte_strings(tmp_path):
    check_plan(tmp_path, mutated(lambda p: p.update(name="x" * 1_000_000)), "name", "at most 200 characters")
    (tmp_path / "p.json").unlink()
    msg = check_plan(tmp_path, mutated(lambda p: p["racks"][0].update({"k" * 1_000_000: 1})), "Extra inputs")
    assert "k" * 40 + "..." in msg


def test_deeply_nested_json(tmp_path):
    check_plan(tmp_path, b"[" * 100_000 + b"]" * 100_000, "nested too deeply")
    (tmp_path / "p.json").unlink()
    check_plan(tmp_path, b'{"schema_version": 1, "name": ' + b"[" * 20 + b"]" * 20 + b"}", "name", "valid string")
    (tmp_path / "p.json").unlink()
    # 500 levels: within Python's recursion limit, but past the reader's bound of 32 (a plan has 5)
    check_plan(tmp_path, b'{"schema_version": 1, "name": ' + b"[" * 500 + b"]" * 500 + b"}", "nested too deeply",
               "32 levels")


def test_hundred_megabyte_file_is_refused_without_reading_it(tmp_path, monkeypatch):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # sparse: 100 MB long, written in no time
        fh.truncate(100 * 1024 * 1024)
    proc = run_cli("check", "big.json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    # 100 * 1024 * 1024 bytes = 104.9 MB (decimal), over the 64 MB limit.
    assert proc.stderr.strip() == "cluster-planner: big.json: 105 MB is larger than a plan file can be (64 MB)"
    # The size is read from the file's metadata: the file is never opened, so not one byte is read.
    from planner import readfile
    from planner.plan.fileio import PlanLoadError, load_plan

    opened = []
    monkeypatch.setattr(readfile, "open", lambda *a, **k: opened.append(a) or open(*a, **k), raising=False)
    with pytest.raises(PlanLoadError, match="105 MB is larger than a plan file can be"):
        load_plan(big)
    assert opened == []
    (tmp_path / "small.json").write_bytes(b"{}")  # the spy sees the files the reader does open
    with pytest.raises(PlanLoadError):
        load_plan(tmp_path / "small.json")
    assert len(opened) == 1


def test_folder_and_device_files(tmp_path):
    (tmp_path / "folder.json").mkdir()
    proc = run_cli("check", "folder.json", cwd=tmp_path)
    assert proc.returncode == 2 and "is a folder" in proc.stderr and proc.stderr.count("\n") == 1
    proc = run_cli("check", "/dev/zero", cwd=tmp_path)  # would never end if read to the end
    assert proc.returncode == 2 and "not a regular file" in proc.stderr


def test_missing_file(tmp_path):
    proc = run_cli("check", "nowhere.json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip() == "cluster-planner: nowhere.json: cannot read (No such file or directory)"


def test_overlapping_devices_load_and_are_reported_as_errors(tmp_path):
    """Two devices in the same U is a plan problem, not a broken file: it loads, exit 1, a finding."""
    first = SAMPLE["placements"][0]
    assert first["device"] == NODE

    def overlap(p):
        p["placements"].append({"id": "extra", "device": NODE, "rack": first["rack"], "u": first["u"],
                                "label": "late-node"})

    (tmp_path / "p.json").write_bytes(mutated(overlap))
    before = (tmp_path / "p.json").read_bytes()
    proc = run_cli("check", "p.json", "--json", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
    findings = json.loads(proc.stdout)["findings"]
    overlaps = [f for f in findings if f["code"] == "rack.space.overlap"]
    assert overlaps and all(f["severity"] == "error" for f in overlaps)
    # the devices are named by their labels, as the user sees them, not the file's ids
    first_name = first["label"] or first["id"]
    message = overlaps[0]["message"]
    assert f"device {first_name} " in message.lower() and "late-node" in message and "extra" not in message
    assert (tmp_path / "p.json").read_bytes() == before


# -- catalog files ----------------------------------------------------------------------

GOOD_DEVICE = {"id": "my-node", "vendor": "Acme", "model": "8 x H200 node", "category": "gpu_server",
               "u_height": 8, "weight_kg": 120, "power_max_w": 10200, "power_typical_w": 7000,
               "gpu": {"model": "H200", "count": 8, "tdp_w": 700, "memory_gb": 141, "bf16_tflops": 989,
                       "nvlink_gbs": 900},
               "price_usd": 330000, "source": "Acme datasheet rev 3"}


def catalog_bytes(**changes) -> bytes:
    return json.dumps({"schema_version": 1, "devices": [dict(GOOD_DEVICE, **changes)]}).encode()


def check_with_catalog(tmp_path, data: bytes, *expect: str) -> str:
    plan = json.dumps(SAMPLE).encode()
    return assert_refused(tmp_path, {"p.json": plan, "mine.json": data},
                          ["--catalog", "mine.json", "check", "p.json"], "mine.json", *expect)


def test_a_good_user_catalog_is_accepted(tmp_path):
    (tmp_path / "mine.json").write_bytes(catalog_bytes())
    proc = run_cli("--catalog", "mine.json", "catalog", "--json", cwd=tmp_path)
    assert proc.returncode == 0 and "my-node" in proc.stdout


@pytest.mark.parametrize("changes, expect", [
    ({"u_height": 0}, "u_height"),                      # a 0 U device
    ({"power_max_w": -100}, "power_max_w"),             # negative power
    ({"power_typical_w": 12000}, "above the nameplate"),
    ({"category": "toaster"}, "category"),              # unknown device type category
    ({"u_height": "eight"}, "u_height"),                # wrong type
    ({"gpu": None}, "needs a 'gpu' block"),
    ({"colour": "red"}, "colour"),                      # unknown key
])
def test_bad_catalog_entries(tmp_path, changes, expect):
    check_with_catalog(tmp_path, catalog_bytes(**changes), expect)


@pytest.mark.parametrize("data, expect", [
    (b'{"schema_version": 1, "devices": [', "not valid JSON"),
    (b"[]", "expected a JSON object"),
    (b'{"schema_version": 9, "devices": []}', "newer than this planner understands"),
    (json.dumps({"schema_version": 1, "devices": [GOOD_DEVICE, GOOD_DEVICE]}).encode(),
     "device id 'my-node' is defined twice"),
    (catalog_bytes().replace(b"10200", b"Infinity"), "not a number a catalog may hold"),
    (b"[" * 100_000, "not valid JSON"),
])
def test_bad_catalog_files(tmp_path, data, expect):
    check_with_catalog(tmp_path, data, expect)


# -- command-line arguments -------------------------------------------------------------

@pytest.mark.parametrize("args, expect", [
    (["check"], "the following arguments are required: FILE"),
    (["check", "p.json", "--bogus"], "unrecognized arguments: --bogus"),
    (["new", "--nodes", "abc", "-o", "x.json"], "'abc' is not a whole number of nodes"),
    (["new", "--nodes", "-5", "-o", "x.json"], "--nodes"),
    # a negative value with a unit is the option's value, not an unknown option "-5T"
    (["new", "--train-tokens", "-5T", "-o", "x.json"], "--train-tokens takes 1M to 10,000T tokens"),
    (["new", "--train-tok", "-5T", "-o", "x.json"], "--train-tokens takes 1M to 10,000T tokens"),
    # a flag takes no value: "-5T" after it is still an unknown option, not the flag's value
    (["new", "--inference", "-5T", "-o", "x.json"], "unrecognized arguments: -5T"),
    (["new", "--power-basis", "watts", "-o", "x.json"], "invalid choice: 'watts'"),
    (["new", "--template", "gigantic", "-o", "x.json"], "there is no template 'gigantic'"),
    (["--catalog", "missing.json", "check", "p.json"], "missing.json: cannot read"),
])
def test_bad_arguments(tmp_path, args, expect):
    plan = json.dumps(SAMPLE).encode()
    assert_refused(tmp_path, {"p.json": plan}, args, expect)


def test_reading_a_plan_leaves_the_garbage_collector_as_it_was(tmp_path):
    # the reader holds the collector off while it reads; a file it refuses must not leave it off
    import gc

    from planner.plan.fileio import PlanLoadError, load_plan, save_plan
    from planner.plan.model import SCHEMA_VERSION, Plan, Rack

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    save_plan(Plan(name="P", racks=[Rack(id="r1", name="A")]), good)
    bad.write_text(f'{{"schema_version": {SCHEMA_VERSION}, "racks": [{{"id": "r1", "name": "A", "power_cap_kw": 1e-310}}]}}')
    assert gc.isenabled()
    assert load_plan(good).racks[0].name == "A"
    with pytest.raises(PlanLoadError, match="too small"):
        load_plan(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        load_plan(good)
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()


def test_a_plan_named_like_an_export_and_an_export_named_as_a_folder_say_what_to_do(tmp_path):
    made = run_cli("new", "--template", "medium", "-o", "plan.xlsx", cwd=tmp_path)
    assert made.returncode == 2 and not (tmp_path / "plan.xlsx").exists()
    assert made.stderr.strip() == (
        "cluster-planner: cannot save plan.xlsx: a plan is saved as a .json file; the workbook, vendor pack and "
        "drawings are exports of it ('cluster-planner export PLAN.json -o plan.xlsx')")
    assert run_cli("new", "--template", "medium", "-o", "plan.json", cwd=tmp_path).returncode == 0
    out = run_cli("export", "plan.json", "-o", ".", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.strip().startswith("cluster-planner: . is a folder: name a file in it")


@pytest.mark.parametrize("argv", [["new"], ["export", "plan.json"], ["acceptance", "plan.json"]])
def test_an_empty_output_name_is_refused_in_one_line(argv, tmp_path, capsys, monkeypatch):
    from planner.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "-o", ""])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "-o/--output: no file name was given" in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_saving_to_no_name_says_so():
    from planner.save_target import SaveError, check_target

    with pytest.raises(SaveError, match="no file name was given"):
        check_target("")

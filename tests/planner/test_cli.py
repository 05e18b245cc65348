import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_templates_lists_each_with_one_line():
    out = cli("templates")
    assert out.returncode == 0
    lines = out.stdout.strip().splitlines()
    assert {line.split()[0] for line in lines} >= {"single-node", "medium", "massive", "inference"}


def test_new_and_check_json_follow_the_contract(tmp_path):
    plan = tmp_path / "p.json"
    assert cli("new", "--template", "medium", "-o", str(plan)).returncode == 0
    out = cli("check", str(plan), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["plan"]["power_basis"] == "typical"
    assert set(report["totals"]) >= {"gpus", "nodes", "racks", "it_power_kw", "it_power_typical_kw",
                                     "it_power_nameplate_kw", "facility_power_kw", "cdus", "weight_kg"}
    assert set(report["racks"][0]) >= {"id", "name", "height_u", "used_u", "nodes", "gpus", "power_kw",
                                       "power_typical_kw", "power_nameplate_kw", "cap_kw", "cooling", "weight_kg"}
    assert report["totals"]["gpus"] == 128
    for f in report["findings"]:
        assert set(f) == {"severity", "code", "message", "where", "where_name", "remedy"}


def test_nodes_and_power_basis_options(tmp_path):
    plan = tmp_path / "p.json"
    assert cli("new", "-t", "medium", "--nodes", "6", "--power-basis", "nameplate", "-o", str(plan)).returncode == 0
    report = json.loads(cli("check", str(plan), "--json").stdout)
    # 6 nodes at 10.2 kW, 2 per 30 kW rack -> 3 GPU racks
    assert report["totals"]["nodes"] == 6
    assert report["totals"]["gpu_racks"] == 3
    assert report["plan"]["power_basis"] == "nameplate"


def test_check_exits_1_on_errors_and_prints_the_table(tmp_path):
    plan_path = tmp_path / "p.json"
    cli("new", "-t", "medium", "-o", str(plan_path))
    data = json.loads(plan_path.read_text())
    for rack in data["racks"]:
        rack["power_cap_kw"] = 10
    plan_path.write_text(json.dumps(data))
    out = cli("check", str(plan_path))
    assert out.returncode == 1
    assert "rack.power.over_cap" in out.stdout and "GPU-01" in out.stdout


def test_catalog_lists_every_field_as_json():
    out = cli("catalog", "--json")
    devices = json.loads(out.stdout)
    ids = {d["id"] for d in devices}
    assert {"dgx-h100", "dgx-h200", "dgx-b200", "hgx-h100-8", "h100x4-workhorse", "h100x2-inference", "rtx4090x8",
            "qm9700", "sn5600", "sn4600c", "pfs-appliance", "cdu-inrack-250", "pdu-3ph-60a"} <= ids
    dgx = next(d for d in devices if d["id"] == "dgx-h100")
    # DGX H100 user guide: 8U, 10.2 kW max, 130.45 kg; H100 SXM BF16 dense 989 TFLOP/s
    assert (dgx["u_height"], dgx["power_max_w"], dgx["weight_kg"]) == (8, 10200, 130.45)
    assert dgx["gpu"]["bf16_tflops"] == 989 and dgx["gpu"]["count"] == 8
    assert all(d["source"] for d in devices)
    assert "dgx-h100" in cli("catalog").stdout


def test_catalog_shows_one_entry_field_by_field():
    # DGX H100 user guide: 8U, 10.2 kW max; one of its fields a line, nested blocks dotted
    out = cli("catalog", "show", "dgx-h100")
    assert out.returncode == 0, out.stderr
    fields = dict(line.split(None, 1) for line in out.stdout.splitlines())
    assert (fields["u_height"], fields["power_max_w"], fields["gpu.count"], fields["nics[0].gbps"]) == (
        "8", "10200.0", "8", "400.0")
    assert fields["source"]
    assert json.loads(cli("catalog", "--json", "show", "cat6a-3m").stdout)["length_m"] == 3.0  # a component too
    assert json.loads(cli("catalog", "show", "cat6a-3m", "--json").stdout)["length_m"] == 3.0  # --json after it
    missing = cli("catalog", "show", "dgx-h1000")
    assert missing.returncode == 2 and "no device type, rack type or component 'dgx-h1000'" in missing.stderr
    header = cli("catalog").stdout.splitlines()[0]
    assert header.split()[:2] == ["id", "device"] and "typical/max kW" in header and "price" in header


def test_a_user_catalog_adds_devices(tmp_path):
    extra = tmp_path / "mine.json"
    extra.write_text(json.dumps({"schema_version": 1, "devices": [{
        "id": "my-switch", "vendor": "Acme", "model": "S1", "category": "switch", "u_height": 1, "weight_kg": 9,
        "power_max_w": 500, "power_typical_w": 300, "price_usd": 9000, "source": "Acme datasheet",
        "switch": {"ports": 32, "gbps_per_port": 400, "technology": "ethernet"}}]}))
    out = cli("--catalog", str(extra), "catalog")
    assert out.returncode == 0 and "my-switch" in out.stdout


@pytest.mark.slow
def test_installed_wheel_ships_its_resources(tmp_path):
    """pip install . (not editable) into a fresh venv, then run from another directory."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(ROOT)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    # The dependencies come from the interpreter running the tests (never the base Python's
    # site-packages, which a fresh machine leaves empty). A path line in a .pth file adds the
    # folder to sys.path after the new venv's own site-packages, and .pth files inside it are
    # not processed, so the test run's editable install of this checkout stays invisible.
    import site
    new_site = next((venv / "lib").glob("python3*/site-packages"))
    (new_site / "test_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    exe = str(venv / "bin" / "cluster-planner")
    env = {"PATH": "/usr/bin:/bin"}
    new = subprocess.run([exe, "new", "--template", "medium", "-o", "p.json"], cwd=work, capture_output=True,
                         text=True, env=env)
    assert new.returncode == 0, new.stderr
    check = subprocess.run([exe, "check", "p.json"], cwd=work, capture_output=True, text=True, env=env)
    assert check.returncode == 0, check.stderr
    assert "GPU-01" in check.stdout

"""The built-in catalog against datasheet figures written down here independently, each
with the document it comes from, and `catalog --json` listing every 2026 entry with its source."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# (catalog id, field path, expected value, document)
DATASHEET = [
    # NVIDIA DGX A100 user guide / datasheet
    ("dgx-a100", "u_height", 6, "NVIDIA DGX A100 datasheet: 6U"),
    ("dgx-a100", "power_max_w", 6500, "NVIDIA DGX A100 datasheet: 6.5 kW max"),
    ("dgx-a100", "weight_kg", 123.16, "NVIDIA DGX A100 datasheet: 271.5 lb = 123.16 kg"),
    ("dgx-a100", "gpu.memory_gb", 80, "NVIDIA A100 datasheet: A100 SXM4 80 GB"),
    ("dgx-a100", "gpu.bf16_tflops", 312, "NVIDIA A100 datasheet: BF16 312 TFLOPS dense"),
    ("dgx-a100", "gpu.memory_bandwidth_tbs", 2.04, "NVIDIA A100 datasheet: 2,039 GB/s"),
    ("dgx-a100", "gpu.nvlink_gbs", 600, "NVIDIA A100 datasheet: NVLink 600 GB/s"),
    # NVIDIA A100 Tensor Core GPU datasheet: A100 40GB (HBM2) and 80GB (HBM2e) are distinct types
    ("dgx-a100-320", "gpu.memory_gb", 40, "NVIDIA A100 datasheet: A100 SXM4 40 GB HBM2"),
    ("dgx-a100-320", "gpu.memory_bandwidth_tbs", 1.555, "NVIDIA A100 datasheet: 1,555 GB/s"),
    ("dgx-a100-320", "gpu.bf16_tflops", 312, "NVIDIA A100 datasheet: BF16 312 TFLOPS dense, as the 80 GB"),
    ("dgx-a100-320", "gpu.tdp_w", 400, "NVIDIA A100 datasheet: 400 W SXM4"),
    ("dgx-a100-320", "power_max_w", 6500, "NVIDIA DGX A100 datasheet: 6.5 kW max (320 GB system)"),
    ("dgx-a100", "gpu.min_power_limit_w", 100, "nvidia-smi on A100 SXM4: Min Power Limit 100 W"),
    # NVIDIA H100 datasheet: SXM (HBM3), NVL (HBM3, 94 GB), PCIe (HBM2e)
    ("dgx-h100", "gpu.memory_bandwidth_tbs", 3.35, "NVIDIA H100 datasheet: H100 SXM 3.35 TB/s"),
    ("dgx-h100", "gpu.min_power_limit_w", 200, "nvidia-smi on H100 SXM5: Min Power Limit 200 W"),
    ("h100nvl-x4", "gpu.memory_gb", 94, "NVIDIA H100 datasheet: H100 NVL 94 GB"),
    ("h100nvl-x4", "gpu.memory_bandwidth_tbs", 3.9, "NVIDIA H100 datasheet: H100 NVL 3.9 TB/s"),
    ("h100nvl-x4", "gpu.bf16_tflops", 835, "NVIDIA H100 datasheet: H100 NVL 1,671 TFLOPS sparse / 2"),
    ("h100nvl-x4", "gpu.tdp_w", 400, "NVIDIA H100 datasheet: H100 NVL 350-400 W configurable"),
    ("h100nvl-x4", "gpu.nvlink_domain", 2, "NVIDIA H100 datasheet: NVLink bridge joins two NVL cards"),
    ("h100x2-inference", "gpu.memory_bandwidth_tbs", 2.0, "NVIDIA H100 datasheet: H100 PCIe 2 TB/s HBM2e"),
    ("dgx-h200", "gpu.memory_bandwidth_tbs", 4.8, "NVIDIA H200 datasheet: 4.8 TB/s HBM3e"),
    ("dgx-h200", "gpu.memory_gb", 141, "NVIDIA H200 datasheet: 141 GB HBM3e"),
    # NVIDIA DGX B300 datasheet
    ("dgx-b300", "gpu.count", 8, "NVIDIA DGX B300 datasheet: 8 x Blackwell Ultra"),
    ("dgx-b300", "gpu.memory_gb", 288, "NVIDIA DGX B300 datasheet: 2.3 TB total = 8 x 288 GB"),
    ("dgx-b300", "power_max_w", 14500, "NVIDIA DGX B300 datasheet: ~14.5 kW"),
    ("dgx-b300", "nics.0.gbps", 800, "NVIDIA DGX B300 datasheet: 8 x ConnectX-8 800 Gb/s"),
    # NVIDIA DGX GB200 user guide + SuperPOD GB200 RA
    ("gb200-nvl72", "gpu.count", 72, "DGX GB200 user guide: 18 trays x 4 Blackwell GPUs"),
    ("gb200-nvl72", "gpu.nvlink_domain", 72, "DGX SuperPOD GB200 RA: full mesh of all 72 GPUs"),
    ("gb200-nvl72", "gpu.nvlink_gbs", 1800, "DGX SuperPOD GB200 RA: 1.8 TB/s per GPU"),
    ("gb200-nvl72", "compute_trays", 18, "DGX GB200 user guide: 18 x 1RU compute trays"),
    ("gb200-nvl72", "nics.0.count", 72, "DGX GB200 user guide: 4 x ConnectX-7 400G per tray x 18"),
    ("gb200-nvl72", "nics.0.gbps", 400, "DGX GB200 user guide: ConnectX-7 single port 400G OSFP"),
    ("gb200-nvl72", "weight_kg", 1360, "ServeTheHome GTC 2024: 1.36 t (3,000 lb)"),
    ("gb200-nvl72", "power_typical_w", 120000, "ServeTheHome GTC 2024: 120 kW"),
    ("gb200-nvl72", "power_max_w", 132000, "NVIDIA BCM: 8 power shelves x 33 kW, half of it redundant"),
    ("gb200-nvl72", "cooling", "liquid", "DGX GB200 user guide: liquid-cooled compute trays"),
    # NVIDIA technical blog, "How New GB300 NVL72 Features Provide Steady Power for AI" (2025)
    ("gb300-nvl72", "rack_storage.j_per_gpu", 65, "NVIDIA GB300 NVL72 blog: 65 J of storage per GPU"),
    ("gb300-compute-tray", "rack_storage.j_per_gpu", 65, "the tray's GPUs, in a GB300 NVL72 rack: 65 J each"),
    ("gb200-nvl72", "rack_storage", None, "NVIDIA GB300 NVL72 blog: coming to GB200, no figure published"),
    ("gb200-compute-tray", "u_height", 1, "DGX GB200 user guide: 1RU compute trays"),
    ("nvlink-switch-tray", "u_height", 1, "DGX GB200 user guide: 9 x 1RU NVLink switch trays"),
    ("gb300-nvl72", "gpu.memory_gb", 288, "NVIDIA GB300 NVL72: 288 GB HBM3e per Blackwell Ultra GPU"),
    ("gb300-nvl72", "nics.0.gbps", 800, "NVIDIA GB300 NVL72: ConnectX-8 800G per GPU"),
    # AMD Instinct datasheets
    ("amd-mi300x-8", "gpu.tdp_w", 750, "AMD Instinct MI300X datasheet: 750 W"),
    ("amd-mi300x-8", "gpu.memory_gb", 192, "AMD Instinct MI300X datasheet: 192 GB HBM3"),
    ("amd-mi300x-8", "gpu.memory_bandwidth_tbs", 5.3, "AMD Instinct MI300X datasheet: 5.3 TB/s"),
    ("amd-mi300x-8", "gpu.bf16_tflops", 1307.4, "AMD Instinct MI300X datasheet: BF16 1,307.4 TFLOPS dense"),
    ("amd-mi325x-8", "gpu.memory_gb", 256, "AMD Instinct MI325X datasheet: 256 GB HBM3E"),
    ("amd-mi325x-8", "gpu.memory_bandwidth_tbs", 6.0, "AMD Instinct MI325X datasheet: 6 TB/s"),
    ("amd-mi325x-8", "gpu.tdp_w", 1000, "AMD Instinct MI325X datasheet: 1,000 W"),
    ("amd-mi355x-8", "gpu.memory_gb", 288, "AMD Instinct MI355X datasheet: 288 GB HBM3E"),
    ("amd-mi355x-8", "gpu.memory_bandwidth_tbs", 8.0, "AMD Instinct MI355X datasheet: 8 TB/s"),
    ("amd-mi355x-8", "gpu.tdp_w", 1400, "AMD Instinct MI355X datasheet: 1,400 W, liquid-cooled"),
    ("amd-mi355x-8", "cooling", "liquid", "AMD Instinct MI355X datasheet: direct liquid cooling"),
    # NVIDIA switch datasheets
    ("qm9700", "switch.ports", 64, "NVIDIA QM9700 datasheet: 64 x NDR 400G"),
    ("qm9700", "switch.ports_per_module", 2, "NVIDIA QM9700 datasheet: 32 OSFP cages, 2 ports each"),
    ("qm9700", "power_max_w", 1720, "NVIDIA QM9700 datasheet: 1,720 W with active cables"),
    ("q3400", "switch.ports", 144, "NVIDIA Quantum-X800 Q3400: 144 x XDR 800G"),
    ("q3400", "u_height", 4, "NVIDIA Quantum-X800 Q3400: 4U"),
    ("q3400-400", "switch.ports", 288, "NVIDIA Quantum-X800 Q3400: each 800G port splits to 2 x 400G"),
    ("q3200", "switch.ports", 36, "NVIDIA Quantum-X800 Q3200: two 36-port 800G switches in 2U"),
    ("sn5600", "switch.ports", 64, "NVIDIA SN5600 datasheet: 64 x 800GbE"),
    ("sn5600", "weight_kg", 23.5, "NVIDIA SN5600 datasheet: 23.5 kg"),
    ("sn4600c", "switch.gbps_per_port", 100, "NVIDIA SN4600C datasheet: 64 x 100GbE"),
    ("sn4600c-200", "switch.gbps_per_port", 200, "NVIDIA SN4600 datasheet: 64 x 200GbE"),
    # Audit fixes
    ("dell-xe9680", "power_max_w", 9600, "StorageReview XE9680: six 3.2 kW PSUs 3+3 -> 3 x 3.2 kW"),
    ("hgx-h100-8", "u_height", 4, "Direct-liquid-cooled HGX H100 servers are 4U (Supermicro, Dell)"),
]

COMPONENTS = [
    ("cx7-400-osfp", "gbps", 400, "NVIDIA ConnectX-7 datasheet: 400 Gb/s"),
    ("cx8-800-osfp", "gbps", 800, "NVIDIA ConnectX-8 SuperNIC datasheet: 800 Gb/s"),
    ("bf3-b3240", "ports", 2, "NVIDIA BlueField-3 B3240: 2 x 400G"),
    ("xcvr-2x400g-osfp-sr8", "power_w", 17, "REFERENCE: twin-port 2 x 400G OSFP 17 W"),
    ("xcvr-2x400g-osfp-sr8", "ports", 2, "NVIDIA LinkX twin-port OSFP: two 400G ports"),
    ("xcvr-1p6t-osfp-2xdr4", "ports", 2, "NVIDIA LinkX 1.6T twin-port OSFP: two 800G ports"),
]

ITEM_1_DEVICES = ["gb200-nvl72", "gb300-nvl72", "gb200-compute-tray", "gb300-compute-tray", "dgx-b300", "hgx-b300-8",
                  "amd-mi300x-8", "amd-mi325x-8", "amd-mi355x-8", "dgx-a100", "sn5600", "q3200", "q3400", "q3400-400",
                  "nvlink-switch-tray", "nvl72-power-shelf", "ufm-appliance", "head-node"]
ITEM_1_COMPONENTS = ["cx7-400-osfp", "cx8-800-osfp", "bf3-b3240", "xcvr-400g-osfp-sr4", "xcvr-2x400g-osfp-sr8",
                     "xcvr-800g-osfp-dr8", "xcvr-1p6t-osfp-2xdr4", "dac-400g-1m", "acc-800g-3m", "aoc-400g-10m"]


@pytest.fixture(scope="module")
def entries():
    out = subprocess.run([sys.executable, "-m", "planner", "catalog", "--json"], cwd=ROOT, capture_output=True,
                         text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return {e["id"]: e for e in json.loads(out.stdout)}


def field(entry: dict, path: str):
    value = entry
    for part in path.split("."):
        value = value[int(part)] if part.isdigit() else value[part]
    return value


def test_catalog_json_lists_every_2026_entry_with_its_source(entries):
    for device_id in ITEM_1_DEVICES:
        assert entries[device_id]["kind"] == "device" and len(entries[device_id]["source"]) > 40, device_id
        assert entries[device_id]["price_source"], device_id
    for component_id in ITEM_1_COMPONENTS:
        assert entries[component_id]["kind"] == "component" and entries[component_id]["source"], component_id
    assert entries["nvl72-mgx-48u"]["kind"] == "rack_type" and entries["nvl72-mgx-48u"]["power_cap_kw"] == 140
    assert entries["conventional-42u"]["power_cap_kw"] is None  # the plan's default cap: 30 kW
    # every GPU system carries HBM capacity and bandwidth, and its NVLink domain where it has NVLink
    for e in entries.values():
        if e.get("kind") == "device" and e.get("gpu"):
            assert e["gpu"]["memory_gb"] > 0 and e["gpu"]["memory_bandwidth_tbs"] > 0, e["id"]


@pytest.mark.parametrize("entry_id, path, expected, document", DATASHEET + COMPONENTS)
def test_figure_matches_its_datasheet(entries, entry_id, path, expected, document):
    assert field(entries[entry_id], path) == expected, document


def test_estimates_say_so_in_their_source(entries):
    # Figures without a published datasheet value say they are planner assumptions, never passed off as data.
    for device_id in ("q3400", "gb300-nvl72", "amd-mi355x-8", "nvl72-power-shelf"):
        assert "PLANNER ASSUMPTION" in entries[device_id]["source"].upper(), device_id
    assert "19.2 kW" in entries["dell-xe9680"]["source"]  # says why it is not the nameplate sum
    assert entries["sn4600c-200"]["model"].startswith("Spectrum SN4600 ")  # not "SN4600C"


def test_amd_platforms_typical_draw_is_their_gpus_at_tdp_and_one_host(entries):
    # The AMD platforms publish no typical draw: it is the 8 GPUs at their datasheet TDP while
    # training (MI300X 750 W, MI325X 1,000 W, MI355X 1,400 W) and the same 1.5 kW host, so the
    # liquid-cooled MI355X draws 8 x 1.4 + 1.5 = 12.7 kW, not less than its GPUs' 11.2 kW and a host.
    for device_id, tdp_w in (("amd-mi300x-8", 750), ("amd-mi325x-8", 1000), ("amd-mi355x-8", 1400)):
        e = entries[device_id]
        assert e["gpu"]["tdp_w"] == tdp_w
        assert e["power_typical_w"] == 8 * tdp_w + 1500, device_id


def test_amd_platforms_take_c19_cords_for_their_3_kw_supplies(entries):
    # The MI300X platform's six 3 kW supplies (3+3) each draw 3,000 / 230 = 13 A, above the
    # 10 A a C14 inlet carries (IEC 60320): C20 inlets, C19 cords, 6 of them. The MI325X and
    # MI355X platforms, on the same supplies N+N: 12 / 3 = 4 + 4 = 8, 15 / 3 = 5 + 5 = 10.
    for device_id, cords in (("amd-mi300x-8", 6), ("amd-mi325x-8", 8), ("amd-mi355x-8", 10)):
        assert entries[device_id]["power_inlets"] == {"c13": 0, "c19": cords}, device_id

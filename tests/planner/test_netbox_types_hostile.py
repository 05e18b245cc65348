"""Hostile NetBox device-type YAML through ``catalog import``: one line, exit 2, nothing written,
in bounded time and memory (the app's File > Import device types reads through the same code)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from planner.hardware.netbox_types import DeviceTypeImportError, read_device_type

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 2 * 1024 ** 3  # far above an import's needs, far below the 2.9 GB a bomb took


def laughs(target: str) -> str:
    """A billion laughs: nine levels of nine aliases, 9**9 = 387,420,489 copies of 'lol' once
    expanded, in a file of about 520 bytes; ``target`` is the field that holds the top level."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join(f"*{prev}" for _ in range(9)) + "]")
    fields = {"manufacturer": "Example", "model": "Bomb", "u_height": 1, target: "*i"}
    return "\n".join(lines + [f"{k}: {v}" for k, v in fields.items()]) + "\n"


def import_in_a_bounded_process(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    """``catalog import`` in a fresh process limited to 2 GB of address space and 120 s."""
    (tmp_path / "dt.yaml").write_text(text)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cluster_planner", "catalog", "import", "dt.yaml", "-o", "out.json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, preexec_fn=limit)


def assert_refused(proc: subprocess.CompletedProcess, tmp_path: Path, *words: str) -> str:
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(lines) == 1 and len(lines[0]) < 600, proc.stderr[:2000]
    assert "Traceback" not in proc.stderr and "dt.yaml" in lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    assert not (tmp_path / "out.json").exists()
    return lines[0]


@pytest.mark.parametrize("target", ["weight", "manufacturer", "u_height"])
def test_a_billion_laughs_is_refused_in_one_line_without_being_expanded(tmp_path, target):
    text = laughs(target)
    assert len(text.encode()) < 600
    line = assert_refused(import_in_a_bounded_process(tmp_path, text), tmp_path, "alias")
    assert "lol" not in line


def test_yaml_nested_100000_deep_is_refused_as_too_deep(tmp_path):
    text = "manufacturer: Example\nmodel: Deep\nu_height: 1\nweight: " + "[" * 100_000 + "]" * 100_000 + "\n"
    assert_refused(import_in_a_bounded_process(tmp_path, text), tmp_path, "nested more than", "line 4")


def test_a_value_that_contains_itself_is_refused(tmp_path):
    text = "manufacturer: Example\nmodel: Loop\nu_height: 1\nweight: &w [*w]\n"
    assert_refused(import_in_a_bounded_process(tmp_path, text), tmp_path, "contains itself")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dt.yaml"
    path.write_text(text)
    return path


def refusal(tmp_path: Path, text: str) -> str:
    with pytest.raises(DeviceTypeImportError) as info:
        read_device_type(write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message and len(message) < 300 and message.startswith("dt.yaml: "), message
    return message


def test_a_400_digit_u_height_is_a_number_too_large_not_an_overflow(tmp_path):
    message = refusal(tmp_path, "manufacturer: Example\nmodel: Tall\nu_height: " + "9" * 400 + "\n")
    assert "u_height" in message and "400 digits" in message and "9" * 30 not in message


def test_a_400_digit_power_draw_is_refused_the_same_way(tmp_path):
    message = refusal(tmp_path, "manufacturer: Example\nmodel: Hot\nu_height: 1\npower-ports:\n"
                                "  - name: PSU1\n    maximum_draw: " + "9" * 400 + "\n")
    assert "maximum_draw" in message and "400 digits" in message


def test_35000_interfaces_give_one_readable_line_without_a_pydantic_url(tmp_path):
    # 35,000 400G ports (one interface and 34,999 aliases of it, 175 kB), named as switch ports
    # are: a switch of the catalog has at most 1,024 ports (SwitchBlock.ports)
    text = ("manufacturer: Example\nmodel: Huge\nu_height: 1\ninterfaces:\n"
            "  - &p {name: swp1, type: 400gbase-x-osfp}\n" + "  - *p\n" * 34_999)
    message = refusal(tmp_path, text)
    assert "http" not in message and "pydantic" not in message
    assert "35,000" in message and "1024" in message.replace(",", "")


@pytest.mark.parametrize("field, value", [
    ("manufacturer", "[a, b]"), ("model", "{a: 1}"), ("slug", "[x]"), ("manufacturer", "true"),
])
def test_a_list_where_text_belongs_is_refused_not_stored_as_its_repr(tmp_path, field, value):
    fields = {"manufacturer": "Example", "model": "Odd", "u_height": 1, field: value}
    message = refusal(tmp_path, "".join(f"{k}: {v}\n" for k, v in fields.items()))
    assert field in message and "text" in message and "['a', 'b']" not in message


def test_a_numeric_model_name_is_kept_as_its_text(tmp_path):
    # NetBox model names such as 7050 read as a YAML integer: the name is still "7050"
    d = read_device_type(write(tmp_path, "manufacturer: Example\nmodel: 7050\nu_height: 1\n"))
    assert (d.vendor, d.model) == ("Example", "7050")


def test_two_power_supplies_rated_zero_import_as_a_gap_not_a_division_by_zero(tmp_path):
    # two 0 W supplies alike: no N+N rule to apply (a supply of 0 W carries nothing); the
    # nameplate is their sum, 0 W, as with one
    text = ("manufacturer: Example\nmodel: Dark\nu_height: 2\npower-ports:\n"
            "  - {name: PSU1, maximum_draw: 0, allocated_draw: 0}\n"
            "  - {name: PSU2, maximum_draw: 0, allocated_draw: 0}\n")
    (tmp_path / "dark.yaml").write_text(text)
    assert read_device_type(tmp_path / "dark.yaml").power_max_w == 0


def test_a_gpu_count_past_what_a_system_holds_is_refused_by_the_option():
    from planner.hardware.catalog import default_catalog
    from planner.hardware.netbox_types import parse_gpu_option

    with pytest.raises(ValueError, match=r"--gpu: 'H100 SXM 80GB:100000': Input should be less than or equal to 1024"):
        parse_gpu_option("H100 SXM 80GB:100000", default_catalog())

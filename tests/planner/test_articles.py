"""A system's model in a sentence takes "a" or "an" as it is said: "an HGX H100 node", "a DGX B200"."""

from __future__ import annotations

from planner.cli import main
from planner.text import with_article


def test_a_or_an_by_how_a_model_is_said():
    # an acronym or model number by its first letter's name, a word by its first letter
    said = {"HGX H100 8-GPU node": "an", "MI300X node": "an", "NVIDIA DGX H100": "an", "H100 SXM": "an",
            "SN5600": "an", "DGX B200": "a", "GB200 NVL72 rack": "a", "B300 node": "a",
            "Instinct MI355X platform": "an", "Generic HGX H100": "a", "Quantum-2 QM9700": "a",
            "8 x RTX 4090 node": "an", "18-GPU tray": "an", "11 kW rack": "an", "16 x H100": "a", "1,100 GPUs": "a"}
    assert {noun: with_article(noun).split(" ", 1)[0] for noun in said} == said


def test_new_says_an_hgx(capsys, tmp_path):
    assert main(["new", "--system", "hgx-h100-8", "--gpus", "5", "-o", str(tmp_path / "p.json")]) == 0
    assert "5 GPUs asked for; an HGX H100" in capsys.readouterr().out

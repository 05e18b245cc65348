"""The user guide's pages ship with the program and hold together: the app finds them
through ``planner.paths.help_dir()``, the index lists every page, and every link between
pages lands on a page (and a heading, when it names one)."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from planner.paths import help_dir, resources_dir

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")
EXTERNAL = ("http://", "https://", "mailto:")
# One page per idea a user meets in the app (power basis, feeds, CDUs, floor, fabric,
# parallelism, storage, cost, variants, exports).
CONCEPTS = ("power-basis", "rack-power-and-feeds", "liquid-cooling", "floor-loading", "fabric", "parallelism",
            "storage-and-checkpoints", "cost", "variants-and-sweeps", "exports")


def pages() -> list[Path]:
    return sorted(help_dir().glob("*.md"))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and Qt's Markdown reader name it: lower case, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


def internal_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(page.read_text(encoding="utf-8")) if not t.startswith(EXTERNAL)]


def test_the_help_pages_are_found_beside_the_other_resources():
    folder = help_dir()
    assert folder == resources_dir() / "help"
    assert (folder / "index.md").is_file()
    assert {p.stem for p in pages()} >= {"index", *CONCEPTS}


def test_the_index_lists_every_page():
    listed = {target.split("#")[0] for target in internal_links(help_dir() / "index.md")}
    assert listed == {p.name for p in pages() if p.name != "index.md"}


def test_every_link_between_pages_lands_on_a_page_and_heading():
    broken = []
    for page in pages():
        for target in internal_links(page):
            name, _, anchor = target.partition("#")
            linked = help_dir() / name if name else page
            if not linked.is_file() or (anchor and anchor not in anchors(linked)):
                broken.append(f"{page.name} -> {target}")
    assert broken == []


def test_every_page_has_one_title_and_says_something():
    for page in pages():
        lines = page.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# ") and sum(line.startswith("# ") for line in lines) == 1, page.name
        assert len(" ".join(lines).split()) > 100, page.name


@pytest.mark.slow
def test_the_wheel_ships_the_help_pages(tmp_path):
    """An installed app has its help: the built wheel carries every page as planner.resources."""
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp_path.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"planner/resources/help/{p.name}" for p in pages()} <= names

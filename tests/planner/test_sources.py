"""Every source a user is shown names a document they can look up, or says it is the planner's own.

Sources reach the user in the settings tooltips and the workbook's Assumptions sheet (the
settings' metadata), the palette and inspector (the catalog's ``source``, ``price_source`` and
``notes``), the bill of materials (each line's price source), the fabric efficiency profiles
and the template descriptions. None of them may point at a file of this repository or at
"the guide" without saying which: the planning guide is cited by author and title.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.hardware.catalog import builtin_catalog_files, default_catalog, read_catalog
from planner.network.technologies import PROFILES
from planner.design.templates import build_template, list_templates
from planner.report.evaluate import evaluate
from planner.settings import Settings, field_meta

CITATION = 'N. Dixit, "The GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO'

# Words that name a document a reader can find: a kind of publication, a standard, a
# publisher's report series, a paper, a public issue thread.
DOCUMENTS = [re.compile(p) for p in (
    re.escape(CITATION),
    r"(?i)\bplanner assumption",
    r"(?i)\bdata ?sheets?\b", r"(?i)\buser (guide|manual)\b", r"(?i)\breference architectures?\b",
    r"\bDGX SuperPOD\b", r"(?i)\bspecifications\b", r"\bStorageReview\b", r"\bServeTheHome\b",
    r"\bThe Register\b", r"\bMLCommons\b", r"\bNVIDIA Base Command Manager\b", r"\bGTC 20\d\d\b",
    r"\blaunch price\b",
    r"\bIEEE 802\.3\w*", r"\bIEC \d{4,5}\b", r"\bNEC \d{3}\.\d+", r"\bTIA-\d{3}\b", r"\bEIA-310\b",
    r"\bASHRAE\b", r"\bUptime Institute\b", r"\bCBRE\b", r"\bU\.S\. EIA\b", r"\bIRS Publication \d+\b",
    r"\bCortex Construct\b", r"\bWood Mackenzie\b",
    r"\bet al\.", r"(?i)\btechnical report\b", r"(?i)\bmodel cards?\b", r"\bSIGCOMM \d{4}\b", r"\bSC'\d\d\b",
    r"\bNVIDIA/nccl(-tests)?#\d+", r"(?i)\btechnical blog\b",
)]
# A file of this product's repository, or the vetted-data file it was built from.
REPOSITORY = re.compile(r"REFERENCE|README|\b(planner|ui|resources|tests|docs|benchmarks|seeds)/"
                        r"|\b[\w-]+\.(py|md|toml|txt)\b")
# "The guide" without the author and title beside it.
GUIDE_MENTION = re.compile(r"(?i)planning guide|\bthe guide\b|\bthat guide\b|(?<!user )\bguide's")


def unfindable(text: str) -> list[str]:
    """What keeps a reader from finding where text shown to them comes from."""
    problems = []
    if REPOSITORY.search(text):
        problems.append(f"names a repository file: {REPOSITORY.search(text).group()!r}")
    if GUIDE_MENTION.search(text) and CITATION not in text:
        problems.append("cites the planning guide without its author and title")
    return problems


def not_a_source(text: str) -> list[str]:
    """As ``unfindable``, and a source must name a document or say it is the planner's assumption."""
    if not text.strip():
        return ["empty"]
    problems = unfindable(text)
    if not any(p.search(text) for p in DOCUMENTS):
        problems.append("names no document and does not say 'planner assumption'")
    return problems


def settings_sources():
    for section, info in Settings.model_fields.items():
        for name in info.annotation.model_fields:
            yield f"settings {section}.{name}", field_meta(info.annotation, name)["source"]


def catalog_entries():
    for path in builtin_catalog_files():
        parsed = read_catalog(path)
        yield from parsed.devices
        yield from parsed.rack_types
        yield from parsed.components


def test_the_rules_refuse_what_a_reader_cannot_look_up():
    assert not_a_source("") == ["empty"]
    assert not_a_source("REFERENCE: in-rack CDUs 50-250 kW")
    assert not_a_source("EIA, US electricity 2023 (REFERENCE.md)")
    assert not_a_source("0.55 reproduces the README's validation table")
    assert not_a_source("Planning guide: 'Budget $15K per CDU'")
    assert not_a_source("Typical 7 kW is the guide's sustained draw")
    assert not_a_source("Common practice: hourly checkpoints.")
    assert not_a_source("Planning estimate; replace with a quote")
    assert not_a_source("see resources/catalog/builtin.json")
    assert not_a_source(f"{CITATION}: 'Budget $15K per CDU'") == []
    assert not_a_source("NVIDIA DGX H100/H200 User Guide: 10.2 kW max") == []
    assert not_a_source("Planner assumption: hourly checkpoints.") == []
    assert not_a_source("Gangidi et al., SIGCOMM 2024") == []


SETTINGS = list(settings_sources())


@pytest.mark.parametrize("where, text", SETTINGS, ids=[where for where, _ in SETTINGS])
def test_every_setting_names_its_document_or_says_it_is_an_assumption(where, text):
    assert not not_a_source(text), f"{where}: {not_a_source(text)}: {text!r}"


def test_every_catalog_entry_and_price_names_its_document():
    problems = []
    entries = list(catalog_entries())
    assert {type(e).__name__ for e in entries} == {"DeviceType", "RackType", "Component"}
    for e in entries:
        for field in ("source", "price_source"):
            text = getattr(e, field)
            if field == "price_source" and not text and not e.price_usd:
                continue  # no price, nothing to source
            problems += [f"{e.id}.{field}: {p}" for p in not_a_source(text)]
        problems += [f"{e.id}.notes: {p}" for p in unfindable(getattr(e, "notes", "") or "")]
        storage = getattr(e, "rack_storage", None)
        if storage is not None:  # the figure that makes the rack's storage a remedy
            problems += [f"{e.id}.rack_storage.source: {p}" for p in not_a_source(storage.source)]
    assert not problems, "\n".join(problems)


def test_every_fabric_efficiency_profile_names_its_document():
    problems = [f"{profile}.{tech}: {p}" for profile, table in PROFILES.items()
                for tech, (_, text) in table.items() for p in not_a_source(text)]
    assert not problems, "\n".join(problems)


def test_template_descriptions_cite_the_guide_by_author_and_title():
    problems = [f"{t.name}: {p}" for t in list_templates() for p in unfindable(f"{t.title} {t.description}")]
    assert not problems, "\n".join(problems)
    # the guide's three archetypes and its inference cluster are built from it, and say so
    by_name = {t.name: t.description for t in list_templates()}
    for name in ("single-node", "medium", "massive", "inference"):
        assert CITATION in by_name[name], name


@pytest.mark.parametrize("name", ["single-node", "medium", "inference", "gb200-nvl72-su"])
def test_every_bill_of_materials_line_names_where_its_price_comes_from(name):
    catalog = default_catalog()
    bom = evaluate(build_template(name, catalog=catalog), catalog).sections["cost"]["bom"]
    assert bom
    problems = [f"{line['item']}: {p}" for line in bom for p in not_a_source(line["source"])]
    assert not problems, "\n".join(problems)


def test_findings_cite_the_guide_by_author_and_title():
    # The guide's 16-node cluster on 100GbE TCP, half a NIC per GPU, storage on the compute
    # fabric: the guide advises against each, and each finding names it by author and title.
    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog, settings={
        "fabric": {"technology": "eth100_tcp", "storage_fabric": "shared", "nics_per_gpu": 0.5}})
    report = evaluate(plan, catalog)
    findings = [f for f in report.findings if GUIDE_MENTION.search(f.message) or CITATION in f.message]
    assert {"network.nic.shared", "network.ethernet.training", "network.storage.shared"} <= {f.code for f in findings}
    problems = [f"{f.code}: {p}" for f in report.findings for p in unfindable(f.message)]
    assert not problems, "\n".join(problems)


def test_no_file_of_the_product_points_at_the_vetted_data_file():
    # The planner's data were vetted against a file users do not have; the product cites
    # that file's original documents instead, in its docstrings as in what it shows.
    root = Path(__file__).resolve().parents[2]
    files = [p for d in ("planner", "ui", "resources") for p in (root / d).rglob("*")
             if p.suffix in {".py", ".json", ".md", ".txt", ".html"}]
    assert len(files) > 50
    assert [str(p.relative_to(root)) for p in files if "REFERENCE" in p.read_text(encoding="utf-8")] == []

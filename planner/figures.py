"""Typed report sections: frozen models whose fields carry their title, unit and description.

A section's model is the one source of what a figure is called and measured in: the
``check`` text, the workbook, the vendor pack and the app read ``meta()`` of a field
instead of a table keyed by strings, and ``to_json()`` writes the ``check --json``
contract from the same fields (one key per field, in declaration order).

    @dataclass(frozen=True, slots=True)
    class StorageSection(Figures):
        capacity_tb: float = figure(0.0, title="Capacity", unit="TB")

Units are the vocabulary's kinds (``planner.report.units``): "" counts, "kW", "ms", "$", ...,
"name" for identifiers written by their title, "fraction" for 0..1 shown as a percentage,
"yes/no" for a question the report answers (a yes/no figure; other booleans read on/off).
``none`` is what a missing value (None) means ("-" unless said); ``empty`` what a figure of
one entry per option or part with no entry at all means ("-" unless said).
Fields declared with ``detail()`` are kept for the other stages (e.g. the fabric size for
the cost section) and are not figures: not in the JSON, not listed.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class FigureMeta:
    name: str
    title: str
    unit: str = ""
    description: str = ""
    none: str = "-"
    empty: str = "-"


def figure(default: Any = MISSING, *, title: str, unit: str = "", description: str = "", none: str = "-",
           empty: str = "-", factory: Any = MISSING) -> Any:
    """A report field with its title, unit and description (for labels, tooltips and the JSON)."""
    meta = {"figure": True, "title": title, "unit": unit, "description": description, "none": none,
            "empty": empty}
    if factory is not MISSING:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def detail(default: Any = None) -> Any:
    """A field other stages read that is not a figure of the report (not in the JSON)."""
    return field(default=default, metadata={"figure": False}, compare=False, repr=False)


_META: dict[type, dict[str, FigureMeta]] = {}


def figure_fields(cls: type) -> dict[str, FigureMeta]:
    """The figures of a section model, by field name, in declaration order (cached per class)."""
    out = _META.get(cls)
    if out is None:
        out = {}
        for f in fields(cls):
            m = f.metadata
            if m.get("figure", True) is False:
                continue
            out[f.name] = FigureMeta(f.name, m.get("title") or f.name.replace("_", " ").capitalize(),
                                     m.get("unit", ""), m.get("description", ""), m.get("none", "-"),
                                     m.get("empty", "-"))
        _META[cls] = out
    return out


def json_value(value: Any) -> Any:
    """A figure's value as JSON: sections and records by their ``to_json``, sequences as lists."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Figures:
    """Base of every typed report section and table row."""

    @classmethod
    def meta(cls, name: str) -> FigureMeta:
        """Title, unit, description of one figure (KeyError for a name that is not one)."""
        return figure_fields(cls)[name]

    @classmethod
    def figure_names(cls) -> list[str]:
        return list(figure_fields(cls))

    def figures(self):
        """(meta, value) of every figure, in declaration order."""
        for name, meta in figure_fields(type(self)).items():
            yield meta, getattr(self, name)

    def to_json(self) -> dict[str, Any]:
        return {name: json_value(getattr(self, name)) for name in figure_fields(type(self))}

    def __getitem__(self, key: str) -> Any:
        """The JSON view of one figure (what a script reading ``check --json`` sees)."""
        return json_value(getattr(self, key)) if key in figure_fields(type(self)) else self._missing(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in figure_fields(type(self)) else default

    def __contains__(self, key: str) -> bool:
        return key in figure_fields(type(self))

    def _missing(self, key: str) -> Any:
        raise KeyError(key)

"""Numbers as people type and read them, in their locale's notation (Qt-free).

The app's locale supplies only the two separators (``NumberFormat``); the reading rules are
here so they are the same everywhere and testable without Qt:

- the locale's decimal separator is the decimal separator;
- group separators are accepted only where they cannot be a decimal separator: several of them
  in well-formed groups of three ("1,234,567" in English), or before the decimal ("1,234.5"),
  or spaces/apostrophes;
- an entry that could mean two numbers is refused with both readings named: "12,5" in an
  English locale (12.5 or 125?), "1.234" in a German one (1234 or 1,234?);
- a unit typed after the number is converted when it measures what the field measures
  ("1.2 MW" in a kW field is 1200, "80 %" in a fraction field is 0.8) and refused otherwise.

Files, ``--json`` and the workbook never go through this: they store plain numbers.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NumberFormat:
    """The separators of a locale: "." and "," in English, "," and "." in German."""

    decimal: str = "."
    group: str = ","


C_FORMAT = NumberFormat()

# Unit families: the factor of each unit relative to the family's first unit.
_FAMILIES: tuple[dict[str, float], ...] = (
    {"W": 1.0, "kW": 1e3, "MW": 1e6, "GW": 1e9},
    {"Wh": 1.0, "kWh": 1e3, "MWh": 1e6, "GWh": 1e9},
    {"us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0},
    {"MB/s": 1e-3, "GB/s": 1.0, "TB/s": 1e3},
    {"Mb/s": 1e-3, "Gb/s": 1.0, "Tb/s": 1e3, "Gbps": 1.0},
    {"GB": 1.0, "TB": 1e3, "PB": 1e6},
    {"g": 1e-3, "kg": 1.0, "t": 1e3},
)

_SPACES = " \u00a0\u202f"
_NUMBER = re.compile(r"^\s*([+\-\u2212]?)([0-9.,'’" + _SPACES + r"]*[0-9]|[.,][0-9]+)([eE][+\-]?[0-9]+)?\s*(.*?)\s*$")


def is_fraction(unit: str) -> bool:
    """A field given as a fraction (0.8 means 80 %): its unit says so."""
    return unit.strip().lower().startswith("fraction")


def unit_factor(typed: str, field_unit: str) -> float:
    """How many field units one ``typed`` unit is; ValueError when it measures something else.

    "MW" in a kW field is 1000; "%" in a fraction field is 0.01; "%" in a "% of interval" field is 1."""
    field = field_unit.strip()
    if typed == field or (field and typed.lower() == field.lower()):
        return 1.0
    if typed == "%":
        if is_fraction(field):
            return 0.01
        if field.startswith("%"):
            return 1.0
    for family in _FAMILIES:
        if field in family:
            exact = family.get(typed)
            if exact is None:  # "kw" for kW, unless the case tells two units apart (Gb/s, GB/s)
                loose = [u for u in family if u.lower() == typed.lower()]
                exact = family[loose[0]] if len(loose) == 1 else None
            if exact is not None:
                return exact / family[field]
    raise ValueError(typed)


def _groups_ok(digits_with_groups: str, sep: str) -> bool:
    """ "1,234,567" with sep ",": a first group of 1-3 digits, then groups of exactly three."""
    parts = digits_with_groups.split(sep)
    return 1 <= len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:])


def _plain(text: str, fmt: NumberFormat) -> str:
    """A reading of digits and one "." as the user would see it in their locale."""
    return text.replace(".", fmt.decimal)


def parse_decimal(text: str, fmt: NumberFormat = C_FORMAT) -> float:
    """The number in ``text`` (digits and separators only, optional exponent) read in ``fmt``.

    ValueError with a one-line reason; an ambiguous entry names both readings."""
    dec = fmt.decimal
    other = "," if dec == "." else "."  # the separator another locale uses for decimals
    mantissa, exponent = text, ""
    match = re.search(r"[eE][+\-]?[0-9]+$", text)
    if match:
        mantissa, exponent = text[:match.start()], match.group(0)
    not_a_number = ValueError(f"'{text}' is not a number")
    if mantissa.count(dec) > 1:
        raise not_a_number
    whole, has_decimal, frac = mantissa.partition(dec)
    if other in frac:
        raise ValueError(f"'{text}' is not a number (the decimal separator is '{dec}')")
    if not frac.isdigit() and frac:
        raise not_a_number
    soft = [c for c in _SPACES + "'’" if c in whole]  # spaces and apostrophes only ever group digits
    if soft:
        if other in whole or len(soft) > 1 or not _groups_ok(whole, soft[0]):
            raise not_a_number
        whole = whole.replace(soft[0], "")
    elif other in whole:
        if not has_decimal and whole.count(other) == 1:
            left, right = whole.split(other)
            if left and right:
                as_decimal, as_group = f"{left}.{right}", str(int(left + right))
                raise ValueError(f"'{text}': did you mean {_plain(as_decimal, fmt)} or {as_group}?")
            raise ValueError(f"'{text}' is not a number (the decimal separator is '{dec}')")
        if other != fmt.group or not _groups_ok(whole, other):
            raise not_a_number
        whole = whole.replace(other, "")
    if not whole and not frac:
        raise ValueError(f"'{text}' is not a number")
    return float(f"{whole or '0'}.{frac or '0'}{exponent}")


def parse_number(text: str, fmt: NumberFormat = C_FORMAT, unit: str = "") -> float:
    """A number typed into a field measured in ``unit``: locale separators, optional unit after it.

    "12,5" (German) -> 12.5; "1.2 MW" in a kW field -> 1200.0; "80 %" in a fraction field -> 0.8.
    ValueError with a one-line reason (without the field's title) otherwise."""
    if text.strip().lstrip("+-").lower() in ("inf", "infinity", "nan", "∞"):
        raise ValueError(f"'{text.strip()}' is not a finite number")
    if "$" in unit:  # a price typed as it is written: "$0.15" in a $/kWh field
        dollar = re.match(r"^\s*([+\-\u2212]?)\s*\$\s*(.*)$", text)
        if dollar:
            text = dollar.group(1) + dollar.group(2)
    match = _NUMBER.match(text)
    if not match:
        raise ValueError(f"'{text.strip()}' is not a number")
    sign, digits, exponent, typed_unit = match.groups()
    value = parse_decimal(digits + (exponent or ""), fmt)
    if sign in ("-", "\u2212"):
        value = -value
    if typed_unit:
        try:
            value *= unit_factor(typed_unit, unit)
        except ValueError:
            wanted = unit if unit and unit != ":1" else "a plain number"
            raise ValueError(f"'{text.strip()}': this field takes {wanted}, not {typed_unit}") from None
        value = float(f"{value:.12g}")  # 1.2 x 1000 is 1200, not 1199.9999999999998
    if not math.isfinite(value):
        raise ValueError(f"'{text.strip()}' is not a finite number")
    return value


def format_number(value: float | int, fmt: NumberFormat = C_FORMAT) -> str:
    """A number for an entry field: no grouping (so it reads back unambiguously), the locale's decimal."""
    if isinstance(value, float):
        text = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    else:
        text = str(value)
    return text.replace(".", fmt.decimal)


def localize(text: str, fmt: NumberFormat) -> str:
    """A number written in C notation ("1,234.5", from ``format(x, ",.1f")``) in ``fmt``'s ("1.234,5")."""
    if fmt == C_FORMAT:
        return text
    return text.translate({ord(","): fmt.group, ord("."): fmt.decimal})


def counted(n: int, noun: str) -> str:
    """A count and its noun as people read them: thousands grouped, the noun plural but for
    one ("1 GPU", "2,048 GPUs", "1 fix", "3 fixes")."""
    if n == 1:
        return f"1 {noun}"
    return f"{n:,} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"

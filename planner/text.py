"""User text made safe for where it goes: one function for every output.

``clean_text(text, "terminal")`` escapes control characters (ESC, carriage return,
backspace, C1 controls, bidirectional overrides, ...) so a name cannot retitle a terminal,
clear the screen or overwrite a line; line breaks and tabs stay. ``"line"`` escapes line
breaks and tabs too (one-line error messages). ``"xml"`` drops the characters XML 1.0
cannot hold (SVG and PDF text, workbook cells).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

# C0 controls but tab and newline, DEL, C1 controls, and format characters that reorder or
# hide text (bidirectional overrides and isolates, zero-width marks, line/paragraph separators).
_HIDDEN = "\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
_TERMINAL_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_HIDDEN}\ud800-\udfff]")
_LINE_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_HIDDEN}\ud800-\udfff]")
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match) -> str:
    return match.group().encode("unicode_escape", "backslashreplace").decode("ascii")


def clean_text(text: object, target: Literal["terminal", "line", "xml"]) -> str:
    """``text`` made safe for ``target`` (see the module's docstring)."""
    s = "" if text is None else str(text)
    if target == "xml":
        return _XML_INVALID.sub("", s)
    return (_TERMINAL_UNSAFE if target == "terminal" else _LINE_UNSAFE).sub(_escape, s)


# What no name (of a plan, rack, row, building, hall, device or variant) may hold: C0 controls
# (NUL, tab, line breaks ...), DEL, C1 controls, and the bidirectional embeddings and overrides
# (U+202A-U+202E) and isolates (U+2066-U+2069), which show a name in another order than it is
# stored (Boucher and Anderson, "Trojan Source", CVE-2021-42574) and would pass unseen into
# the NetBox files, the cable schedule and every other export.
_NAME_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name, in words a user reads, or None."""
    m = _NAME_UNSAFE.search(text)
    if m is None:
        return None
    ch = m.group()
    what = unicodedata.name(ch, "a control character").lower()
    return (f"it holds U+{ord(ch):04X} ({what}) at character {m.start() + 1}: a name may not hold control "
            "characters or text-direction overrides")


def escaped_name(text: str) -> str:
    """``text`` with every character ``name_problem`` refuses written as its escape (\\u202e, \\x00)."""
    return _NAME_UNSAFE.sub(_escape, text)


# First characters a spreadsheet may take as the start of a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_inert(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet evaluates: a leading apostrophe before a formula
    start (OWASP "CSV injection"), which Excel and LibreOffice show as typed text."""
    return f"'{text}" if text[:1] in FORMULA_STARTS else text


_LETTER_VOWEL_SOUND = set("AEFHILMNORSX")  # letters whose names start with a vowel: "an HGX", "an MI300X"


def with_article(noun: str) -> str:
    """"a"/"an" and the noun, by how it is said: an acronym or a model number by its first
    letter's name ("an HGX H100 node", "an MI300X", "a DGX B200"), a word by its first letter
    ("an Instinct platform", "a GB200 NVL72 rack")."""
    word = noun.split(" ", 1)[0]
    if word[:1].isdigit():  # a number by how it is said: "an 8 x RTX 4090 node", "an 11", "a 16"
        digits = re.match(r"[\d,]*", word).group().replace(",", "")
        eight = digits.startswith("8") or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))
        return f"{'an' if eight else 'a'} {noun}"
    acronym = sum(c.isupper() for c in word[:3]) >= 2 or (len(word) > 1 and word[0].isalpha() and word[1].isdigit())
    first = word[:1]
    vowel = first.upper() in _LETTER_VOWEL_SOUND if acronym else first.lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {noun}"


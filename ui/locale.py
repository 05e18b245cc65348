"""The app's number locale: chosen in Preferences (QSettings ``locale/name``), default the system's.

Only the separators come from ``QLocale``; reading and writing numbers is ``planner.numbers``.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, QSettings

from planner.numbers import NumberFormat

LOCALE_KEY = "locale/name"

# Offered in Preferences besides the system's locale: one per common notation.
CHOICES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "de_CH", "sv_SE", "pl_PL", "ja_JP",
           "zh_CN")


def number_format(locale: QLocale | None = None) -> NumberFormat:
    """The decimal and group separators of ``locale`` (default: the app's, ``QLocale()``)."""
    loc = locale if locale is not None else QLocale()
    return NumberFormat(decimal=loc.decimalPoint(), group=loc.groupSeparator())


def chosen_locale_name(settings: QSettings | None = None) -> str:
    """The locale chosen in Preferences, "" for the system's."""
    value = (settings or QSettings()).value(LOCALE_KEY, "")
    return value if isinstance(value, str) and (value == "" or value in CHOICES) else ""


def apply_locale(settings: QSettings | None = None) -> QLocale:
    """Make the chosen locale the app's default (number entry and display follow it)."""
    name = chosen_locale_name(settings)
    locale = QLocale(name) if name else QLocale.system()
    QLocale.setDefault(locale)
    return locale


def describe(name: str) -> str:
    """ "German (Germany) — 1.234,5" for the Preferences list."""
    loc = QLocale(name) if name else QLocale.system()
    sample = f"1{loc.groupSeparator()}234{loc.decimalPoint()}5"
    title = f"{QLocale.languageToString(loc.language())} ({QLocale.territoryToString(loc.territory())})"
    return f"System: {title} — {sample}" if not name else f"{title} — {sample}"

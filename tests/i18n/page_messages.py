"""A page message of web/locales/*.json with its values filled, as web/i18n.js's t(key, values)
renders it: what a Python error that carries a key says on the page."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

LOCALES = Path(__file__).resolve().parents[2] / "web" / "locales"
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


@functools.cache
def catalog(lang: str = "en") -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def plural(n: int, lang: str) -> str:
    """The plural form i18next picks for a whole number `n` (Intl.PluralRules)."""
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    return "one" if n == 1 else "other"


def render(key: str, values: dict, lang: str = "en") -> str:
    """t(key, values) in `lang`; a KeyError for a missing key or value. A value that is
    {"key": ..., "values": ...} is a message of its own, rendered first (web/i18n.js's say)."""
    messages = catalog(lang)
    text = messages[key] if key in messages else messages[f"{key}_{plural(values['count'], lang)}"]

    def fill(match):
        value = values[match.group(1)]
        if isinstance(value, dict):
            return render(value["key"], value.get("values", {}), lang)
        return str(value)

    return PLACEHOLDER.sub(fill, text)

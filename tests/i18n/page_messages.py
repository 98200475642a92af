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


def render(key: str, values: dict, lang: str = "en") -> str:
    """t(key, values) in `lang`; a KeyError for a missing key or value. A value that is
    {"key": ..., "values": ...} is a message of its own, rendered first (web/i18n.js's say)."""
    text = catalog(lang)[key]

    def fill(match):
        value = values[match.group(1)]
        if isinstance(value, dict):
            return render(value["key"], value.get("values", {}), lang)
        return str(value)

    return PLACEHOLDER.sub(fill, text)

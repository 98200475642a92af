"""The page's words that the engine says itself, in Russian and Estonian.

A lesson page says the engine's errors in its language (engine.errors); what the engine
writes itself (engine.mine's "My engine" line, engine.gradcheck's report table) it writes
from a copy of the page's messages (engine/data/words.json, copied from web/locales by
`python -m tools.engine_words`), for a caller that names its language. English is the
engine's own code, so only the other languages are copied.
"""

import functools
import json
import re
from pathlib import Path

from .errors import said

__all__ = ["in_language", "say"]


@functools.cache
def in_language(lang):
    """The page's messages in `lang` ("ru", "et") that the engine says, or None for English."""
    if lang == "en":
        return None
    table = json.loads((Path(__file__).with_name("data") / "words.json").read_text("utf-8"))
    if lang not in table:
        raise said(
            ValueError,
            "words.lang",
            f"lang is one of 'en', {', '.join(map(repr, table))}, not {lang!r}",
            langs=", ".join(map(repr, table)),
            lang=repr(lang),
        )
    return table[lang]


def say(message, words):
    """A page message {"key", "values"} in `words`; a value that is itself a message is said
    first (i18next's {{name}} slots, as web/i18n.js's say: a slot with no value stays as it
    is)."""
    values = {
        name: say(value, words) if isinstance(value, dict) and "key" in value else value
        for name, value in (message.get("values") or {}).items()
    }
    text = words.get(message["key"], message["key"])
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: str(values.get(m[1], m[0])), text)

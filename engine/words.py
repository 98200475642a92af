"""The page's words that the engine says itself, in Russian and Estonian.

A lesson page says the engine's errors in its language (engine.errors); what the engine
writes itself (engine.mine's "My engine" line, engine.gradcheck's report table) it writes
from a copy of the page's messages (engine/data/words.json, copied from web/locales by
`python -m tools.engine_words`), for a caller that names its language, or else in the
language `set_language` chose (a Russian or Estonian page's worker, or notebook, sets it
once; English by default, as in the terminal). English is the engine's own code, so only
the other languages are copied.
"""

import functools
import json
import re
from pathlib import Path

from .errors import said

__all__ = ["in_language", "language", "say", "set_language"]

_language = "en"


def in_language(lang):
    """The page's messages in `lang` ("ru", "et") that the engine says, or None for English."""
    if lang == "en":
        return None
    table = _words()
    if not isinstance(lang, str) or lang not in table:  # a list is refused too, not a TypeError
        raise said(
            ValueError,
            "words.lang",
            f"lang is one of 'en', {', '.join(map(repr, table))}, not {lang!r}",
            langs=", ".join(map(repr, table)),
            lang=repr(lang),
        )
    return table[lang]


@functools.cache
def _words():
    return json.loads((Path(__file__).with_name("data") / "words.json").read_text("utf-8"))


def set_language(lang):
    """Write what the engine writes itself (str() of a gradcheck report) in `lang` from now
    on; a language the engine has no words for is refused, and the language stays as it was."""
    global _language
    in_language(lang)
    _language = lang


def language():
    """The language the engine writes in when its caller names none ("en" unless set)."""
    return _language


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

"""Errors that carry their page message: the course's lesson pages say an engine error in the
page's language (web/locales/*.json, keys "engine.error.*"); everywhere else, the terminal or
an English notebook, the error says its English text, as any Python error does.

    raise said(ValueError, "optim.lr", f"the learning rate must be positive, got {lr!r}",
               lr=repr(lr))

is `raise ValueError("the learning rate must be positive, got ...")` whose exception also
names the page message "engine.error.optim.lr" with the values that fill it.

`message_in(error, lang)` is the page's text of it in Russian or Estonian, for a notebook.
"""

import functools
import json
import re
from pathlib import Path

__all__ = ["said", "message_in"]


def said(kind, key, message, **values):
    """An exception of type `kind` with `message` as its text, naming the page message
    "engine.error.<key>" (`.key`) and its values (`.values`, each as the f-string writes it:
    str(value), so the page writes 2.0 as Python does). The English message and the page's
    English one are the same text (tests/engine/test_errors.py). A value that is itself an
    error naming its page message (a cause quoted in the text) stays that message, so the page
    says the cause in its language too."""
    exc = kind(message)
    exc.key = f"engine.error.{key}"
    exc.values = {name: _page_value(value) for name, value in values.items()}
    return exc


def _page_value(value):
    if isinstance(value, BaseException) and isinstance(getattr(value, "key", None), str):
        return {"key": value.key, "values": value.values}
    return str(value)


def message_in(error, lang="en"):
    """`error`'s message in `lang` ("en", "ru", "et") as the page says it (web/i18n.js's say,
    from the copy of the page's messages in engine/data/words.json): its own text when it names
    no page message, or in English."""
    words = _words(lang)
    if words is None or getattr(error, "key", None) not in words:
        return str(error)
    return _say({"key": error.key, "values": error.values}, words)


@functools.cache
def _words(lang):
    """The page's messages in `lang` that the engine says (engine/data/words.json, copied from
    web/locales by tools/engine_words.py), or None for English."""
    if lang == "en":
        return None
    table = json.loads((Path(__file__).with_name("data") / "words.json").read_text("utf-8"))
    if lang not in table:
        raise ValueError(f"lang is one of 'en', {', '.join(map(repr, table))}, not {lang!r}")
    return table[lang]


def _say(message, words):
    """A page message {"key", "values"} in `words`; a value that is itself a message is said
    first (i18next's {{name}} slots, as web/i18n.js's say)."""
    values = {
        name: _say(value, words) if isinstance(value, dict) and "key" in value else value
        for name, value in (message.get("values") or {}).items()
    }
    text = words.get(message["key"], message["key"])
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: str(values.get(m[1], "")), text)

"""Errors that carry their page message: the course's lesson pages say an engine error in the
page's language (web/locales/*.json, keys "engine.error.*"); everywhere else, a notebook or the
terminal, the error says its English text, as any Python error does.

    raise said(ValueError, "optim.lr", f"the learning rate must be positive, got {lr!r}",
               lr=repr(lr))

is `raise ValueError("the learning rate must be positive, got ...")` whose exception also
names the page message "engine.error.optim.lr" with the values that fill it.
"""

__all__ = ["said"]


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

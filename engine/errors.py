"""Errors that carry their page message: the course's lesson pages say an engine error in the
page's language (web/locales/*.json, keys "engine.error.*"); everywhere else, the terminal or
an English notebook, the error says its English text, as any Python error does.

    raise said(ValueError, "optim.lr", f"the learning rate must be positive, got {lr!r}",
               lr=repr(lr))

is `raise ValueError("the learning rate must be positive, got ...")` whose exception also
names the page message "engine.error.optim.lr" with the values that fill it.

A Russian or Estonian notebook says them in its language too: its setup cell calls
`show_errors_in(lang, get_ipython())`, and `message_in(error, lang)` is the page's text.
"""

import copy

__all__ = ["said", "message_in", "show_errors_in"]


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
    from .words import in_language, say  # engine.words raises through `said`: imported here

    words = in_language(lang)
    if words is None or getattr(error, "key", None) not in words:
        return str(error)
    return say({"key": error.key, "values": error.values}, words)


# The types `said` gives an error (Python's own, and their subclasses): what a notebook's
# handler catches. Never SyntaxError: IPython shows a cell's syntax error its own way.
KINDS = (
    ValueError,
    TypeError,
    ArithmeticError,
    LookupError,
    AttributeError,
    OSError,
    AssertionError,
)


def show_errors_in(lang, shell):
    """Make IPython `shell` (a notebook's get_ipython()) end the traceback of an error that
    names its page message with that message in `lang`, as the lesson page does
    (web/errortext.js): Python's traceback and the exception's type name stay. Every other
    error shows as IPython shows it."""
    message_in(
        ValueError(), lang
    )  # a language with no words is refused now, not at the first error

    def show(shell, etype, value, tb, tb_offset=None):
        # What IPython does with an error of a cell's code (InteractiveShell.run_code).
        shown = _in_language(value, lang)
        shell.showtraceback((etype, shown, tb), tb_offset=tb_offset, running_compiled_code=True)

    shell.set_custom_exc(KINDS, show)


def _in_language(error, lang):
    """A copy of `error` whose text is its message in `lang`, or `error` itself when that is
    its own text."""
    text = message_in(error, lang)
    if text == str(error):
        return error
    shown = copy.copy(error)  # the same type and attributes (key, values, __notes__)
    shown.args = (text,)
    shown.__cause__, shown.__context__ = error.__cause__, error.__context__
    shown.__suppress_context__ = error.__suppress_context__
    return shown.with_traceback(error.__traceback__)

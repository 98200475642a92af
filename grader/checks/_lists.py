"""Judging answers that are lists of whole numbers or strings (days 16, 17, 21).

The child side flattens a list into numbers: `flatten_ints("ids", [26, 4])` gives
{"len(ids)": 2, "ids[0]": 26, "ids[1]": 4}; a string is sent as its character codes.
The trusted side rebuilds the list and compares it whole, so the message can show the
whole expected and received answer and name a likely bug by the list it produces.
"""

import math

from ._kit import MAX_TEXT


def flatten_ints(name, items):
    """{len(name): n, name[i]: item} for a list of ints (bools and floats are refused)."""
    items = list(items)
    out = {f"len({name})": len(items)}
    for i, item in enumerate(items):
        if type(item) is not int:
            raise TypeError(
                f"{name}[{i}] is {item!r} of type {type(item).__name__}: return whole numbers (int)"
            )
        out[f"{name}[{i}]"] = item
    return out


def flatten_text(name, text):
    """A string (or a list of one-character strings) as its character codes."""
    if isinstance(text, (list, tuple)) and all(isinstance(c, str) and len(c) == 1 for c in text):
        text = "".join(text)
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string, got {type(text).__name__}")
    return flatten_ints(name, [ord(c) for c in text])


def rebuild(name, values):
    """The list sent by `flatten_ints`, or None if it did not come back whole."""
    n = values.get(f"len({name})")
    if n is None or n != int(n) or n < 0:
        return None
    items = [values.get(f"{name}[{i}]") for i in range(int(n))]
    if any(x is None or not math.isfinite(x) or x != int(x) for x in items):
        return None
    return [int(x) for x in items]


def _show(items, text):
    shown = repr("".join(map(chr, items))) if text else repr(items)
    return shown if len(shown) <= MAX_TEXT else shown[: MAX_TEXT - 3] + "..."


def judge_list(name, expected, values, setup="", bugs=(), hint="", text=False):
    """(passed, message): is the list `name` exactly `expected`?

    `bugs` is a list of (the list a likely bug gives, advice). With `text=True` the
    lists are character codes and the message shows strings.
    """
    got = rebuild(name, values)
    where = f" ({setup})" if setup else ""
    if got is None:
        return False, f"{name}: no complete answer came back{where}. {hint}".strip()
    if got == list(expected):
        return True, "passed"
    message = f"{name} is {_show(got, text)}, expected {_show(expected, text)}{where}"
    for bug, advice in bugs:
        if got == list(bug):
            return False, f"{message}: {advice}"
    return False, f"{message}. {hint}".strip() if hint else message + "."

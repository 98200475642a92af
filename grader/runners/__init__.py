"""The child side of every check: call the learner's code on a case, read back numbers.

This package is all of the grader that learner code can reach: it is staged into every
sandboxed child (as the top-level package `runners`) and shipped in the site's public
wheel. It holds no expected value, no formula and no reference, so nothing here lets
learner code compute an answer without doing the exercise. One module per exercise,
named like the exercise file, with one function:

    run(module, case) -> {key: number}   # calls learner code, returns plain numbers

Stdlib only (and `engine` for the exercises that use it): it runs in CPython, in the
child, and in Pyodide.
"""

import importlib
import traceback

__all__ = ["MAX_TEXT", "runner_module", "execute", "describe_error"]

MAX_TEXT = 300  # characters kept of any learner-controlled text (error messages)


def runner_module(exercise_id):
    """The runner of `exercise_id` ("day05_add_mul.py")."""
    return importlib.import_module(f"{__name__}.{exercise_id[:-3]}")


def execute(runner, module, case, filename):
    """Run `case` with `runner` against the learner's `module`.

    Returns `{"values": {key: float}, "invalid": {key: reason}}` or `{"error": {...}}`.
    Only exact floats (or ints, widened) go into "values": a bool, a float subclass or
    any other object is reported by type name, never passed on.
    """
    try:
        raw = runner.run(module, case)
    except (Exception, SystemExit) as exc:
        return {"error": describe_error(exc, filename)}
    values, invalid = {}, {}
    for key, value in raw.items():
        if type(value) is float:
            values[key] = value
        elif type(value) is int:
            try:
                values[key] = float(value)
            except OverflowError:
                invalid[key] = "an int too large for a float"
        else:
            invalid[key] = _type_name(value)
    return {"values": values, "invalid": invalid}


def _type_name(value):
    try:
        name = type(value).__name__
    except Exception:
        name = "?"
    if not isinstance(name, str):
        name = "?"
    if type(value) is bool:
        return f"a bool ({value})"
    if isinstance(value, float):
        return f"a float subclass ({name[:40]})"
    return f"a {name[:40]} object"


def describe_error(exc, filename):
    """What went wrong, for the learner: exception type, message and line in their file."""
    try:
        kind = type(exc).__name__
        text = str(exc)
    except Exception:
        kind, text = "Exception", "(the exception could not be printed)"
    if not isinstance(kind, str) or not isinstance(text, str):
        kind, text = "Exception", "(the exception could not be printed)"
    line = 0
    try:
        for frame in traceback.extract_tb(exc.__traceback__):
            path = frame.filename
            # the learner's file, not the runner of the same name (runners/dayNN_slug.py)
            if (path == filename or path.endswith("/" + filename)) and "/runners/" not in path:
                line = frame.lineno or 0
    except Exception:
        line = 0
    if isinstance(exc, SystemExit):
        kind, text = "SystemExit", "your code called sys.exit() or exit()"
    # Lone surrogates ("\ud800") cannot be encoded: replace them here, in the child.
    kind = kind[:80].encode("utf-8", "replace").decode("utf-8")
    text = text[:MAX_TEXT].encode("utf-8", "replace").decode("utf-8")
    return {"type": kind, "message": text, "line": line}

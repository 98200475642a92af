"""Run a learner's cell the way the course pages promise, under Pyodide or CPython.

The browser worker and the Node cell runner both load this one module, so a cell
behaves the same in the page and in CI:

- each page has its own namespace (a dict), shared by its cells in page order;
- a cell whose last statement is an expression shows that value, like a notebook;
- an object with `_repr_svg_()` (an `engine.plot.Figure`) is shown as a figure;
- an object with `_model_json_()` (an `engine.snapshot.Snapshot`) also goes to the page's
  model explorer, as a "model" message;
- a traceback starts at the learner's own code: frames of this module are cut;
- KeyboardInterrupt (Stop, or the time limit) is reported as a stop, not an error.

The host names the page's language once (`set_language`): the engine writes what it writes
itself (a gradcheck report's table) in it.

The host gives one callback, `emit(kind, text, key)`, with kind "figure" (SVG text),
"model" (JSON text of a training snapshot) or "stdout" (text shown as output). Results
are JSON text, so no proxy crosses over.
"""

import ast
import builtins
import importlib.util
import json
import linecache
import math
import sys
import traceback

__all__ = ["call", "check_exercise", "reset", "run", "set_emitter", "set_language"]

_namespaces = {}
_learner_files = set()
_emit = None
_language = "en"


def set_emitter(emit):
    """Register the host's `emit(kind, text)` callback."""
    global _emit
    _emit = emit
    _hook_plot()


def set_language(lang):
    """The page's language ("en", "ru", "et"), for what the engine writes itself."""
    global _language
    _language = lang


def _tell_engine_language():
    # Before each cell, as the plot hook: a page's engine is loaded with its first cell that
    # imports it. A language the engine has no words for leaves it writing English.
    if _language == "en" and "engine.words" not in sys.modules:
        return  # English is the engine's default: nothing to tell
    if importlib.util.find_spec("engine") is None:
        return
    try:
        importlib.import_module("engine.words").set_language(_language)
    except (ImportError, AttributeError, ValueError):
        pass  # an engine with no words (an older one, or another package named engine)


def _hook_plot():
    # Route `Figure.show()` to the page before the cell runs: a cell that imports
    # engine.plot and shows figures in a loop must draw them on its very first run.
    if _emit is None:
        return
    plot = sys.modules.get("engine.plot")
    if plot is None and importlib.util.find_spec("engine") is not None:
        plot = importlib.import_module("engine.plot")
    if plot is not None:
        plot.display_hook = display


def namespace(key):
    """The namespace of page `key`, made on first use."""
    ns = _namespaces.get(key)
    if ns is None:
        ns = {"__name__": "__main__", "__builtins__": builtins}
        _namespaces[key] = ns
    return ns


def reset(key):
    """Forget the namespace of page `key` (a fresh start for its cells)."""
    _namespaces.pop(key, None)


def display(value, key=None):
    """Show `value`: a figure when it can draw itself as SVG, else its repr.

    A figure with a `key` replaces the one shown with that key earlier in the run. A value
    with `_model_json_()` is also sent, as JSON text, to the page's model explorer.
    """
    svg = getattr(value, "_repr_svg_", None)
    if callable(svg) and _emit is not None:
        _emit("figure", svg(), key)
    else:
        print(repr(value))
    model = getattr(value, "_model_json_", None)
    if callable(model) and _emit is not None:
        _emit("model", json.dumps(_plain(model()), allow_nan=False), key)


def _remember_source(filename, code):
    # linecache lets tracebacks quote the learner's lines back to them.
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    _learner_files.add(filename)


def format_exception(exc):
    """The traceback of `exc`, starting at the first frame of learner code."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename not in _learner_files:
        tb = tb.tb_next
    exc.__traceback__ = tb
    return "".join(traceback.format_exception(exc))


def _error(exc):
    return {
        "ok": False,
        "interrupted": False,
        "error": {
            "type": type(exc).__name__,
            "message": str(exc),
            "traceback": format_exception(exc),
            **_named_message(exc),  # its page message, when it names one (engine.errors)
        },
    }


def run(code, key, filename):
    """Run `code` in page `key`'s namespace; return a JSON result.

    {"ok": true} or {"ok": false, "interrupted": bool, "error": {type, message, traceback}};
    the error also has "key" and "values" when the exception names its page message.
    """
    # Everything inside the try: Stop's SIGINT may land on any line, the first included.
    try:
        ns = namespace(key)
        _remember_source(filename, code)
        tree = ast.parse(code, filename, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        _hook_plot()
        _tell_engine_language()
        exec(compile(tree, filename, "exec"), ns)
        if last is not None:
            value = eval(compile(last, filename, "eval"), ns)
            if value is not None:
                display(value)
        outcome = {"ok": True}
    except KeyboardInterrupt:
        outcome = {"ok": False, "interrupted": True, "error": None}
    except BaseException as exc:  # SystemExit too: a cell must never end the worker
        outcome = _error(exc)
    # A Stop landing here, after the cell, reaches the worker as a thrown KeyboardInterrupt,
    # which it reports as a stop too.
    sys.stdout.flush()
    sys.stderr.flush()
    return json.dumps(outcome)


def _plain(value):
    # JSON has no NaN or infinity: they travel as null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


_keyed = {}  # the page message the last call's exception named (keyed_error)


def keyed_error():
    """The page message (web/locales) that the exception of the last call named, as JSON
    {"key", "values"}, or null: the page says it in its language (engine.mine's
    MyEngineError carries one)."""
    return json.dumps(_keyed or None, allow_nan=False)


def _named_message(exc):
    try:
        own = vars(exc)
        key, values = own.get("key"), own.get("values")
    except Exception:
        return {}
    if not isinstance(key, str) or not isinstance(values, dict):
        return {}
    return {"key": key, "values": _plain(values)}


def call(target, name, args_json, key=None):
    """Call a Python function and return its result as JSON text.

    The function is `name` (dotted) inside module `target`, or, when `key` is
    given, inside page `key`'s namespace. `args_json` is a JSON list of arguments.
    """
    _keyed.clear()
    try:
        return _call(target, name, args_json, key)
    except Exception as exc:
        _keyed.update(_named_message(exc))
        raise


def _call(target, name, args_json, key):
    if key is not None:
        head, *rest = name.split(".")
        ns = namespace(key)
        if head not in ns:
            raise NameError(
                f"{head!r} is not defined on this page yet: run the cell that defines it"
            )
        obj = ns[head]
    else:
        obj = importlib.import_module(target)
        rest = name.split(".")
    for part in rest:
        obj = getattr(obj, part)
    args = json.loads(args_json)
    if not isinstance(args, list):
        raise TypeError("args must be a JSON list")
    return json.dumps(_plain(obj(*args)), allow_nan=False)


def _file_error(checks, lang="en"):
    """The one message of a file that did not run (a syntax error...), else None.

    The grader repeats it in every check (grader.public.file_error, in `lang`); the page
    says it once, above the list.
    """
    from grader.public import file_error

    messages = {c["message"] for c in checks}
    if len(messages) != 1 or any(c["passed"] for c in checks):
        return None
    (message,) = messages
    return file_error(message, lang)


def prepare_check(exercise_id):
    """Before a check's time starts: load the checks of `exercise_id` (a failure here is
    reported by check_exercise itself, which tries again)."""
    try:
        from grader.public import prepare

        prepare(exercise_id)
    except Exception:
        pass


def check_exercise(exercise_id, source, lang="en"):
    """Run the public checks of `exercise_id` on `source`, their messages in the page's
    language `lang`; return JSON text.

    {"ok": true, "checks": [{name, label, passed, message}, ...], "file_error": str | null}
    (name: the case's id; label: its name in `lang`) or
    {"ok": false, "error": {...}} when the checks themselves could not run, or
    {"ok": false, "interrupted": true} when Stop or the time limit ended them.
    When the file itself did not run, `file_error` says why, once, and the checks
    carry no message of their own.
    """
    try:
        from grader.messages import case_name
        from grader.public import run_public_checks

        checks = run_public_checks(exercise_id, source, lang)  # on the course engine, always
        checks = [
            {
                "name": str(c["name"]),
                "label": str(case_name(c["name"], lang)),
                "passed": bool(c["passed"]),
                "message": str(c.get("message", "")),
            }
            for c in checks
        ]
    except KeyboardInterrupt:
        return json.dumps({"ok": False, "interrupted": True, "error": None})
    except BaseException as exc:
        return json.dumps(_error(exc))
    file_error = _file_error(checks, lang) if checks else None
    if file_error is not None:
        checks = [{**c, "message": ""} for c in checks]
    return json.dumps({"ok": True, "checks": checks, "file_error": file_error})

"""The lesson tests' own long computations, started ahead in a process of their own.

A lesson test recomputes what the page's cells compute (the training runs of days 26 to
38, the tables of days 39 and 40, the questions' checks) with code of its own, and that
code never reads the page's cells: so it can run in another process while this one runs the
pages' cells and the other days' tests. A test module declares each such computation once,
at import:

    replays = ahead(all_replays, 1.0, 0.3)   # a module-level function and its arguments
    ...
    result = replays()                       # in a test or a fixture

tests/lessons/conftest.py starts, at the first lesson test of a session, every declared
computation of the modules that run, one after another in one other process (the second
core); `replays()` waits for the result. Anything not started ahead (outside pytest) is
computed here when first asked for. Either way each
computation runs once per session, and its result is the same: the functions are
deterministic (seeded), and what they return is plain data.
"""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import Future, ProcessPoolExecutor

# (module, qualified name, args) -> the function and its arguments, in declaration order
_DECLARED: dict[tuple, tuple] = {}
# (module, qualified name, args) -> the test modules that declared it
_DECLARERS: dict[tuple, set] = {}
_STARTED: dict[tuple, Future] = {}
_DONE: dict[tuple, object] = {}
_pool: ProcessPoolExecutor | None = None


def ahead(function, *args):
    """Declare `function(*args)` (a module-level function, picklable arguments and result);
    return a function of no arguments that gives its result."""
    key = (function.__module__, function.__qualname__, args)
    _DECLARED[key] = (function, args)
    _DECLARERS.setdefault(key, set()).add(sys._getframe(1).f_globals["__name__"])

    def result():
        if key not in _DONE:
            future = _STARTED.pop(key, None)
            _DONE[key] = future.result() if future is not None else function(*args)
        return _DONE[key]

    return result


def start(modules, keep=None) -> None:
    """Start every computation declared by `modules` (module names) in another process; with
    `keep`, only those whose arguments it accepts (`keep(args)`)."""
    global _pool
    keys = [
        k
        for k in _DECLARED
        if _DECLARERS[k] & modules
        and k not in _STARTED
        and k not in _DONE
        and (keep is None or keep(k[2]))
    ]
    if not keys:
        return
    if _pool is None:
        # spawn: a fresh interpreter, which imports the test module by name (no fork of a
        # process that may hold threads: a browser driver, a served site)
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    for key in keys:
        function, args = _DECLARED[key]
        _STARTED[key] = _pool.submit(function, *args)


def stop() -> None:
    """Drop what was started and not asked for, and end the other process."""
    global _pool
    if _pool is not None:
        for process in list((getattr(_pool, "_processes", None) or {}).values()):
            process.terminate()  # a computation no test asked for (a -k run) is not awaited
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None
    _STARTED.clear()

"""Slow session fixtures whose work is another program's, started before a test asks for it.

Building the site for the course server and installing the notebooks' kernel packages each
wait on a subprocess for one to two minutes. They run while the browser tests do, one job
after another on a thread of its own (one at a time: the machine has two cores, Chromium
uses about one of them, and the lesson tests' own computations, tests/lessons/ahead.py, run
too). tests/conftest.py starts them when the tests are collected, or, in a session that
builds the site, once it is built: the browser tests wait for that build, so it runs beside
nothing but the computations ahead. Only work with no clock of its own
belongs here: every lesson's cells under Pyodide (tests/pyodide) run against the pages' time
limits, which a busy core would make them miss.

    early.start("server_site", build, out, port)   # at collection (or once the site is
                                                   # built, tests/conftest.py), if needed
    ...
    early.result("server_site", build, out, port)  # in the fixture: waits, or runs it now

A job's outcome is the same as if the fixture had run it (its return value, or its
exception: a skip or a failure included), and each runs once per session.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

_pool: ThreadPoolExecutor | None = None
_started: dict[str, Future] = {}
_asked: set[str] = set()  # jobs whose fixture has asked for them: never started again


def start(name: str, function, *args) -> None:
    """Run `function(*args)` in the background, in the order started, as `name`; a job
    whose result was already asked for (the fixture ran it itself) is not started."""
    global _pool
    if name in _asked or name in _started:
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="early")
    _started[name] = _pool.submit(function, *args)


def result(name: str, function, *args):
    """The result of the job `name` once it ends; with none started, `function(*args)` now."""
    _asked.add(name)
    future = _started.pop(name, None)
    if future is None:
        return function(*args)
    return future.result()


def stop() -> None:
    """Drop the jobs not yet begun (a -k run, or a session stopped early) and let the one
    running end on its own: each is a subprocess with its own time limit."""
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)

"""Slow session fixtures whose work is another program's, started when the tests are collected.

Building the site for the course server and installing the notebooks' kernel packages each
wait on a subprocess for one to two minutes. The browser tests run first and mostly wait on
pages, so this work runs meanwhile, one job after another on a thread of its own (one job at
a time: the machine has two cores, and the first site build and the lesson tests' own
computations, tests/lessons/ahead.py, use them too). Only work with no clock of its own
belongs here: every lesson's cells under Pyodide (tests/pyodide) run against the pages' time
limits, which a busy core would make them miss.

    early.start("server_site", build, out, port)   # at collection, only if a test needs it
    ...
    early.result("server_site", build, out, port)  # in the fixture: waits, or runs it now

A job's outcome is the same as if the fixture had run it (its return value, or its
exception: a skip or a failure included), and each runs once per session.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

_pool: ThreadPoolExecutor | None = None
_started: dict[str, Future] = {}


def start(name: str, function, *args) -> None:
    """Run `function(*args)` in the background, in the order started, as `name`."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="early")
    _started[name] = _pool.submit(function, *args)


def result(name: str, function, *args):
    """The result of the job `name` once it ends; with none started, `function(*args)` now."""
    future = _started.pop(name, None)
    if future is None:
        return function(*args)
    return future.result()


def stop() -> None:
    """Drop the jobs not yet begun (a -k run, or a session stopped early) and let the one
    running end on its own: each is a subprocess with its own time limit."""
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)

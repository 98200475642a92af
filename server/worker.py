"""`python -m server worker`: grade submissions until stopped.

With the database queue a worker polls for claimable jobs; with Redis it is a Dramatiq
worker. Either way it grades in the grader's sandbox (never unsandboxed: with no sandbox
it refuses to start), finishes the job in hand on SIGTERM or Ctrl-C, and sweeps stuck
jobs back into the queue now and then.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

from grader.sandbox import detect

from .config import Settings
from .db import Database
from .jobs import grade_submission, next_claimable
from .queue import DatabaseQueue, make_queue

log = logging.getLogger("server.worker")
POLL_SECONDS = 0.5
RETRY_SECONDS = 2.0  # after the database failed


def run_worker(settings: Settings, isolation: str = "auto", once: bool = False) -> int:
    sandbox = detect(isolation)  # raises SandboxError when there is none: never grade without
    db = Database(settings.database_url)
    queue = make_queue(settings)
    stop = threading.Event()

    def on_signal(signum, _frame):
        log.info("worker %d: stopping after the job in hand", os.getpid())
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    log.info("worker %d: %s queue, %s", os.getpid(), queue.name, sandbox.description)

    def grade(submission_id):
        return grade_submission(db, settings, sandbox, submission_id)

    if isinstance(queue, DatabaseQueue):
        while not stop.is_set():
            done_any = False
            try:
                for submission_id in next_claimable(db):
                    if stop.is_set():
                        break
                    if grade(submission_id) in ("graded", "error"):
                        done_any = True
                        break  # look again from the oldest
            except Exception:
                # The database away a moment (a restart, a failover): the worker lives on,
                # and a job it held is taken again when its lease runs out.
                log.exception("worker %d: looking for or grading a job", os.getpid())
                stop.wait(RETRY_SECONDS)
                continue
            if once and not done_any:
                break
            if not done_any:
                stop.wait(POLL_SECONDS)
        db.dispose()
        return 0

    import dramatiq

    queue.declare(grade)
    worker = dramatiq.Worker(queue.broker, worker_threads=1)
    # One job in hand and none held back (the default fetches two per thread): a job goes
    # to whichever worker is free first, not behind a slow one.
    worker.queue_prefetch = 1
    worker.start()
    try:
        while not stop.wait(settings.lease_seconds / 2):
            try:
                queue.sweep(db)
            except Exception:
                log.exception("sweeping stuck jobs")
    finally:
        worker.stop()
        db.dispose()
    return 0


def supervise(
    settings: Settings, count: int, isolation: str, stop: threading.Event, env: dict
) -> None:
    """Keep `count` local worker processes running until `stop` (the embedded default)."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "server", "worker", "--isolation", isolation]
    procs = []
    try:
        while not stop.is_set():
            procs = [p for p in procs if p.poll() is None]
            for _ in range(count - len(procs)):
                procs.append(subprocess.Popen(argv, env=env, preexec_fn=_end_with_parent))
            stop.wait(1.0)
    finally:
        for p in procs:
            p.terminate()
        deadline = time.monotonic() + 60
        for p in procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()


def _end_with_parent() -> None:
    """In a local worker, before it runs: SIGTERM when the server that started it dies,
    however it died (even SIGKILL), so that no worker outlives it. Linux only."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

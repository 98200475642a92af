"""The course server under a class's load, on 127.0.0.1 only: `nox -s server_load`.

200 learners each submit 3 exercises, the 600 submissions spread evenly over one minute,
against two setups started here and stopped after:

  sqlite   `python -m server serve --workers 2`: SQLite, two local workers polling it
  redis    PostgreSQL and Redis (Debian's binaries, in a temporary folder), the server with
           no workers of its own and two `python -m server worker` processes

For each: submissions accepted per second, the time from the server's 202 until the row
is graded (median, p95), how many accepted submissions were lost (no row, or never
graded within the bound: must be 0), and errors (answers other than 202, refused or
failed requests, rows in state error). Grading is kept cheap (days 3 and 5, reference
and starter files) so the numbers are the server's and the queue's, not the grader's.
Everything is bounded: a setup stops waiting for results 6 minutes after its last submit.

    python -m benchmarks.server_load [--learners 200] [--seconds 60] [--setups sqlite,redis]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.server.processes import Course, reference  # noqa: E402
from tests.server.services import Postgres, Redis, postgres_bin  # noqa: E402

WAIT_FOR_RESULTS = 6 * 60.0  # after the last submit
LEASE = 30.0  # the default COURSE_LEASE_SECONDS
EXERCISES = [
    ("day03_value.py", lambda: reference("day03_value.py")),
    ("day05_add_mul.py", lambda: reference("day05_add_mul.py")),
    ("day05_add_mul.py", lambda: (ROOT / "exercises" / "day05_add_mul.py").read_text()),
]


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def load(course: Course, learners: int, seconds: float) -> dict:
    """Submit learners × 3 exercises over `seconds`; wait for every result; the numbers."""
    people = course.learners_by_session(f"Load learner {i}" for i in range(learners))
    codes = [(exercise, make()) for exercise, make in EXERCISES]
    plan = [(who, exercise, code) for who in people for exercise, code in codes]
    gap = seconds / len(plan)
    accepted, errors, lock = {}, [], threading.Lock()
    started = time.monotonic()

    def submit(i):
        who, exercise, code = plan[i]
        delay = started + i * gap - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            answer = who.submit(code, exercise)
        except Exception as exc:  # refused, reset, timed out: an error, counted
            with lock:
                errors.append(f"{type(exc).__name__}: {exc}")
            return
        at = datetime.now(UTC)
        with lock:
            if answer.status_code == 202:
                accepted[answer.json()["submission"]["id"]] = at
            else:
                errors.append(f"{answer.status_code}: {answer.text[:200]}")

    with ThreadPoolExecutor(max_workers=64) as pool:
        list(pool.map(submit, range(len(plan))))
    submitting = time.monotonic() - started
    for who in people:
        who.close()

    deadline = time.monotonic() + WAIT_FOR_RESULTS
    while True:
        rows = {r.id: r for r in course.rows(accepted)}
        done = [r for r in rows.values() if r.state in ("graded", "error")]
        if len(done) == len(accepted) or time.monotonic() > deadline:
            break
        time.sleep(1.0)
    waited = time.monotonic() - started
    latency = [
        max(0.0, (r.graded_at - accepted[r.id]).total_seconds())
        for r in done
        if r.graded_at is not None
    ]
    lost = len(accepted) - len(done)
    return {
        "submitted": len(plan),
        "accepted": len(accepted),
        "accepted_per_s": len(accepted) / submitting,
        "median_s": statistics.median(latency) if latency else float("nan"),
        "p95_s": percentile(latency, 95),
        "lost": lost,
        "missing_rows": len(accepted) - len(rows),
        "errors": len(errors) + sum(r.state == "error" for r in done),
        "graded_twice": sum(r.attempts > 1 for r in done),
        "total_s": waited,
        "error_samples": errors[:3],
    }


def sqlite_setup(folder: Path, learners, seconds):
    course = Course(folder, f"sqlite:///{folder / 'course.db'}", lease_seconds=LEASE)
    try:
        course.serve(workers=2)
        return load(course, learners, seconds)
    finally:
        course.close()


def redis_setup(folder: Path, learners, seconds):
    if postgres_bin() is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql redis-server")
    cluster, broker = Postgres(folder / "postgres"), Redis(folder / "redis")
    cluster.start()
    try:
        redis_url = broker.start()
        course = Course(folder / "course", cluster.new_database("load"), redis_url, LEASE)
        try:
            course.serve(workers=0)
            course.worker(), course.worker()
            return load(course, learners, seconds)
        finally:
            course.close()
    finally:
        broker.stop()
        cluster.stop()


SETUPS = {
    "sqlite": ("SQLite, 2 local workers", sqlite_setup),
    "redis": ("PostgreSQL + Redis, 2 workers", redis_setup),
}


def run(learners=200, seconds=60.0, setups=("sqlite", "redis")) -> dict:
    reports = {}
    for name in setups:
        label, setup = SETUPS[name]
        print(f"{label}: {learners} learners x 3 submissions over {seconds:g} s ...", flush=True)
        with tempfile.TemporaryDirectory(prefix="course-load-") as folder:
            reports[name] = setup(Path(folder), learners, seconds)
    print()
    print(
        f"{'setup':32} {'accepted':>9} {'per s':>6} {'median s':>9} {'p95 s':>7} "
        f"{'lost':>5} {'errors':>6} {'total s':>8}"
    )
    for name, r in reports.items():
        print(
            f"{SETUPS[name][0]:32} {r['accepted']:>4}/{r['submitted']:<4} "
            f"{r['accepted_per_s']:>6.1f} {r['median_s']:>9.1f} {r['p95_s']:>7.1f} "
            f"{r['lost']:>5} {r['errors']:>6} {r['total_s']:>8.0f}"
        )
        for sample in r["error_samples"]:
            print(f"    e.g. {sample}")
    return reports


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.server_load", description=__doc__)
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--setups", default="sqlite,redis", help="sqlite, redis or both")
    args = parser.parse_args(argv)
    setups = [s for s in args.setups.split(",") if s]
    if not all(s in SETUPS for s in setups) or not 1 <= args.learners <= 1000:
        parser.error("setups are sqlite and redis; 1 to 1000 learners")
    reports = run(args.learners, min(args.seconds, 300.0), setups)
    return 1 if any(r["lost"] or r["missing_rows"] for r in reports.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

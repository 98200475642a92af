"""The course server as real processes (`python -m server serve` and `worker`): a worker
killed mid-grading, a restart with jobs queued, code that hangs or eats memory, a web
process killed between storing and queueing, and Redis with two workers. Bounds on time
are generous (a state within 120 s), never assertions on how fast."""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import httpx2
import pytest

from server import jobs

from .processes import EATS_MEMORY, HANGS, SLOW, Course, reference, wait_for

_names = itertools.count()


@pytest.fixture(scope="module", autouse=True)
def _sandbox():
    from grader.sandbox import SandboxError, detect

    try:
        detect("auto")
    except SandboxError as exc:
        pytest.skip(f"no sandbox to grade in here: {exc}")


@pytest.fixture
def course(request, tmp_path):
    """A Course factory: course(database, broker) with "sqlite"/"postgresql" and
    "database"/"redis"; every process it started is stopped after the test."""
    made = []

    def make(database="sqlite", broker="database", **kwargs):
        if database == "sqlite":
            url = f"sqlite:///{tmp_path / 'course.db'}"
        else:
            cluster = request.getfixturevalue("postgres_cluster")
            url = cluster.new_database(f"reliability_{next(_names)}")
        broker_url = request.getfixturevalue("redis_url") if broker == "redis" else "database"
        made.append(Course(tmp_path / f"course{len(made)}", url, broker_url, **kwargs))
        return made[-1]

    yield make
    for c in made:
        c.close()


SETUPS = [("sqlite", "database"), ("postgresql", "database"), ("postgresql", "redis")]


def graded_once(c: Course, sub_id, attempts=1):
    sub = c.row(sub_id)
    assert sub.state == "graded", sub.feedback
    assert sub.attempts == attempts and sub.graded_at is not None
    assert sub.claim is None and sub.lease_until is None
    return sub


@pytest.mark.parametrize("database, broker", SETUPS)
def test_a_worker_killed_while_grading_leaves_its_job_to_another(course, database, broker):
    c = course(database, broker)
    c.serve(workers=0)
    first = c.worker()
    ada = c.learner("Ada")
    sub_id = ada.submitted(SLOW)
    grading = wait_for("the first worker to grade", lambda: c.row(sub_id).state == "grading")
    assert grading
    stale_claim = c.row(sub_id).claim
    first.kill()  # SIGKILL the worker and its sandbox children, mid-grading
    assert c.row(sub_id).state == "grading"
    c.worker()
    (sub,) = c.wait_done([sub_id])
    sub = graded_once(c, sub_id, attempts=2)
    assert sub.score == sub.max_score > 0
    # The dead worker's claim is worth nothing: had it lived, its result would be dropped.
    assert sub.claim != stale_claim
    assert not jobs.finish(c.db, sub_id, stale_claim, {"state": "graded", "score": 0.0})
    assert not jobs.renew(c.db, sub_id, stale_claim, 30)
    assert c.row(sub_id).score == sub.score and c.row(sub_id).graded_at == sub.graded_at
    answer = ada.get(sub_id)
    assert (answer["state"], answer["attempts"], answer["score"]) == ("graded", 2, sub.score)


# At full size in nox -s heavy; a few in nox -s tests.
@pytest.mark.parametrize("count", [6, pytest.param(50, marks=pytest.mark.heavy)])
@pytest.mark.parametrize("database, broker", [SETUPS[0], SETUPS[2]])
def test_a_restart_with_submissions_queued_grades_them_all(course, database, broker, count):
    c = course(database, broker)
    server = c.serve(workers=0)  # workers run elsewhere: none yet
    learners = [c.learner(f"Learner {i}") for i in range(3)]  # 20 submissions a minute each
    ids = [
        learners[i % 3].submitted(reference("day05_add_mul.py"), "day05_add_mul.py")
        for i in range(count)
    ]
    assert server.stop() == 0
    assert {r.state for r in c.rows(ids)} == {"queued"}
    c.serve(workers=2)
    rows = c.wait_done(ids, timeout=180)
    assert len(rows) == count
    for sub in rows:
        graded_once(c, sub.id)
        assert sub.score == sub.max_score > 0


def test_hanging_and_memory_eating_code_gets_its_result_and_the_worker_lives_on(course):
    c = course()
    c.serve(workers=0)
    worker = c.worker()
    ada = c.learner("Ada")
    hangs, eats, good = (ada.submitted(code) for code in (HANGS, EATS_MEMORY, SLOW))
    c.wait_done([hangs, eats, good])
    for sub_id, why in ((hangs, "never finished"), (eats, "MemoryError")):
        sub = graded_once(c, sub_id)
        assert sub.score == 0 and sub.max_score > 0
        assert why in sub.feedback
    assert graded_once(c, good).score == c.row(good).max_score > 0
    assert worker.alive()


# The web process dies after storing a submission and before the broker hears of it.
DIES_BEFORE_SENDING = (
    "import os, sys; import server.queue as q; "
    "q.DramatiqQueue.send = lambda *a, **k: os._exit(9); "
    "from server.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


def test_a_web_process_killed_between_storing_and_queueing_loses_nothing(course):
    c = course("postgresql", "redis")
    server = c.serve(workers=0, python=[sys.executable, "-c", DIES_BEFORE_SENDING])
    ada = c.learner("Ada")
    with pytest.raises(httpx2.HTTPError):  # no answer: the process is gone
        ada.submit(reference("day05_add_mul.py"), "day05_add_mul.py")
    wait_for("the web process to die", lambda: not server.alive(), timeout=30)
    (sub,) = c.rows()
    assert (sub.state, sub.enqueued_at, sub.attempts) == ("queued", None, 0)
    c.worker()  # its sweep sends the job Redis never got
    c.wait_done([sub.id])
    graded_once(c, sub.id)


def test_two_redis_workers_grade_20_submissions_each_once(course):
    c = course("postgresql", "redis")
    c.serve(workers=0)
    c.worker(), c.worker()
    learners = [c.learner("Ada"), c.learner("Grace")]
    ids = [
        learners[i % 2].submitted(reference(exercise), exercise)
        for i, exercise in zip(range(20), itertools.cycle(["day03_value.py", "day05_add_mul.py"]))
    ]
    rows = c.wait_done(ids)
    for sub in rows:
        graded_once(c, sub.id)
        assert sub.score == sub.max_score > 0


def _children(pid) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(p) for p in (task / "children").read_text().split()}
    return found


def test_stopping_the_server_stops_its_local_workers(course):
    c = course()
    server = c.serve(workers=2)
    workers = wait_for("two local workers", lambda: len(_children(server.pid)) == 2 or None)
    workers = _children(server.pid)
    assert server.stop() == 0
    for pid in workers:
        wait_for(f"worker {pid} to exit", lambda pid=pid: not Path(f"/proc/{pid}").exists(), 60)


def test_the_sweep_resends_only_what_redis_lost(course, tmp_path):
    """Jobs waiting in Redis behind a backlog are not sent again on every sweep (each copy
    would be one more message to fetch and drop); jobs Redis lost are sent again."""
    import redis

    from server.config import Settings
    from server.queue import DramatiqQueue

    c = course("postgresql", "redis")
    c.serve(workers=0)
    ada = c.learner("Ada")
    ids = [ada.submitted(reference("day05_add_mul.py"), "day05_add_mul.py") for _ in range(5)]
    settings = Settings.from_env(env=c.env, lease_seconds=0.5)
    queue = DramatiqQueue(settings)
    waiting = redis.Redis.from_url(settings.broker_url)
    assert waiting.llen("dramatiq:default") == 5
    wait_for("a lease to pass", lambda: time.sleep(1.0) or True)
    queue.sweep(c.db)
    queue.sweep(c.db)
    assert waiting.llen("dramatiq:default") == 5  # no worker yet: they wait, each once
    waiting.flushall()  # Redis restarted without its data
    wait_for("a lease to pass", lambda: time.sleep(1.0) or True)
    assert queue.sweep(c.db) == 5
    assert waiting.llen("dramatiq:default") == 5
    c.worker()
    for sub in c.wait_done(ids):
        graded_once(c, sub.id)

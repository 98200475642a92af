"""The course server as real processes (`python -m server serve` and `worker`): a worker
killed mid-grading, a restart with jobs queued, code that hangs or eats memory, a web
process killed between storing and queueing, and Redis with two workers. Bounds on time
are generous (a state within 120 s), never assertions on how fast."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from .processes import Course, wait_for

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

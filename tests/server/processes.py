"""The course server and its workers as real processes, for the reliability tests and the
load benchmark: `python -m server serve` and `python -m server worker` in sessions of their
own (so a test can kill a worker with every sandbox child it started), learners signed in
over HTTP with httpx2, and the database read directly to see what happened."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
from sqlalchemy import select

from server import people
from server.db import Database
from server.models import Submission
from server.security import start_session

from .services import free_port

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "day01_derivative.py"
# A day's functions, each called through a wrapper that runs `body` first.
_FUNCTIONS = {
    "day01_derivative.py": ["forward_difference", "central_difference", "partial_derivative"],
}


def reference(exercise: str) -> str:
    """The reference solution of an exercise (full marks), without its __main__ block."""
    return (ROOT / "solutions" / exercise).read_text().split("\nif __name__")[0]


def wrapped(body: str, exercise: str = EXERCISE) -> str:
    """The reference solution whose functions each run `body` (indented code) first."""
    names = _FUNCTIONS[exercise]
    code = reference(exercise) + f"\n\n_reference = {{n: globals()[n] for n in {names!r}}}\n"
    for name in names:
        code += (
            f"\n\ndef {name}(*args, **kwargs):\n{body}\n"
            f"    return _reference[{name!r}](*args, **kwargs)\n"
        )
    return code


SLOW = wrapped("    import time\n\n    time.sleep(0.4)")  # full marks, in several seconds
HANGS = wrapped("    while True:\n        pass")
EATS_MEMORY = wrapped("    hog = []\n    while True:\n        hog.append(bytearray(2**24))")


def wait_for(what: str, check, timeout: float = 120.0, every: float = 0.2):
    """check()'s first truthy value; AssertionError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(every)


class Proc:
    """A process in a session of its own, its output in a log file."""

    def __init__(self, argv, env, log: Path):
        self.argv, self.log = argv, log
        self.popen = subprocess.Popen(
            argv,
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=open(log, "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group: the process and every child it started."""
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(30)

    def stop(self, timeout: float = 60.0) -> int:
        """SIGTERM (finish the job in hand, then exit); SIGKILL after `timeout`."""
        if self.alive():
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.popen.returncode

    def output(self) -> str:
        return self.log.read_text(errors="replace")


class Course:
    """A course server's environment: its database, broker and data folder, the processes
    started for it (all stopped by close()), a class and learners."""

    def __init__(
        self,
        folder: Path,
        database_url: str,
        broker_url: str = "database",
        lease_seconds: float = 3.0,
        port: int | None = None,
    ):
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "COURSE_DATA_DIR": str(folder / "data"),
            "DATABASE_URL": database_url,
            "BROKER_URL": broker_url,
            "SECRET_KEY": "reliability-tests-secret-key",
            "PUBLIC_URL": f"{self.base}/",
            "COURSE_LEASE_SECONDS": str(lease_seconds),
            "COURSE_GRADE_SEED": "1",
        }
        if broker_url.startswith("redis"):
            import redis

            redis.Redis.from_url(broker_url).flushall()  # no message or count of another test
        self.db = Database(database_url)
        self.db.migrate()
        self.procs: list[Proc] = []
        with self.db.session() as s:
            course = people.create_class(s, "Reliability")
            self.class_id, self.invite_code = course.id, course.invite_code
        self._logs = 0

    def _start(self, argv, name) -> Proc:
        self._logs += 1
        proc = Proc(argv, self.env, self.folder / f"{self._logs:02d}-{name}.log")
        self.procs.append(proc)
        return proc

    def serve(self, workers: int = 0, python: list[str] | None = None) -> Proc:
        """`python -m server serve` on this course's port; returns once /health answers."""
        argv = (python or [sys.executable, "-m", "server"]) + [
            "serve",
            "--port",
            str(self.port),
            "--workers",
            str(workers),
        ]
        proc = self._start(argv, "serve")

        def healthy():
            if not proc.alive():
                raise AssertionError(f"the server exited:\n{proc.output()}")
            try:
                return httpx2.get(f"{self.base}/health", timeout=5).status_code == 200
            except httpx2.HTTPError:
                return False

        wait_for("the server to answer /health", healthy, timeout=90)
        return proc

    def worker(self) -> Proc:
        return self._start([sys.executable, "-m", "server", "worker"], "worker")

    def close(self) -> None:
        for proc in self.procs:
            proc.stop(timeout=30)
        self.db.dispose()

    # -- learners ------------------------------------------------------------------------

    def learner(self, name: str) -> Learner:
        """A new learner of the class, signed in over HTTP with a one-time link."""
        with self.db.session() as s:
            course = people.class_by_code(s, self.invite_code)
            user = people.add_member(s, course, name)
            link = people.signin_link(s, user, f"{self.base}/")
        client = httpx2.Client(base_url=self.base, timeout=60)
        csrf = client.get("/api/session").json()["csrf"]
        answer = client.post(
            "/api/signin-link",
            json={"token": link.rsplit("/", 1)[1]},
            headers={"X-CSRF-Token": csrf},
        )
        answer.raise_for_status()
        return Learner(client, answer.json()["csrf"])

    def learners_by_session(self, names) -> list[Learner]:
        """Many learners at once: their sessions written in the database (the sign-in's
        rate limit allows a few links a minute from one address), their CSRF token read
        from the API."""
        tokens = []
        with self.db.session() as s:
            course = people.class_by_code(s, self.invite_code)
            for name in names:
                tokens.append(start_session(s, people.add_member(s, course, name)))
        found = []
        for token in tokens:
            client = httpx2.Client(base_url=self.base, timeout=60)
            client.cookies.set("course_session", token)
            found.append(Learner(client, client.get("/api/session").json()["csrf"]))
        return found

    # -- the database --------------------------------------------------------------------

    def rows(self, ids=None) -> list[Submission]:
        query = select(Submission)
        if ids is not None:
            query = query.where(Submission.id.in_(list(ids)))
        with self.db.session() as s:
            return list(s.scalars(query))

    def row(self, sub_id) -> Submission:
        return self.rows([sub_id])[0]

    def wait_done(self, ids, timeout: float = 120.0) -> list[Submission]:
        """Every submission of `ids` graded or in error; their rows."""
        ids = list(ids)

        def done():
            rows = self.rows(ids)
            return rows if all(r.state in ("graded", "error") for r in rows) else None

        try:
            return wait_for(f"{len(ids)} submissions to be graded", done, timeout, every=0.5)
        except AssertionError:
            states = sorted(r.state for r in self.rows(ids))
            logs = "\n".join(f"--- {p.argv}\n{p.output()[-3000:]}" for p in self.procs)
            raise AssertionError(f"not all graded in {timeout:g} s: {states}\n{logs}") from None


class Learner:
    def __init__(self, client: httpx2.Client, csrf: str):
        self.client, self.csrf = client, csrf

    def submit(self, code: str, exercise: str = EXERCISE) -> httpx2.Response:
        return self.client.post(
            "/api/submissions",
            json={"exercise": exercise, "code": code},
            headers={"X-CSRF-Token": self.csrf},
        )

    def submitted(self, code: str, exercise: str = EXERCISE) -> str:
        """Submit; the new submission's id (the server must accept it: 202)."""
        answer = self.submit(code, exercise)
        assert answer.status_code == 202, answer.text
        return answer.json()["submission"]["id"]

    def get(self, sub_id) -> dict:
        return self.client.get(f"/api/submissions/{sub_id}").json()["submission"]

    def close(self):
        self.client.close()

"""Red team of the course server: a learner after marks or classmates' work, a page on
another origin, and an attacker on the host.

Each test is an attack. One the server holds is a regression test asserting that it holds;
one that breaks the server asserts the secure behaviour and is marked
`xfail(strict=True, reason="BREAK: ...")` until the server is fixed.

Learner code is only ever run by the grader's sandbox (`jobs.grade_submission` with
`sandbox.detect("auto")`), never in this process. The tests that need real processes
start `python -m server serve` on a free port of 127.0.0.1; the browser tests (Chromium
through Playwright) are marked `browser`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select, update
from starlette.testclient import TestClient

from server import jobs, people
from server.app import create_app
from server.config import Settings
from server.db import Database
from server.models import Deadline, Progress, Submission, now

BASE = "http://127.0.0.1:8000"
PASSWORD = "a long enough password"
SECRET = "k" * 40
# A cheap argon2 hash of PASSWORD: the server verifies with the parameters in the hash, so
# the tests sign in fast (the server's own hashes keep the library's parameters).
FAST_HASH = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "day01_derivative.py"
OTHER_EXERCISE = "day02_chain_rule.py"
STUB = (ROOT / "exercises" / EXERCISE).read_text()


# --- the setting ------------------------------------------------------------------------


class Course:
    """Two classes: A (Ada and Bob learn, Ines teaches) and B (Carl learns, Olga teaches)."""

    def __init__(self, database_url, tmp_path):
        self.settings = Settings.from_env(
            {
                "COURSE_DATA_DIR": str(tmp_path / "data"),
                "DATABASE_URL": database_url,
                "SECRET_KEY": SECRET,
            }
        )
        self.db = Database(self.settings.database_url)
        self.db.migrate()
        with self.db.session() as s:
            a = people.create_class(s, "Class A")
            b = people.create_class(s, "Class B")
            self.a, self.b = a.id, b.id
            self.code_a, self.code_b = a.invite_code, b.invite_code
            self.users = {}
            for name, course, role in [
                ("Ada", a, "learner"),
                ("Bob", a, "learner"),
                ("Ines", a, "instructor"),
                ("Carl", b, "learner"),
                ("Olga", b, "instructor"),
            ]:
                user = people.add_member(s, course, name, role, login=name.lower())
                user.password_hash = FAST_HASH
                self.users[name] = user.id
        self.app = create_app(self.settings, self.db)

    def client(self, **kw) -> TestClient:
        return TestClient(self.app, base_url=BASE, **kw)

    def anonymous(self, **kw):
        client = self.client(**kw)
        client.csrf = client.get("/api/session").json()["csrf"]
        return client

    def signed_in(self, name, **kw) -> TestClient:
        client = self.anonymous(**kw)
        r = client.post(
            "/api/signin",
            json={"login": name.lower(), "password": PASSWORD},
            headers={"x-csrf-token": client.csrf},
        )
        assert r.status_code == 200, r.text
        client.csrf = r.json()["csrf"]
        return client

    def submit(self, client, code=STUB, exercise=EXERCISE, **extra):
        return client.post(
            "/api/submissions",
            json={"exercise": exercise, "code": code, **extra},
            headers={"x-csrf-token": client.csrf},
        )

    def grade(self, submission_id):
        from grader.sandbox import detect

        return jobs.grade_submission(self.db, self.settings, detect("auto"), submission_id)

    def row(self, submission_id) -> Submission:
        with self.db.session() as s:
            return s.get(Submission, submission_id)

    def deadline(self, class_id, exercise, policy, hours=-1, penalty=0):
        with self.db.session() as s:
            s.merge(
                Deadline(
                    class_id=class_id,
                    exercise=exercise,
                    due_at=now() + timedelta(hours=hours),
                    late_policy=policy,
                    penalty_percent=penalty,
                )
            )

    def store(self, name, class_id, exercise=EXERCISE, code=b"x = 1\n", **values):
        """A submission as a worker leaves it (no grading: for the pages' tests)."""
        sub_id = str(uuid.uuid4())
        with self.db.session() as s:
            s.add(
                Submission(
                    id=sub_id,
                    user_id=self.users[name],
                    class_id=class_id,
                    exercise=exercise,
                    code=code,
                    sha256=hashlib.sha256(code).hexdigest(),
                    **values,
                )
            )
        return sub_id


@pytest.fixture
def course(database_url, tmp_path):
    made = Course(database_url, tmp_path)
    yield made
    made.db.dispose()


@pytest.fixture
def sqlite_course(tmp_path):
    made = Course(f"sqlite:///{tmp_path / 'course.db'}", tmp_path)
    yield made
    made.db.dispose()


# --- other learners' work ---------------------------------------------------------------


def test_a_learner_reads_no_one_elses_submission_result_or_name(course):
    theirs = course.store("Bob", course.a, state="graded", score=6.0, max_score=6.0)
    other_class = course.store("Carl", course.b)
    ada = course.signed_in("Ada")
    for sub_id in (theirs, other_class):
        r = ada.get(f"/api/submissions/{sub_id}")
        assert r.status_code == 404 and "Bob" not in r.text
        assert ada.get(f"/instructor/submissions/{sub_id}").status_code == 404
    listed = ada.get("/api/submissions").json()["submissions"]
    listed += ada.get("/api/submissions", params={"exercise": EXERCISE}).json()["submissions"]
    assert listed == []
    bob = course.users["Bob"]
    for path in (
        "/instructor/",
        f"/instructor/classes/{course.a}",
        f"/instructor/classes/{course.a}/gradebook.csv",
        f"/instructor/classes/{course.a}/learners/{bob}.json",
    ):
        r = ada.get(path)
        assert r.status_code == 404, path
        assert "Bob" not in r.text and "bob" not in r.text
    # Her own session and deadlines say nothing of classmates.
    assert "Bob" not in ada.get("/api/session").text
    assert ada.get("/api/deadlines").json() == {"deadlines": []}


def test_an_instructor_of_another_class_sees_nothing_of_this_one(course):
    sub_id = course.store("Ada", course.a, state="graded", score=6.0, max_score=6.0)
    olga = course.signed_in("Olga")
    ada = course.users["Ada"]
    for path in (
        f"/api/submissions/{sub_id}",
        f"/instructor/submissions/{sub_id}",
        f"/instructor/classes/{course.a}",
        f"/instructor/classes/{course.a}/gradebook.csv",
        f"/instructor/classes/{course.a}/learners/{ada}.json",
        # Ada is no learner of Olga's class: her class's JSON path does not reach her.
        f"/instructor/classes/{course.b}/learners/{ada}.json",
    ):
        r = olga.get(path)
        assert r.status_code == 404, path
        assert "Ada" not in r.text
    r = olga.post(
        f"/instructor/classes/{course.a}/regrade",
        data={"exercise": EXERCISE, "csrf": olga.csrf},
    )
    assert r.status_code == 404
    assert course.row(sub_id).score == 6.0


def test_a_learner_cannot_regrade_or_watch_a_regrade(course):
    sub_id = course.store("Ada", course.a, state="graded", score=1.0, max_score=6.0)
    ines = course.signed_in("Ines")
    r = ines.post(
        f"/instructor/classes/{course.a}/regrade",
        data={"exercise": EXERCISE, "csrf": ines.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    regrade_id = int(r.headers["location"].rsplit("/", 1)[1])
    with course.db.session() as s:
        s.execute(update(Submission).values(state="graded", score=1.0))
    ada = course.signed_in("Ada")
    for path in (f"/api/regrades/{regrade_id}", f"/instructor/regrades/{regrade_id}"):
        assert ada.get(path).status_code == 404
    r = ada.post(
        f"/instructor/classes/{course.a}/regrade",
        data={"exercise": EXERCISE, "csrf": ada.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 404
    assert course.row(sub_id).state == "graded"


def test_progress_is_the_signed_in_learners_own(course):
    ada, bob = course.signed_in("Ada"), course.signed_in("Bob")
    work = {"format": "course-work", "files": {"x": "ada's"}}
    r = ada.put(
        "/api/progress", json={"revision": 0, "work": work}, headers={"x-csrf-token": ada.csrf}
    )
    assert r.status_code == 200
    # Bob cannot name another user: there is no user field, and one sent is ignored.
    bad = {"format": "course-work", "files": {"x": "bob's"}}
    r = bob.put(
        "/api/progress",
        json={"revision": 1, "work": bad, "user_id": course.users["Ada"]},
        headers={"x-csrf-token": bob.csrf},
    )
    assert r.status_code == 409
    assert ada.get("/api/progress").json()["work"] == work
    assert bob.get("/api/progress").json()["work"] is None


# --- marks ------------------------------------------------------------------------------


def test_a_submission_carries_no_score_state_owner_or_late_flag_of_the_learners(course):
    ada = course.signed_in("Ada")
    course.deadline(course.a, EXERCISE, "accept", hours=-1)
    r = course.submit(
        ada,
        state="graded",
        score=6.0,
        raw_score=6.0,
        max_score=6.0,
        late=False,
        user_id=course.users["Bob"],
        created_at="2000-01-01T00:00:00+00:00",
        id="00000000-0000-0000-0000-000000000000",
        attempts=99,
    )
    assert r.status_code == 202
    sub = course.row(r.json()["submission"]["id"])
    assert (sub.state, sub.score, sub.late, sub.user_id, sub.attempts) == (
        "queued",
        None,
        True,
        course.users["Ada"],
        0,
    )
    assert sub.id != "00000000-0000-0000-0000-000000000000"
    assert sub.created_at > now() - timedelta(minutes=5)


@pytest.mark.parametrize(
    "class_id", [True, "1", 1.0, [1], {"id": 1}, -1, 0, 2**63, 10**30, None, "class_b"]
)
def test_class_id_tricks_never_pass_a_refusing_deadline(sqlite_course, class_id):
    course = sqlite_course
    course.deadline(course.a, EXERCISE, "refuse", hours=-1)
    ada = course.signed_in("Ada")
    if class_id == "class_b":
        class_id = course.b  # a class she does not learn in, without its deadline
    r = course.submit(ada, class_id=class_id)
    assert r.status_code in (400, 403), r.text
    with course.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_class_id_true_on_postgresql_is_refused_not_a_server_error(course):
    """JSON `true` is a Python int: it passes `isinstance(x, int)` and `True in [1]`."""
    course.deadline(course.a, EXERCISE, "refuse", hours=-1)
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    assert course.a == 1  # `true` names her class
    r = course.submit(ada, class_id=True)
    assert r.status_code in (400, 403), r.text
    with course.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_the_late_flag_and_penalty_stay_through_a_regrade(course):
    course.deadline(course.a, EXERCISE, "penalty", hours=-1, penalty=50)
    ada = course.signed_in("Ada")
    sub_id = course.submit(ada).json()["submission"]["id"]
    assert course.row(sub_id).late is True
    ines = course.signed_in("Ines")
    r = ines.post(
        f"/instructor/classes/{course.a}/regrade",
        data={"exercise": EXERCISE, "csrf": ines.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert course.row(sub_id).late is True
    # Moving the deadline later does not rewrite a stored flag either.
    course.deadline(course.a, EXERCISE, "penalty", hours=+24, penalty=50)
    assert course.row(sub_id).late is True


def test_a_graded_submission_cannot_be_changed_or_submitted_again_by_id(course):
    ada = course.signed_in("Ada")
    sub_id = course.store("Ada", course.a, state="graded", score=0.0, max_score=6.0)
    for method in ("put", "patch", "delete", "post"):
        r = ada.request(
            method.upper(),
            f"/api/submissions/{sub_id}",
            content=json.dumps({"code": "x", "score": 6}),
            headers={"x-csrf-token": ada.csrf, "content-type": "application/json"},
        )
        assert r.status_code == 405, method
    sub = course.row(sub_id)
    assert (sub.state, sub.score, bytes(sub.code)) == ("graded", 0.0, b"x = 1\n")


def test_two_submissions_at_once_are_two_tries_each_stored(course):
    clients = [course.signed_in("Ada") for _ in range(2)]
    answers = [None, None]

    def go(i):
        answers[i] = course.submit(clients[i], code=f"# try {i}\n" + STUB)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a.status_code for a in answers] == [202, 202]
    with course.db.session() as s:
        rows = s.scalars(select(Submission)).all()
    assert len(rows) == 2 and len({r.id for r in rows}) == 2
    assert {r.state for r in rows} == {"queued"}


def test_an_error_never_raises_the_gradebooks_best(course):
    """Work the grader could not grade ("error", even with a max_score and a score set by a
    broken worker) is never the best: the graded 1/6 stays."""
    course.store("Ada", course.a, state="graded", score=1.0, max_score=6.0)
    course.store("Ada", course.a, state="error", score=6.0, max_score=6.0)
    course.store("Ada", course.a, state="grading", score=6.0, max_score=6.0)
    ines = course.signed_in("Ines")
    csv_text = ines.get(f"/instructor/classes/{course.a}/gradebook.csv").text
    ada_row = next(line for line in csv_text.splitlines() if line.startswith("ada,"))
    assert ada_row.split(",")[2:4] == ["1.0", "6.0"]


# --- another origin, sessions, sign-in ------------------------------------------------------

EVIL = "http://127.0.0.1:9999"  # another port of this machine: same site, other origin


def test_state_changes_from_another_origin_are_refused(course):
    ada = course.signed_in("Ada")
    progress = {"revision": 0, "work": {"format": "course-work"}}
    cases = [
        # (headers, body as sent): a foreign page knows no token, but send the right one too
        ({"origin": EVIL, "x-csrf-token": ada.csrf}, "json"),
        ({"origin": "null", "x-csrf-token": ada.csrf}, "json"),
        ({"origin": "http://127.0.0.1:8000.evil.example", "x-csrf-token": ada.csrf}, "json"),
        ({"origin": "http://localhost:8000", "x-csrf-token": ada.csrf}, "json"),
        ({"content-type": "text/plain"}, "text"),  # a form with enctype text/plain
        ({"origin": EVIL, "content-type": "text/plain"}, "text"),
        ({"x-csrf-token": "0" * 64}, "json"),
        ({"x-csrf-token": ""}, "json"),
    ]
    for headers, _kind in cases:
        for method, path, body in (
            ("POST", "/api/submissions", {"exercise": EXERCISE, "code": STUB}),
            ("PUT", "/api/progress", progress),
            ("POST", "/api/signout", {}),
        ):
            r = ada.request(method, path, content=json.dumps(body), headers=headers)
            assert r.status_code == 403, (headers, path, r.status_code)
    ines = course.signed_in("Ines")
    for origin in (EVIL, "null"):
        r = ines.post(
            f"/instructor/classes/{course.a}/regrade",
            data={"exercise": EXERCISE, "csrf": ines.csrf},
            headers={"origin": origin},
        )
        assert r.status_code == 403
    # Another person's valid token (the attacker's own) is no token for Ada's session.
    mallory = course.signed_in("Bob")
    r = ada.post(
        "/api/submissions",
        json={"exercise": EXERCISE, "code": STUB},
        headers={"x-csrf-token": mallory.csrf},
    )
    assert r.status_code == 403
    with course.db.session() as s:
        assert s.scalars(select(Submission)).all() == []
        assert s.scalars(select(Progress)).all() == []
    assert ada.get("/api/session").json()["user"]["login"] == "ada"


def test_login_csrf_with_the_attackers_own_token_and_cookie_fails(course):
    attacker = course.anonymous()
    victim = course.anonymous()  # the victim's browser has its own csrf cookie
    r = victim.post(
        "/api/signin",
        json={"login": "bob", "password": PASSWORD},
        headers={"x-csrf-token": attacker.csrf, "origin": EVIL},
    )
    assert r.status_code == 403
    r = victim.post(
        "/api/signin",
        json={"login": "bob", "password": PASSWORD},
        headers={"x-csrf-token": attacker.csrf},
    )
    assert r.status_code == 403
    assert victim.get("/api/session").json()["user"] is None


def test_session_fixation_and_forged_cookies_fail(course):
    # A cookie set before signing in (by a page of this site, say) is never the session.
    client = course.anonymous()
    client.cookies.set("course_session", "fixed-by-the-attacker", domain="127.0.0.1", path="/")
    # The page asks for its token: the server makes the browser forget the unknown session.
    csrf = client.get("/api/session").json()["csrf"]
    r = client.post(
        "/api/signin",
        json={"login": "ada", "password": PASSWORD},
        headers={"x-csrf-token": csrf},
    )
    assert r.status_code == 200
    assert r.cookies.get("course_session") not in (None, "fixed-by-the-attacker")
    # Forged, tampered, huge and injected cookies are no one.
    real = r.cookies.get("course_session")
    for token in (
        real[:-1] + ("A" if real[-1] != "A" else "B"),
        hashlib.sha256(real.encode()).hexdigest(),  # what the table holds
        "x" * 5000,
        "' OR 1=1 --",
        str(course.users["Ada"]),
    ):
        other = course.client()
        other.cookies.set("course_session", token)
        assert other.get("/api/session").json()["user"] is None
        assert other.get("/api/submissions").status_code == 401
    # Signing out ends the session on the server: the old cookie replayed is no one.
    ada = course.signed_in("Ada")
    old = ada.cookies.get("course_session")
    assert ada.post("/api/signout", headers={"x-csrf-token": ada.csrf}).status_code == 200
    replay = course.client()
    replay.cookies.set("course_session", old)
    assert replay.get("/api/submissions").status_code == 401


def test_a_signin_link_signs_in_once_even_when_two_posts_race(course):
    with course.db.session() as s:
        from server.models import User

        link = people.signin_link(s, s.get(User, course.users["Ada"]), course.settings.public_url)
    token = link.rsplit("/", 1)[1]
    clients = [course.anonymous() for _ in range(4)]
    answers = [None] * 4
    barrier = threading.Barrier(4)

    def go(i):
        barrier.wait()
        answers[i] = clients[i].post(
            "/api/signin-link", json={"token": token}, headers={"x-csrf-token": clients[i].csrf}
        )

    threads = [threading.Thread(target=go, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.status_code for a in answers) == [200, 400, 400, 400]
    again = course.anonymous()
    r = again.post("/api/signin-link", json={"token": token}, headers={"x-csrf-token": again.csrf})
    assert r.status_code == 400


def test_password_guessing_is_limited_whatever_the_logins_case_or_spaces(sqlite_course):
    course = sqlite_course
    client = course.anonymous()
    codes = []
    for i in range(14):
        login = ["ada", "ADA", " Ada ", "ada\t", "\u00a0ada"][i % 5]
        r = client.post(
            "/api/signin",
            json={"login": login, "password": f"guess number {i}"},
            headers={"x-csrf-token": client.csrf, "x-forwarded-for": f"10.0.0.{i}"},
        )
        codes.append(r.status_code)
    assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}
    # Even the right password now waits: the login is limited, not the address.
    fresh = course.anonymous()
    r = fresh.post(
        "/api/signin",
        json={"login": "ada", "password": PASSWORD},
        headers={"x-csrf-token": fresh.csrf},
    )
    assert r.status_code == 429


# --- bodies and parameters ------------------------------------------------------------------


def test_huge_compressed_and_malformed_bodies_are_refused_not_read(sqlite_course):
    course = sqlite_course
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    h = {"x-csrf-token": ada.csrf, "content-type": "application/json"}
    big = b"x" * (100 * 2**20)
    assert ada.post("/api/submissions", content=big, headers=h).status_code == 413

    def chunks():  # no Content-Length: counted while it streams in
        for _ in range(40):
            yield b" " * 2**16

    assert ada.post("/api/submissions", content=chunks(), headers=h).status_code == 413
    import gzip

    bomb = gzip.compress(b"{" + b" " * (50 * 2**20) + b"}")
    r = ada.post("/api/submissions", content=bomb, headers={**h, "content-encoding": "gzip"})
    assert r.status_code == 415
    for length in ("-1", "1e9", "0x10", " 5"):
        r = ada.post("/api/submissions", content=b"{}", headers={**h, "content-length": length})
        assert r.status_code in (400, 413), length
    for body in (
        b"\xff\xfe{",
        b"[1, 2]",
        b"null",
        b'"s"',
        b"{" * 10,
        b'{"exercise": 1e999}',
    ):
        r = ada.post("/api/submissions", content=body, headers=h)
        assert r.status_code == 400, body
    # The server is well after all of it.
    assert ada.get("/health").json()["status"] == "ok"


def test_deeply_nested_json_is_a_400(sqlite_course):
    course = sqlite_course
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    h = {"x-csrf-token": ada.csrf, "content-type": "application/json"}
    for body in (b"[" * 200_000, b'{"a":' * 100_000):
        r = ada.post("/api/submissions", content=body, headers=h)
        assert r.status_code == 400, r.status_code


def test_huge_numbers_in_json_are_refused(sqlite_course):
    course = sqlite_course
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    h = {"x-csrf-token": ada.csrf, "content-type": "application/json"}
    digits = "9" * 100_000  # over Python's int-from-text limit
    body = f'{{"exercise": "{EXERCISE}", "code": "x", "class_id": {digits}}}'.encode()
    assert ada.post("/api/submissions", content=body, headers=h).status_code == 400
    r = course.submit(ada, class_id=2**4000)
    assert r.status_code == 403


def test_a_huge_progress_revision_is_a_client_error(course):
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    work = {"format": "course-work"}
    h = {"x-csrf-token": ada.csrf}
    assert (
        ada.put("/api/progress", json={"revision": 0, "work": work}, headers=h).status_code == 200
    )
    r = ada.put("/api/progress", json={"revision": 2**70, "work": work}, headers=h)
    assert r.status_code in (400, 409), r.status_code


INJECTIONS = ["' OR '1'='1", "1; DROP TABLE submissions; --", '" OR ""="', "%", "_", "\\"]


def test_sql_injection_in_every_parameter_finds_nothing(course):
    course.store("Bob", course.a, state="graded", score=6.0, max_score=6.0)
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    ines = course.signed_in("Ines", raise_server_exceptions=False)
    for text in INJECTIONS:
        r = ada.get("/api/submissions", params={"exercise": text})
        assert r.status_code in (200, 400) and r.json().get("submissions", []) == []
        assert ada.get(f"/api/submissions/{text}").status_code in (400, 404)
        assert ines.get(f"/instructor/submissions/{text}").status_code in (400, 404)
        assert ines.get(f"/instructor/classes/{text}").status_code == 404
        r = course.submit(ada, exercise=text)
        assert r.status_code == 400
        r = ada.post(
            "/api/signin",
            json={"login": text, "password": text},
            headers={"x-csrf-token": ada.csrf},
        )
        assert r.status_code in (400, 401, 429)
        r = ines.post(
            f"/instructor/classes/{course.a}/regrade",
            data={"exercise": text, "csrf": ines.csrf},
        )
        assert r.status_code == 400
        anon = course.anonymous()
        r = anon.post(
            "/api/join",
            json={"invite_code": text, "login": "eve", "name": text, "password": PASSWORD},
            headers={"x-csrf-token": anon.csrf},
        )
        assert r.status_code in (400, 429)
    with course.db.session() as s:
        assert len(s.scalars(select(Submission)).all()) == 1


NUL = "a\x00b"


def _nul_answers(course):
    """The status of each request that carries a NUL character in one parameter."""
    ada = course.signed_in("Ada", raise_server_exceptions=False)
    h = {"x-csrf-token": ada.csrf}
    work = {"format": "course-work", "files": {NUL: NUL}}
    anon = course.anonymous(raise_server_exceptions=False)
    return {
        "list": ada.get("/api/submissions", params={"exercise": NUL}).status_code,
        "submit": course.submit(ada, exercise=NUL).status_code,
        "signin": ada.post(
            "/api/signin", json={"login": NUL, "password": NUL}, headers=h
        ).status_code,
        "progress": ada.put(
            "/api/progress", json={"revision": 0, "work": work}, headers=h
        ).status_code,
        "join": anon.post(
            "/api/join",
            json={"invite_code": course.code_a, "login": "eve", "name": NUL, "password": PASSWORD},
            headers={"x-csrf-token": anon.csrf},
        ).status_code,
        "link": anon.post(
            "/api/signin-link", json={"token": NUL}, headers={"x-csrf-token": anon.csrf}
        ).status_code,
    }


def test_a_nul_character_in_a_parameter_is_no_server_error(course):
    answers = _nul_answers(course)
    assert 500 not in answers.values(), answers


# --- pages: what a learner writes is text ---------------------------------------------------

XSS = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'`"


def test_names_class_names_code_and_feedback_are_escaped_on_every_page(course):
    from server.models import Course as Klass
    from server.models import User

    with course.db.session() as s:
        s.get(User, course.users["Ada"]).name = '=HYPERLINK("http://evil")' + XSS
        s.get(Klass, course.a).name = XSS
    sub_id = course.store(
        "Ada",
        course.a,
        code=("</code></pre>" + XSS + "\u202e").encode(),
        state="graded",
        score=1.0,
        max_score=6.0,
        feedback="</pre>" + XSS,
    )
    ines = course.signed_in("Ines")
    r = ines.post(
        f"/instructor/classes/{course.a}/regrade",
        data={"exercise": EXERCISE, "csrf": ines.csrf},
        follow_redirects=False,
    )
    pages = [
        "/instructor/",
        f"/instructor/classes/{course.a}",
        f"/instructor/submissions/{sub_id}",
        r.headers["location"],
    ]
    for path in pages:
        page = ines.get(path)
        assert page.status_code == 200, path
        assert "<script>alert" not in page.text and "<img src=x" not in page.text, path
        assert "&lt;script&gt;" in page.text, path
    ada = course.signed_in("Ada")
    page = ada.get("/signin/")
    assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text
    # The CSV is a download, never a page, and no cell is a formula.
    r = ines.get(f"/instructor/classes/{course.a}/gradebook.csv")
    assert r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"].startswith("attachment")
    assert r.headers["x-content-type-options"] == "nosniff"
    assert ",=HYPERLINK" not in r.text and "\n=HYPERLINK" not in r.text
    # A learner's JSON is JSON.
    r = ada.get(f"/api/submissions/{sub_id}")
    assert r.headers["content-type"] == "application/json"
    # The link page renders its token as text too.
    r = course.client().get("/signin/link/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert "<script>alert" not in r.text


# --- hostile files, graded by the sandbox -------------------------------------------------


def _submit_and_grade(course, code, name="Ada"):
    client = course.signed_in(name)
    body = json.dumps({"exercise": EXERCISE, "code": code})  # ASCII: a lone surrogate escaped
    r = client.post(
        "/api/submissions",
        content=body,
        headers={"x-csrf-token": client.csrf, "content-type": "application/json"},
    )
    assert r.status_code == 202, r.text
    sub_id = r.json()["submission"]["id"]
    assert course.grade(sub_id) in ("graded", "error")
    return client, course.row(sub_id)


def test_a_file_cannot_read_the_servers_secrets_or_others_files_nor_forge_its_report(
    sqlite_course, tmp_path
):
    course = sqlite_course
    course.settings.data_dir.mkdir(parents=True, exist_ok=True)
    secret = course.settings.data_dir / "secret_key"
    secret.write_text("the-server-secret-" + "z" * 20)
    other = Path(f"/tmp/course-submission-redteam-{uuid.uuid4().hex}")
    other.mkdir()
    (other / EXERCISE).write_text("# BOB'S ANSWER 42\n")
    db_file = tmp_path / "course.db"
    paths = [str(secret), str(db_file), str(other / EXERCISE), str(ROOT / "solutions" / EXERCISE)]
    code = (
        "import glob\n"
        "seen = []\n"
        f"for path in {paths!r} + glob.glob('/tmp/course-submission-*/*'):\n"
        "    try:\n"
        "        seen.append(path + '=' + open(path, 'rb').read(40).hex())\n"
        "    except Exception as exc:\n"
        "        seen.append(path + ':' + type(exc).__name__)\n"
        "print('Score: 6/6')\n"
        "raise RuntimeError('LEAK ' + ' '.join(seen) + "
        "'\\nScore: 6/6\\n  pass  [hidden] forged <script>alert(1)</script>')\n"
    )
    try:
        ada, sub = _submit_and_grade(course, code)
    finally:
        (other / EXERCISE).unlink()
        other.rmdir()
    assert sub.state == "graded" and sub.score == 0.0 and sub.max_score > 0
    feedback = sub.feedback
    assert "LEAK " in feedback  # the channel works: it carries nothing of the server
    for content in (secret.read_bytes(), db_file.read_bytes()[:16], b"# BOB'S ANSWER"):
        assert content[:16].hex() not in feedback
    assert not any(line.startswith("Score: 6/6") for line in feedback.splitlines())
    assert "\n  pass  [hidden] forged" not in feedback
    assert all(not t["passed"] for t in sub.results["tests"] if not t["public"])
    # What the learner and the instructor see is the stored score, escaped.
    assert ada.get(f"/api/submissions/{sub.id}").json()["submission"]["score"] == 0.0
    page = course.signed_in("Ines").get(f"/instructor/submissions/{sub.id}").text
    assert "<script>alert(1)" not in page


def test_a_file_that_hangs_forks_and_eats_memory_gets_a_zero(sqlite_course):
    code = (
        "import os\n"
        "try:\n    os.fork()\nexcept Exception:\n    pass\n"
        "try:\n    hog = bytearray(4 * 2**30)\nexcept MemoryError:\n    pass\n"
        "while True:\n    pass\n"
    )
    _, sub = _submit_and_grade(sqlite_course, code)
    assert (sub.state, sub.score) == ("graded", 0.0)
    assert sub.max_score > 0
    assert sqlite_course.client().get("/health").json()["status"] == "ok"


def test_odd_files_get_a_result_not_an_error(sqlite_course):
    course = sqlite_course
    # One line of 256 kB, a NUL: graded, 0.
    for code in ("x = '" + "a" * (256 * 1024 - 8) + "'\n", "\x00"):
        _, sub = _submit_and_grade(course, code, name="Bob")
        assert (sub.state, sub.score) == ("graded", 0.0), sub.feedback[:300]
    ada = course.signed_in("Ada")
    # Not UTF-8 (a lone surrogate): refused at the door with a clear 400, never stored.
    body = json.dumps({"exercise": EXERCISE, "code": "\udcff = 1\n"})  # escaped as \\udcff
    refused = ada.post(
        "/api/submissions",
        content=body.encode(),
        headers={"x-csrf-token": ada.csrf, "content-type": "application/json"},
    )
    assert refused.status_code == 400 and "Unicode" in refused.json()["error"]
    assert course.submit(ada, code="x" * (256 * 1024 + 1)).status_code == 413


def test_a_worker_killed_mid_grade_means_one_more_grading_never_two(sqlite_course):
    course = sqlite_course
    ada = course.signed_in("Ada")
    sub_id = course.submit(ada).json()["submission"]["id"]
    dead = jobs.claim(course.db, sub_id, lease_seconds=30)  # then the worker is killed
    assert dead is not None
    assert course.grade(sub_id) == "busy"  # its lease still runs: no one else takes it
    with course.db.session() as s:
        s.execute(
            update(Submission)
            .where(Submission.id == sub_id)
            .values(lease_until=now() - timedelta(seconds=1))
        )
    assert course.grade(sub_id) == "graded"
    first = course.row(sub_id)
    assert (first.state, first.attempts, first.score) == ("graded", 2, 0.0)
    # The killed worker comes back to life and writes its result: dropped.
    assert not jobs.finish(course.db, sub_id, dead, {"state": "graded", "score": 6.0})
    assert course.grade(sub_id) == "busy"
    again = course.row(sub_id)
    assert (again.score, again.graded_at, again.attempts) == (0.0, first.graded_at, 2)


def test_a_job_that_ended_every_worker_is_an_error_not_a_fourth_try(sqlite_course):
    course = sqlite_course
    ada = course.signed_in("Ada")
    sub_id = course.submit(ada).json()["submission"]["id"]
    with course.db.session() as s:
        s.execute(
            update(Submission)
            .where(Submission.id == sub_id)
            .values(state="grading", attempts=3, lease_until=now() - timedelta(seconds=1))
        )
    assert course.grade(sub_id) == "error"
    sub = course.row(sub_id)
    assert (sub.state, sub.score) == ("error", None)
    csv_text = course.signed_in("Ines").get(f"/instructor/classes/{course.a}/gradebook.csv").text
    assert "ada," in csv_text and ",6.0," not in csv_text


def test_jobs_queued_when_the_server_stops_are_graded_after_it_restarts(sqlite_course, tmp_path):
    course = sqlite_course
    ada = course.signed_in("Ada")
    sub_id = course.submit(ada).json()["submission"]["id"]
    course.db.dispose()
    again = Database(course.settings.database_url)
    again.migrate()
    try:
        assert jobs.next_claimable(again) == [sub_id]
        from grader.sandbox import detect

        assert jobs.grade_submission(again, course.settings, detect("auto"), sub_id) == "graded"
        assert jobs.next_claimable(again) == []
    finally:
        again.dispose()


# --- a real server: sockets, proxy headers, the browser -----------------------------------


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`python -m server serve` (no workers) on a free port, with Ada's password."""
    import os
    import subprocess
    import sys
    import time

    import httpx2

    data = tmp_path_factory.mktemp("served")
    port = _free_port()
    env = {**os.environ, "COURSE_DATA_DIR": str(data), "SECRET_KEY": SECRET}
    env.pop("PUBLIC_URL", None)
    db = Database(f"sqlite:///{data / 'course.db'}")
    db.migrate()
    with db.session() as s:
        course = people.create_class(s, "Served")
        for login in ("ada", "bob"):
            people.add_member(s, course, login.title(), login=login).password_hash = FAST_HASH
    db.dispose()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--port", str(port), "--workers", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx2.get(base + "/health", timeout=1).status_code == 200:
                break
        except httpx2.HTTPError:
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(10)


def test_slow_bodies_and_a_100_mb_upload_do_not_stop_the_server(served):
    import socket
    import time

    import httpx2

    port = int(served.rsplit(":", 1)[1])
    slow = []
    for _ in range(30):  # slow-loris: headers promise a body that trickles in, never ends
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            b"POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"
        )
        slow.append(sock)
    try:
        started = time.monotonic()
        assert httpx2.get(served + "/health", timeout=5).json()["status"] == "ok"
        assert time.monotonic() - started < 2
        big = socket.create_connection(("127.0.0.1", port))
        big.sendall(
            b"POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n"
        )
        big.settimeout(5)
        assert b" 413 " in big.recv(200).split(b"\r\n")[0]
        big.close()
    finally:
        for sock in slow:
            sock.close()
    assert httpx2.get(served + "/health", timeout=5).json()["status"] == "ok"


REDIRECTS = [
    "//{evil}/",
    "/\\{evil}/",
    "http://{evil}/",
    "javascript:alert(document.domain)//",
    "%2F%2F{evil}/",
    "/%09/{evil}/",
    "\\/\\/{evil}/",
    "https:{evil}",
]


@pytest.mark.browser
def test_browser_signin_next_never_leaves_the_site(served, browser):
    """In Chromium (pytest-playwright's, the suite's one browser): sign in from
    /signin/?next=... for each trick; the page stays here."""
    from urllib.parse import quote

    evil = f"127.0.0.1:{_free_port()}"
    for i, trick in enumerate(REDIRECTS):
        login = ("ada", "bob")[i % 2]  # under the per-login limit
        page = browser.new_page()
        try:
            dialogs = []
            page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
            page.goto(f"{served}/signin/?next={quote(trick.format(evil=evil), safe='%')}")
            page.fill("#signin-login", login)
            page.fill("#signin-password", PASSWORD)
            with page.expect_navigation(timeout=5000):  # signed in: it goes somewhere
                page.click("#signin button[type=submit]")
            page.wait_for_timeout(200)
            assert page.url.startswith(served + "/"), (trick, page.url)
            assert dialogs == [], trick
        finally:
            page.close()


def test_forwarded_for_gives_no_new_address_without_a_proxy(served):
    """Without FORWARDED_ALLOW_IPS no X-Forwarded-For is believed: a client spraying one
    password over many logins, a new made-up address each time, still meets the
    per-address limit. (Last in the file: it spends this minute's sign-ins of 127.0.0.1.)"""
    import httpx2

    with httpx2.Client(base_url=served) as client:
        csrf = client.get("/api/session").json()["csrf"]
        codes = []
        for i in range(Settings.signin_per_address_per_minute + 1):
            r = client.post(
                "/api/signin",
                json={"login": f"nobody{i}", "password": "Winter2024!!"},
                headers={"x-csrf-token": csrf, "x-forwarded-for": f"203.0.113.{i % 250}"},
            )
            codes.append(r.status_code)
    assert 429 in codes, codes

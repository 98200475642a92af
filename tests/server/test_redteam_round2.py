"""Red team of the course server, second round: the Redis/Dramatiq path, accounts after
`add_existing`, look-alike logins, saved work, an instructor of one class against another,
regrade storms, and the COURSE_URL/CORS_ORIGIN settings.

Each test is an attack the server must hold. Four broke it when written (a new password
left other sessions signed in; a plain-http CORS_ORIGIN was accepted; an overtaken regrade
stayed "running" forever; saved work was stored at three times its size) and were fixed.
Learner code is only graded by workers (`python -m server worker`) in the grader's sandbox.
"""

from __future__ import annotations

import hashlib
import threading
import time
import uuid

import pytest
from sqlalchemy import func, select, text

from server import jobs, people
from server.config import ConfigError, Settings
from server.models import Membership, Progress, Regrade, SignInSession, Submission, User
from server.security import SESSION_COOKIE, token_hash

from .client import BASE, PASSWORD, make_server
from .processes import SLOW, Course, reference, wait_for

ADD_MUL = "day05_add_mul.py"


# --- the setting ------------------------------------------------------------------------


@pytest.fixture
def srv(tmp_path, database_url):
    server = make_server(tmp_path, database_url)
    yield server
    server.db.dispose()


@pytest.fixture
def sqlite_srv(tmp_path):
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}")
    yield server
    server.db.dispose()


def store(db, user_id, class_id, exercise=ADD_MUL, code=b"x = 1\n", **values) -> str:
    sub_id = str(uuid.uuid4())
    with db.session() as s:
        s.add(
            Submission(
                id=sub_id,
                user_id=user_id,
                class_id=class_id,
                exercise=exercise,
                code=code,
                sha256=hashlib.sha256(code).hexdigest(),
                **values,
            )
        )
    return sub_id


def row(db, sub_id) -> Submission:
    with db.session() as s:
        return s.get(Submission, sub_id)


def sign_in(browser, login, password=PASSWORD):
    return browser.post("/api/signin", {"login": login, "password": password})


# --- 1. the Redis/Dramatiq path -----------------------------------------------------------


@pytest.fixture
def redis_course(tmp_path, redis_url):
    from grader.sandbox import SandboxError, detect

    try:
        detect("auto")
    except SandboxError as exc:
        pytest.skip(f"no sandbox to grade in here: {exc}")
    c = Course(tmp_path / "c", f"sqlite:///{tmp_path / 'course.db'}", redis_url, lease_seconds=3)
    with c.db.session() as s:
        other = people.create_class(s, "Other")
        c.other_class = other.id
        c.ada = people.add_member(s, people.class_by_code(s, c.invite_code), "Ada").id
        c.carl = people.add_member(s, other, "Carl").id
    yield c
    c.close()


def _queue(c):
    from server.queue import DramatiqQueue

    return DramatiqQueue(Settings.from_env(env=c.env))


def _message(actor="grade_submission", args=(), kwargs=None, options=None):
    import dramatiq

    return dramatiq.Message(
        queue_name="default",
        actor_name=actor,
        args=tuple(args),
        kwargs=kwargs or {},
        options=options or {},
    )


def test_forged_redis_messages_grade_only_stored_queued_submissions_once(redis_course):
    """Someone who can write to Redis: messages for ids that do not exist, for a graded
    submission of another class, with odd arguments, for another actor, with Dramatiq
    options (retries, time limit, a pipeline to a made-up actor), undecodable bytes, and
    the same job sent three times. The worker grades the one queued submission once,
    touches nothing else, and lives on to grade the next."""
    c = redis_course
    queue = _queue(c)
    queued = store(c.db, c.ada, c.class_id, code=reference(ADD_MUL).encode(), state="queued")
    graded = store(
        c.db,
        c.carl,
        c.other_class,
        state="graded",
        score=1.0,
        max_score=3.0,
        feedback="kept",
        attempts=1,
    )
    pipe = {"queue_name": "default", "actor_name": "os.system", "args": ["id"], "kwargs": {}}
    forged = [
        _message(args=[str(uuid.uuid4())]),
        _message(args=["../../etc/passwd"]),
        _message(args=[12345]),
        _message(args=[None]),
        _message(args=[{"id": queued}]),
        _message(args=[[queued, graded]]),
        _message(args=[queued, "extra"]),
        _message(args=[queued], kwargs={"sandbox": None}),
        _message(actor="os.system", args=["touch /tmp/redteam-round2-pwned"]),
        _message(args=[graded], options={"time_limit": 1, "max_retries": 3}),
        _message(args=[graded], options={"pipe_target": pipe}),
        _message(args=[queued]),
        _message(args=[queued]),
        _message(args=[queued]),
    ]
    for message in forged:
        queue.broker.enqueue(message)
    raw = queue.broker.client
    raw.hset("dramatiq:default.msgs", "garbage", b"\x80not json")
    raw.rpush("dramatiq:default", "garbage")
    worker = c.worker()
    c.wait_done([queued])
    sub = row(c.db, queued)
    assert (sub.state, sub.attempts) == ("graded", 1), sub.feedback
    assert sub.score == sub.max_score > 0
    # Everything in Redis was taken and dropped, and the graded one was never taken again.
    wait_for("Redis to drain", lambda: queue.waiting() == 0, timeout=60)
    time.sleep(1.0)
    other = row(c.db, graded)
    assert (other.state, other.score, other.feedback, other.attempts) == ("graded", 1.0, "kept", 1)
    assert row(c.db, queued).attempts == 1
    import os

    assert not os.path.exists("/tmp/redteam-round2-pwned")
    assert worker.alive(), worker.output()[-3000:]
    # The worker still grades what comes next.
    after = store(c.db, c.ada, c.class_id, code=reference(ADD_MUL).encode(), state="queued")
    queue.send(c.db, [after])
    c.wait_done([after])
    assert (row(c.db, after).state, row(c.db, after).attempts) == ("graded", 1)


def test_redis_connections_dropped_mid_grading_still_one_result(redis_course):
    """Redis drops every client connection while a job is being graded: the result is
    stored once, and the worker reconnects and grades the next job."""
    import redis

    c = redis_course
    queue = _queue(c)
    worker = c.worker()
    first = store(c.db, c.ada, c.class_id, exercise="day01_derivative.py", code=SLOW.encode())
    queue.send(c.db, [first])
    wait_for("the job to be taken", lambda: row(c.db, first).state == "grading", timeout=60)
    admin = redis.Redis.from_url(c.env["BROKER_URL"])
    admin.execute_command("CLIENT", "KILL", "TYPE", "normal")
    c.wait_done([first])
    sub = row(c.db, first)
    assert sub.state == "graded" and sub.attempts == 1 and sub.claim is None, sub.feedback
    after = store(c.db, c.ada, c.class_id, code=reference(ADD_MUL).encode(), state="queued")
    queue.send(c.db, [after])
    c.wait_done([after])
    assert row(c.db, after).state == "graded"
    assert row(c.db, first).attempts == 1  # never taken again
    assert worker.alive(), worker.output()[-3000:]


# --- 2. accounts and sign-in --------------------------------------------------------------

LOOKALIKES = [
    "kim",
    "KIM",
    " kim ",
    "kim\u00a0",  # no-break space
    "\u3000kim",  # ideographic space
    "\u212aim",  # KELVIN SIGN: lower() makes it an ASCII k
    "\uff4b\uff49\uff4d",  # full-width
    "kim\u200b",  # zero-width space
    "k\u0131m",  # dotless i
    "k\u0456m",  # Cyrillic i
]


def test_joining_never_attaches_to_an_existing_account_or_makes_a_lookalike(srv):
    """`add_existing` is the admin's alone: joining class B with Kim's login (in any case,
    spacing or Unicode look-alike, with Kim's own password) never puts Kim into B, never
    changes Kim's password, and never makes a second account that looks like Kim's."""
    class_a, _ = srv.new_class("A")
    class_b, code_b = srv.new_class("B")
    kim = srv.new_user("kim", class_a)
    with srv.db.session() as s:
        before_hash = s.get(User, kim).password_hash
        users_before = s.scalar(select(func.count()).select_from(User))
    for login in LOOKALIKES:
        eve = srv.browser()
        body = {"invite_code": code_b, "login": login, "name": "Eve", "password": PASSWORD}
        r = eve.post("/api/join", body)
        assert r.status_code == 400, (login, r.text)
        assert SESSION_COOKIE not in eve.client.cookies
        # Extra fields do not reach add_existing either.
        r = eve.post("/api/join", {**body, "existing": True, "role": "instructor"})
        assert r.status_code == 400
    with srv.db.session() as s:
        assert s.get(Membership, (kim, class_b)) is None
        assert s.get(User, kim).password_hash == before_hash
        assert s.scalar(select(func.count()).select_from(User)) == users_before


def test_lookalike_logins_sign_in_to_the_same_account_or_to_none(srv):
    class_a, _ = srv.new_class("A")
    kim = srv.new_user("kim", class_a)
    for login in LOOKALIKES:
        r = sign_in(srv.browser(), login)
        if r.status_code == 200:
            # Only the forms Python folds to "kim" (case, spaces, the Kelvin sign).
            assert r.json()["user"]["id"] == kim and r.json()["user"]["login"] == "kim"
        else:
            assert r.status_code == 401, (login, r.text)
            assert login.strip().lower() != "kim"


def test_lookalike_spellings_share_one_per_login_limit(sqlite_srv):
    srv = sqlite_srv
    class_a, _ = srv.new_class("A")
    srv.new_user("kim", class_a)
    eve = srv.browser()
    spellings = ["\u212aim", "KIM", "kim\u3000", "\u00a0Kim", "kim"]
    codes = [sign_in(eve, spellings[i % 5], f"guess {i} guess").status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}


def test_a_locked_login_can_still_use_its_signin_link(sqlite_srv):
    """Ten wrong passwords from anywhere lock a login for a minute (round 1 keeps that):
    the learner's one-time link is not locked with it."""
    srv = sqlite_srv
    class_a, _ = srv.new_class("A")
    kim = srv.new_user("kim", class_a)
    eve = srv.browser()
    for i in range(11):
        sign_in(eve, "kim", f"wrong password {i}")
    assert sign_in(srv.browser(), "kim").status_code == 429
    with srv.db.session() as s:
        link = people.signin_link(s, s.get(User, kim), f"{BASE}/")
    r = srv.browser().post("/api/signin-link", {"token": link.rsplit("/", 1)[1]})
    assert r.status_code == 200 and r.json()["user"]["id"] == kim


def test_signing_out_in_one_tab_ends_the_session_and_its_token_everywhere(srv):
    """Two tabs share the cookie; one signs out. The other tab's cookie and CSRF token are
    dead: no read, no write, and the old token does not pass as the anonymous one."""
    class_a, _ = srv.new_class("A")
    ada = srv.signed_in("ada", class_a)
    cookie = ada.client.cookies.get(SESSION_COOKIE)
    old_token = ada.csrf()
    other_tab = srv.browser()
    other_tab.client.cookies.set(SESSION_COOKIE, cookie, domain="127.0.0.1")
    assert ada.post("/api/signout", {}).status_code == 200
    assert other_tab.get("/api/progress").status_code == 401
    assert other_tab.get("/api/submissions").status_code == 401
    work = {"revision": 0, "work": {"format": "course-work", "items": {}}}
    assert other_tab.put("/api/progress", work, token=old_token).status_code in (401, 403)
    assert other_tab.submit(token=None).status_code in (401, 403)
    r = other_tab.client.post(
        "/api/signin",
        json={"login": "ada", "password": PASSWORD},
        headers={"X-CSRF-Token": old_token},
    )
    assert r.status_code == 403
    with srv.db.session() as s:
        assert s.get(SignInSession, token_hash(cookie)) is None


def test_a_csrf_token_of_one_session_fails_in_another_session_of_the_same_learner(srv):
    class_a, _ = srv.new_class("A")
    ada = srv.signed_in("ada", class_a)
    laptop = srv.browser()
    laptop.client.cookies.set(SESSION_COOKIE, srv.session_token(ada.user_id), domain="127.0.0.1")
    work = {"revision": 0, "work": {"format": "course-work", "items": {}}}
    assert laptop.put("/api/progress", work, token=ada.csrf()).status_code == 403
    assert laptop.put("/api/progress", work).status_code == 200


def test_a_new_password_from_a_signin_link_ends_the_accounts_other_sessions(srv):
    class_a, _ = srv.new_class("A")
    kim = srv.new_user("kim", class_a)
    thief = srv.browser()
    assert sign_in(thief, "kim").status_code == 200
    with srv.db.session() as s:
        link = people.signin_link(s, s.get(User, kim), f"{BASE}/")
    body = {"token": link.rsplit("/", 1)[1], "password": "a brand new password"}
    assert srv.browser().post("/api/signin-link", body).status_code == 200
    assert thief.get("/api/progress").status_code == 401


# --- 3. saved work -------------------------------------------------------------------------


def _stored_work_bytes(srv, user_id) -> int:
    size = (
        "length(CAST(work AS BLOB))" if srv.db.dialect == "sqlite" else "octet_length(work::text)"
    )
    with srv.db.session() as s:
        return s.scalar(text(f"SELECT {size} FROM progress WHERE user_id = :u"), {"u": user_id})


def test_many_revisions_keep_one_row_and_planted_keys_stay_the_planters(srv):
    """A learner PUTs 40 revisions, with `__proto__`, `constructor` and keys outside the
    course's namespace: one row is kept (no history grows), Bob reads none of it, and it
    comes back to Ada only as JSON data (the page then refuses such a file whole:
    transfer.js readWorkFile stops at the first key kindOf() does not know)."""
    class_a, _ = srv.new_class("A")
    ada = srv.signed_in("ada", class_a)
    bob = srv.signed_in("bob", class_a)
    token = ada.csrf()
    planted = {
        "format": "course-work",
        "__proto__": {"polluted": True},
        "constructor": {"prototype": {"polluted": True}},
        "items": {
            "__proto__": {"code": "<img src=x onerror=alert(1)>"},
            "../../other-course/v1/exercise/x.py": {"code": "x"},
            "exercise/day05_add_mul.py": {"code": "</script><script>alert(1)</script>"},
        },
    }
    revision = 0
    for _ in range(40):
        r = ada.put("/api/progress", {"revision": revision, "work": planted}, token=token)
        assert r.status_code == 200, r.text
        revision = r.json()["revision"]
    assert revision == 40
    with srv.db.session() as s:
        assert s.scalar(select(func.count()).select_from(Progress)) == 1
    back = ada.get("/api/progress")
    assert back.headers["content-type"].startswith("application/json")
    assert back.headers["x-content-type-options"] == "nosniff"
    assert back.json()["work"] == planted
    assert bob.get("/api/progress").json() == {"revision": 0, "work": None}
    # Bob cannot write over it with Ada's revision either: he writes his own row.
    r = bob.put("/api/progress", {"revision": 40, "work": {"format": "course-work"}})
    assert r.status_code == 409 and r.json() == {"revision": 0, "work": None}
    assert ada.get("/api/progress").json()["revision"] == 40


def test_saved_work_is_stored_within_its_5_mb(sqlite_srv):
    from server.api import MAX_WORK_BYTES

    srv = sqlite_srv
    class_a, _ = srv.new_class("A")
    ada = srv.signed_in("ada", class_a)
    code = "é" * ((MAX_WORK_BYTES - 4096) // 2)  # 2 bytes each in the body
    work = {"format": "course-work", "items": {"exercise/day05_add_mul.py": {"code": code}}}
    r = ada.put("/api/progress", {"revision": 0, "work": work})
    assert r.status_code == 200, r.text
    assert _stored_work_bytes(srv, ada.user_id) <= MAX_WORK_BYTES + 64 * 1024


# --- 4. an instructor of A against class B; regrade storms ---------------------------------


def _instructor(srv, login, class_id):
    b = srv.signed_in(login, class_id, role="instructor")
    b.token = b.csrf()
    return b


def test_a_learner_of_both_classes_is_seen_by_each_instructor_in_their_class_only(srv):
    """Carl learns in A and B (the admin's `add_existing`): Ines, who teaches A, reaches
    his class-B work through no id of any instructor URL, and her regrade leaves it."""
    class_a, _ = srv.new_class("A")
    class_b, _ = srv.new_class("B")
    ines = _instructor(srv, "ines", class_a)
    carl = srv.new_user("carl", class_b)
    with srv.db.session() as s:
        people.add_existing(s, _course(s, class_a), "carl")
    in_a = store(srv.db, carl, class_a, state="graded", score=1.0, max_score=3.0, feedback="A")
    in_b = store(
        srv.db, carl, class_b, code=b"SECRET_B = 1\n", state="graded", score=3.0, max_score=3.0
    )
    got = ines.get(f"/instructor/classes/{class_a}/learners/{carl}.json")
    assert got.status_code == 200
    assert in_b not in got.text and in_a in got.text and "SECRET_B" not in got.text
    for url in [
        f"/instructor/classes/{class_b}/learners/{carl}.json",
        f"/instructor/classes/{class_b}",
        f"/instructor/classes/{class_b}/gradebook.csv",
        f"/instructor/submissions/{in_b}",
    ]:
        assert ines.get(url).status_code == 404, url
    assert ines.get(f"/api/submissions/{in_b}").status_code == 404
    assert "SECRET_B" not in ines.get(f"/instructor/submissions/{in_a}").text
    form = {"exercise": ADD_MUL, "csrf": ines.token}
    r = ines.client.post(
        f"/instructor/classes/{class_b}/regrade", data=form, follow_redirects=False
    )
    assert r.status_code == 404
    r = ines.client.post(
        f"/instructor/classes/{class_a}/regrade", data=form, follow_redirects=False
    )
    assert r.status_code == 303
    assert row(srv.db, in_a).state == "queued"
    kept = row(srv.db, in_b)
    assert (kept.state, kept.score, kept.regrade_id) == ("graded", 3.0, None)


def _course(s, class_id):
    from server.models import Course as CourseRow

    return s.get(CourseRow, class_id)


def _storm(srv, ines, class_a, n=12):
    url = f"/instructor/classes/{class_a}/regrade"
    codes, lock = [], threading.Lock()

    def one():
        r = ines.client.post(
            url, data={"exercise": ADD_MUL, "csrf": ines.token}, follow_redirects=False
        )
        with lock:
            codes.append((r.status_code, r.headers.get("location", "")))

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


def test_a_regrade_storm_grades_each_submission_once_and_drops_the_old_result(srv):
    """Twelve regrades of one exercise at once, while a worker holds one of its jobs:
    no request fails, every submission is queued once for the last regrade, the old
    worker's result is dropped, two workers racing for each job store one result."""
    class_a, _ = srv.new_class("A")
    ines = _instructor(srv, "ines", class_a)
    learners = [srv.new_user(f"learner{i}", class_a) for i in range(3)]
    ids = [
        store(srv.db, u, class_a, state="graded", score=3.0, max_score=3.0, attempts=1)
        for u in learners
    ]
    held = store(srv.db, learners[0], class_a, state="queued")
    old_token = jobs.claim(srv.db, held, 30)
    ids.append(held)
    codes = _storm(srv, ines, class_a)
    assert {c for c, _ in codes} == {303}, codes
    with srv.db.session() as s:
        assert s.scalar(select(func.count()).select_from(Regrade)) == 12
    # On PostgreSQL the regrade that commits last is not always the newest id: all the
    # submissions still end up in one regrade (the others are the overtaken-regrade break).
    holders = {row(srv.db, sub_id).regrade_id for sub_id in ids}
    assert len(holders) == 1 and None not in holders
    last = holders.pop()
    for sub_id in ids:
        sub = row(srv.db, sub_id)
        assert (sub.state, sub.attempts, sub.score) == ("queued", 0, None)
    assert not jobs.finish(srv.db, held, old_token, {"state": "graded", "score": 99.0})
    for sub_id in ids:
        tokens = [jobs.claim(srv.db, sub_id, 30), jobs.claim(srv.db, sub_id, 30)]
        winners = [t for t in tokens if t]
        assert len(winners) == 1
        assert jobs.finish(
            srv.db, sub_id, winners[0], {"state": "graded", "score": 2.0, "max_score": 3.0}
        )
    for sub_id in ids:
        sub = row(srv.db, sub_id)
        assert (sub.state, sub.score, sub.attempts) == ("graded", 2.0, 1)
    assert ines.get(f"/api/regrades/{last}").json() == {"total": 4, "done": 4, "state": "done"}


def test_an_overtaken_regrade_says_which_took_it_over(sqlite_srv):
    srv = sqlite_srv
    class_a, _ = srv.new_class("A")
    ines = _instructor(srv, "ines", class_a)
    sub_id = store(srv.db, srv.new_user("ada", class_a), class_a, state="graded", score=1.0)
    first, second = (int(_storm(srv, ines, class_a, n=1)[0][1].rsplit("/", 1)[1]) for _ in range(2))
    token = jobs.claim(srv.db, sub_id, 30)
    assert jobs.finish(srv.db, sub_id, token, {"state": "graded", "score": 3.0})
    assert ines.get(f"/api/regrades/{second}").json()["state"] == "done"
    # The first is not left "running" forever: it says the second took it over.
    older = ines.get(f"/api/regrades/{first}").json()
    assert older["state"] == "overtaken" and older["newer"] == second
    page = ines.get(f"/instructor/regrades/{first}")
    assert f'href="/instructor/regrades/{second}"' in page.text


# --- 5. where sign-in sends the learner ---------------------------------------------------


def _settings(tmp_path, **env):
    return Settings.from_env({"COURSE_DATA_DIR": str(tmp_path), "SECRET_KEY": "s" * 40, **env})


@pytest.mark.parametrize(
    "course_url",
    [
        "https://you.github.io@evil.example/course/",
        "https://evil.example/#https://you.github.io/",
        "javascript:alert(1)//https://you.github.io/",
        "//evil.example/course/",
        "https://you.github.io.evil.example/",
        "http://you.github.io/course/",  # same host, another scheme: another origin
    ],
)
def test_a_course_url_off_the_cors_origin_is_refused(tmp_path, course_url):
    with pytest.raises(ConfigError):
        _settings(
            tmp_path,
            PUBLIC_URL="https://course.example.org/",
            CORS_ORIGIN="https://you.github.io",
            COURSE_URL=course_url,
        )


def test_a_plain_http_course_site_is_refused_for_an_https_server(tmp_path):
    with pytest.raises(ConfigError):
        _settings(
            tmp_path,
            PUBLIC_URL="https://course.example.org/",
            CORS_ORIGIN="http://you.github.io",
            COURSE_URL="http://you.github.io/course/",
        )


@pytest.mark.parametrize(
    "query",
    [
        "next=//evil.example/",
        "next=%0d%0aLocation:%20https://evil.example/",
        "next=https://evil.example/&x=%0d%0aSet-Cookie:%20a=b",
        "/../..//evil.example",
    ],
)
def test_signin_without_a_slash_stays_on_the_signin_page(sqlite_srv, query):
    r = sqlite_srv.browser().get(f"/signin?{query}", follow_redirects=False)
    assert r.status_code == 307
    location = r.headers["location"]
    assert location.startswith("/signin/?") and "\r" not in location and "\n" not in location
    assert "set-cookie" not in r.headers


def test_the_signin_page_carries_course_url_and_origin_escaped(tmp_path):
    server = make_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'course.db'}",
        PUBLIC_URL="https://course.example.org/",
        CORS_ORIGIN="https://you.github.io",
        COURSE_URL='https://you.github.io/c"><script>x</script>/',
    )
    try:
        page = server.browser(base_url="https://course.example.org").get("/signin/").text
        assert "<script>x</script>" not in page
        assert 'data-course-origin="https://you.github.io"' in page
    finally:
        server.db.dispose()

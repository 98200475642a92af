"""The learner's API as the contract (server/README.md) says, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import threading
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from server import people
from server.models import Deadline, Progress, SignInLink, Submission, now
from server.security import SESSION_COOKIE

from .client import CODE, EXERCISE, PASSWORD, make_server


@pytest.fixture
def srv(tmp_path, database_url):
    server = make_server(tmp_path, database_url)
    yield server
    server.db.dispose()


def _work(text="x = 1"):
    return {"format": "course-work", "files": {"day05_add_mul.py": text}}


# --- session, join, sign-in, sign-out ----------------------------------------------------


def test_session_gives_a_csrf_token_and_no_user(srv):
    r = srv.browser().get("/api/session")
    assert r.status_code == 200
    assert r.json()["user"] is None
    assert len(r.json()["csrf"]) >= 32
    assert "course_csrf" in r.cookies


def test_join_with_the_invite_code_signs_in(srv):
    class_id, code = srv.new_class()
    b = srv.browser()
    r = b.post(
        "/api/join",
        {"invite_code": code.upper(), "login": "ada", "name": "Ada L", "password": PASSWORD},
    )
    assert r.status_code == 200, r.text
    assert r.json()["user"]["login"] == "ada"
    assert r.json()["user"]["classes"] == [{"id": class_id, "name": "Class A", "role": "learner"}]
    me = b.get("/api/session").json()["user"]
    assert me["login"] == "ada" and me["classes"][0]["id"] == class_id


@pytest.mark.parametrize(
    "change, word",
    [
        ({"invite_code": "nosuchcode12"}, "invite"),
        ({"login": "taken"}, "taken"),
        ({"password": "short"}, "password"),
        ({"login": "no spaces!"}, "login"),
        ({"name": ""}, "name"),
    ],
)
def test_join_refused_with_a_clear_message(srv, change, word):
    class_id, code = srv.new_class()
    srv.new_user("taken", class_id)
    body = {"invite_code": code, "login": "newbie", "name": "New", "password": PASSWORD}
    r = srv.browser().post("/api/join", {**body, **change})
    assert r.status_code == 400
    assert word in r.json()["error"].lower()
    with srv.db.session() as s:
        assert s.scalar(select(people.User).where(people.User.login == "newbie")) is None


def test_signin_right_and_wrong_password(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id)
    b = srv.browser()
    wrong = b.post("/api/signin", {"login": "ada", "password": PASSWORD + "x"})
    assert wrong.status_code == 401 and "error" in wrong.json()
    assert SESSION_COOKIE not in wrong.cookies
    unknown = b.post("/api/signin", {"login": "nobody", "password": PASSWORD})
    assert unknown.status_code == 401
    right = b.post("/api/signin", {"login": " ADA ", "password": PASSWORD})
    assert right.status_code == 200
    assert right.json()["user"]["login"] == "ada"
    assert b.get("/api/session").json()["user"]["login"] == "ada"


def _link_token(srv, login) -> str:
    with srv.db.session() as s:
        user = s.scalar(select(people.User).where(people.User.login == login))
        return people.signin_link(s, user, srv.settings.public_url).rsplit("/", 1)[-1]


def test_signin_link_works_once(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id, password=False)
    token = _link_token(srv, "ada")
    first = srv.browser().post("/api/signin-link", {"token": token})
    assert first.status_code == 200 and first.json()["user"]["login"] == "ada"
    again = srv.browser().post("/api/signin-link", {"token": token})
    assert again.status_code == 400 and SESSION_COOKIE not in again.cookies


def test_signin_link_used_expired_and_made_up_are_refused_alike(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id, password=False)
    used, expired = _link_token(srv, "ada"), _link_token(srv, "ada")
    assert srv.browser().post("/api/signin-link", {"token": used}).status_code == 200
    with srv.db.session() as s:
        s.execute(
            update(SignInLink)
            .where(SignInLink.token_hash == hashlib.sha256(expired.encode()).hexdigest())
            .values(expires_at=now() - timedelta(seconds=1))
        )
    answers = [
        srv.browser().post("/api/signin-link", {"token": t})
        for t in (used, expired, "made-up-token", "x" * 5000)
    ]
    assert {r.status_code for r in answers} == {400}
    assert len({r.json()["error"] for r in answers}) == 1


def test_signin_link_can_set_a_password(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id, password=False)
    token = _link_token(srv, "ada")
    r = srv.browser().post("/api/signin-link", {"token": token, "password": "a new password"})
    assert r.status_code == 200
    signin = srv.browser().post("/api/signin", {"login": "ada", "password": "a new password"})
    assert signin.status_code == 200


def test_signout_ends_the_session(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    old = b.client.cookies.get(SESSION_COOKIE)
    assert b.get("/api/progress").status_code == 200
    assert b.post("/api/signout").status_code == 200
    assert b.get("/api/session").json()["user"] is None
    replay = srv.browser()
    replay.client.cookies.set(SESSION_COOKIE, old, domain="127.0.0.1")
    assert replay.get("/api/session").json()["user"] is None
    assert replay.get("/api/progress").status_code == 401
    # Signed out, the browser can sign in again with the token /api/session gives.
    assert b.post("/api/signin", {"login": "ada", "password": PASSWORD}).status_code == 200


# --- submissions -----------------------------------------------------------------------


def test_submit_stores_the_row_before_answering(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    code = CODE + "# é ü 🙂\n"
    r = b.submit(code)
    assert r.status_code == 202, r.text
    sub = r.json()["submission"]
    assert sub["state"] == "queued" and sub["class_id"] == class_id and sub["late"] is False
    assert sub["score"] is None and sub["exercise"] == EXERCISE
    with srv.db.session() as s:
        row = s.get(Submission, sub["id"])
        assert row is not None
        assert row.code == code.encode()
        assert row.sha256 == hashlib.sha256(code.encode()).hexdigest()
        assert row.state == "queued" and row.user_id == b.user_id


def test_submit_refuses_an_unknown_exercise_and_missing_code(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    assert b.submit(exercise="../../etc/passwd").status_code == 400
    assert b.submit(exercise="day99_nothing.py").status_code == 400
    assert b.post("/api/submissions", {"exercise": EXERCISE}).status_code == 400
    assert b.submit(code=12).status_code == 400
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_submit_signed_out_is_401(srv):
    srv.new_class()
    assert srv.browser().submit().status_code == 401


def test_list_is_own_submissions_newest_first(srv):
    class_id, _ = srv.new_class()
    ada, bob = srv.signed_in("ada", class_id), srv.signed_in("bob", class_id)
    ids = [ada.submit(CODE + f"# {i}\n").json()["submission"]["id"] for i in range(3)]
    bob.submit()
    other = ada.submit(exercise="day03_value.py").json()["submission"]["id"]
    listed = [s["id"] for s in ada.get("/api/submissions").json()["submissions"]]
    assert listed == [other, *reversed(ids)]
    only = ada.get("/api/submissions", params={"exercise": EXERCISE}).json()["submissions"]
    assert [s["id"] for s in only] == list(reversed(ids))
    assert "code" not in only[0]


def test_read_one_gives_the_code(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    sid = b.submit().json()["submission"]["id"]
    r = b.get(f"/api/submissions/{sid}")
    assert r.status_code == 200
    assert r.json()["submission"]["code"] == CODE and r.json()["submission"]["id"] == sid
    assert b.get("/api/submissions/no-such-id").status_code == 404


def test_submit_to_one_of_several_classes(srv):
    a, _ = srv.new_class("A")
    b_id, _ = srv.new_class("B")
    b = srv.signed_in("ada", a)
    with srv.db.session() as s:
        s.add(people.Membership(user_id=b.user_id, class_id=b_id, role="learner"))
    assert b.submit().status_code == 400  # which class?
    r = b.submit(class_id=b_id)
    assert r.status_code == 202 and r.json()["submission"]["class_id"] == b_id


# --- deadlines -------------------------------------------------------------------------


def _deadline(srv, class_id, policy, hours=-1, penalty=0):
    with srv.db.session() as s:
        s.add(
            Deadline(
                class_id=class_id,
                exercise=EXERCISE,
                due_at=now() + timedelta(hours=hours),
                late_policy=policy,
                penalty_percent=penalty,
            )
        )


def test_deadline_accept_marks_late(srv):
    class_id, _ = srv.new_class()
    _deadline(srv, class_id, "accept")
    r = srv.signed_in("ada", class_id).submit()
    assert r.status_code == 202 and r.json()["submission"]["late"] is True


def test_deadline_not_yet_passed_is_not_late(srv):
    class_id, _ = srv.new_class()
    _deadline(srv, class_id, "refuse", hours=+1)
    r = srv.signed_in("ada", class_id).submit()
    assert r.status_code == 202 and r.json()["submission"]["late"] is False


def test_deadline_refuse_is_403_with_the_deadline(srv):
    class_id, _ = srv.new_class()
    _deadline(srv, class_id, "refuse")
    with srv.db.session() as s:
        due = s.get(Deadline, (class_id, EXERCISE)).due_at
    r = srv.signed_in("ada", class_id).submit()
    assert r.status_code == 403
    assert due.strftime("%Y-%m-%d") in r.json()["error"]
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_deadline_penalty_marks_late(srv):
    class_id, _ = srv.new_class()
    _deadline(srv, class_id, "penalty", penalty=20)
    r = srv.signed_in("ada", class_id).submit()
    assert r.status_code == 202 and r.json()["submission"]["late"] is True
    with srv.db.session() as s:
        assert s.get(Submission, r.json()["submission"]["id"]).late is True


# --- progress --------------------------------------------------------------------------


def test_progress_revisions(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    assert b.get("/api/progress").json() == {"revision": 0, "work": None}
    assert b.put("/api/progress", {"revision": 0, "work": _work("a")}).json() == {"revision": 1}
    assert b.put("/api/progress", {"revision": 1, "work": _work("b")}).json() == {"revision": 2}
    assert b.get("/api/progress").json() == {"revision": 2, "work": _work("b")}
    stale = b.put("/api/progress", {"revision": 1, "work": _work("c")})
    assert stale.status_code == 409
    assert stale.json() == {"revision": 2, "work": _work("b")}
    first_again = b.put("/api/progress", {"revision": 0, "work": _work("d")})
    assert first_again.status_code == 409 and first_again.json()["revision"] == 2


def test_progress_is_per_learner(srv):
    class_id, _ = srv.new_class()
    ada, bob = srv.signed_in("ada", class_id), srv.signed_in("bob", class_id)
    ada.put("/api/progress", {"revision": 0, "work": _work("ada's")})
    assert bob.get("/api/progress").json() == {"revision": 0, "work": None}


def test_progress_first_write_of_another_browser_is_409(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    assert b.put("/api/progress", {"revision": 0, "work": _work("a")}).status_code == 200
    r = b.put("/api/progress", {"revision": 0, "work": _work("b")})
    assert r.status_code == 409 and r.json() == {"revision": 1, "work": _work("a")}


def test_progress_refuses_what_is_not_saved_work(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    for body in (
        {"revision": 0, "work": {"format": "other"}},
        {"revision": "0", "work": _work()},
        {"revision": 0, "work": [1]},
        {"revision": 0},
    ):
        r = b.put("/api/progress", body)
        assert r.status_code == 400 and r.json()["error"], body
    assert b.get("/api/progress").json()["work"] is None


def test_progress_two_first_writes_at_once_never_fail(srv, monkeypatch):
    """Both browsers read "no row" and insert: the one that loses answers 409, never 500."""
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id, raise_server_exceptions=False)
    token = b.csrf()
    real_get = type(srv.db.sessions()).get
    barrier = threading.Barrier(2, timeout=10)
    waits = [1, 1]  # the first read of each request waits for the other's

    def get_then_wait(self, entity, ident, **kw):
        found = real_get(self, entity, ident, **kw)
        if entity is Progress and waits:
            waits.pop()
            try:
                barrier.wait()  # both requests have seen "no progress yet"
            except threading.BrokenBarrierError:
                pass
        return found

    if srv.db.dialect == "sqlite":
        # SQLite's BEGIN IMMEDIATE puts the two requests one after the other: the second
        # reads the first one's row, so there is no race to make; check the answer only.
        answers = [
            b.put("/api/progress", {"revision": 0, "work": _work(w)}, token=token) for w in "ab"
        ]
    else:
        monkeypatch.setattr(type(srv.db.sessions()), "get", get_then_wait)
        answers = [None, None]

        def put(i, text):
            answers[i] = b.put("/api/progress", {"revision": 0, "work": _work(text)}, token=token)

        threads = [threading.Thread(target=put, args=(i, w)) for i, w in enumerate("ab")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    lost = next(r for r in answers if r.status_code == 409)
    assert lost.json()["revision"] == 1
    assert lost.json()["work"] == b.get("/api/progress").json()["work"]


def test_progress_up_to_5_MB_is_kept(srv):
    """Saved work may be as big as web/transfer.js lets a file of work be (5 MB)."""
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    big = _work("#" * (4 * 2**20))
    r = b.put("/api/progress", {"revision": 0, "work": big})
    assert r.status_code == 200, r.text
    assert b.get("/api/progress").json()["work"] == big
    too_big = b.put("/api/progress", {"revision": 1, "work": _work("#" * (6 * 2**20))})
    assert too_big.status_code == 413 and too_big.json()["error"]
    assert b.get("/api/progress").json()["revision"] == 1
    # Other requests keep the smaller cap.
    assert b.submit(code="#" * (2 * 2**20)).status_code == 413

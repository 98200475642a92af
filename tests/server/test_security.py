"""Attacks on the server that must fail, each a test named for it (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import gzip
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select

from server.config import ConfigError, Settings
from server.models import SignInSession, Submission
from server.security import CSRF_COOKIE, SESSION_COOKIE, token_hash

from .client import CODE, EXERCISE, PASSWORD, SECRET, make_server


@pytest.fixture
def srv(tmp_path, database_url):
    server = make_server(tmp_path, database_url)
    yield server
    server.db.dispose()


def _no_traceback(r):
    assert "Traceback" not in r.text and 'File "' not in r.text
    assert r.headers["content-type"].startswith("application/json")
    assert isinstance(r.json()["error"], str) and r.json()["error"]


# --- reading and writing what is someone else's ----------------------------------------


def test_read_another_learners_submission_by_id(srv):
    class_id, _ = srv.new_class()
    ada, eve = srv.signed_in("ada", class_id), srv.signed_in("eve", class_id)
    sid = ada.submit().json()["submission"]["id"]
    r = eve.get(f"/api/submissions/{sid}")
    assert r.status_code == 404  # not 403: an id says nothing about whose it is
    assert eve.get("/api/submissions/no-such-id").json() == r.json()
    assert eve.get("/api/submissions").json()["submissions"] == []
    assert CODE not in r.text


def test_read_a_submission_signed_out(srv):
    class_id, _ = srv.new_class()
    sid = srv.signed_in("ada", class_id).submit().json()["submission"]["id"]
    assert srv.browser().get(f"/api/submissions/{sid}").status_code == 401
    assert srv.browser().get("/api/submissions").status_code == 401


def test_instructor_of_another_class_reads_a_submission(srv):
    a, _ = srv.new_class("A")
    b, _ = srv.new_class("B")
    sid = srv.signed_in("ada", b).submit().json()["submission"]["id"]
    other = srv.signed_in("prof_a", a, role="instructor")
    assert other.get(f"/api/submissions/{sid}").status_code == 404
    own = srv.signed_in("prof_b", b, role="instructor")
    assert own.get(f"/api/submissions/{sid}").json()["submission"]["code"] == CODE


@pytest.mark.parametrize("forge", ["random", "hash_of_another", "truncated", "extended", "huge"])
def test_forged_session_cookie(srv, forge):
    class_id, _ = srv.new_class()
    ada = srv.signed_in("ada", class_id)
    real = ada.client.cookies.get(SESSION_COOKIE)
    forged = {
        "random": "A" * 43,
        "hash_of_another": token_hash(real),  # what the sessions table holds
        "truncated": real[:-1],
        "extended": real + "x",
        "huge": real * 200,
    }[forge]
    with srv.db.session() as s:
        assert s.get(SignInSession, token_hash(real)) is not None
    eve = srv.browser()
    eve.client.cookies.set(SESSION_COOKIE, forged, domain="127.0.0.1")
    assert eve.get("/api/session").json()["user"] is None
    assert eve.get("/api/progress").status_code == 401
    assert eve.get("/api/submissions").status_code == 401
    assert eve.submit().status_code in (401, 403)
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_dead_session_cookie_does_not_lock_the_browser_out(srv):
    """A browser whose session ended on the server (expired, removed, forged) still has
    the cookie: /api/session says signed out, and the token it gives must let it sign in."""
    class_id, _ = srv.new_class()
    ada = srv.signed_in("ada", class_id)
    with srv.db.session() as s:
        s.delete(s.get(SignInSession, token_hash(ada.client.cookies.get(SESSION_COOKIE))))
    assert ada.get("/api/session").json()["user"] is None
    r = ada.post("/api/signin", {"login": "ada", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert ada.get("/api/session").json()["user"]["login"] == "ada"


def test_submit_for_another_class(srv):
    mine, _ = srv.new_class("Mine")
    theirs, _ = srv.new_class("Theirs")
    ada = srv.signed_in("ada", mine)
    r = ada.submit(class_id=theirs)
    assert r.status_code == 403 and r.json()["error"]
    for bad in ("1", True, 9999, [mine], 1.0 * mine):
        assert ada.submit(class_id=bad).status_code in (400, 403), bad
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_submit_as_another_user(srv):
    class_id, _ = srv.new_class()
    ada, bob = srv.signed_in("ada", class_id), srv.signed_in("bob", class_id)
    r = ada.submit(user_id=bob.user_id, id="chosen-id", state="graded", score=100, late=False)
    assert r.status_code == 202
    with srv.db.session() as s:
        (row,) = s.scalars(select(Submission)).all()
    assert row.user_id == ada.user_id and row.id != "chosen-id"
    assert row.state == "queued" and row.score is None
    assert bob.get("/api/submissions").json()["submissions"] == []


def test_instructor_submits_to_the_class_they_teach(srv):
    class_id, _ = srv.new_class()
    prof = srv.signed_in("prof", class_id, role="instructor")
    assert prof.submit(class_id=class_id).status_code == 403


# --- CSRF --------------------------------------------------------------------------------


def _post_and_put(b, token, headers=None):
    headers = headers or {}
    return [
        b.post("/api/submissions", {"exercise": EXERCISE, "code": CODE}, token, headers=headers),
        b.put(
            "/api/progress",
            {"revision": 0, "work": {"format": "course-work"}},
            token,
            headers=headers,
        ),
        b.post("/api/signout", {}, token, headers=headers),
    ]


def _nothing_changed(srv, b):
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []
    assert b.get("/api/progress").json()["revision"] == 0
    assert b.get("/api/session").json()["user"] is not None  # not signed out


def test_csrf_without_the_token(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    for token in ("", "0" * 64):
        assert [r.status_code for r in _post_and_put(b, token)] == [403] * 3
    plain = b.client.post("/api/submissions", json={"exercise": EXERCISE, "code": CODE})
    assert plain.status_code == 403
    _nothing_changed(srv, b)


def test_csrf_with_another_sessions_token(srv):
    class_id, _ = srv.new_class()
    ada, eve = srv.signed_in("ada", class_id), srv.signed_in("eve", class_id)
    assert [r.status_code for r in _post_and_put(ada, eve.csrf())] == [403] * 3
    _nothing_changed(srv, ada)


def test_csrf_with_the_anonymous_token_after_signing_in(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id)
    b = srv.browser()
    anonymous = b.csrf()
    assert b.client.cookies.get(CSRF_COOKIE)
    assert (
        b.post("/api/signin", {"login": "ada", "password": PASSWORD}, anonymous).status_code == 200
    )
    assert [r.status_code for r in _post_and_put(b, anonymous)] == [403] * 3
    _nothing_changed(srv, b)


def test_csrf_with_a_token_made_with_another_secret(srv):
    import hmac

    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    seed = b.client.cookies.get(SESSION_COOKIE)
    guess = hmac.new(b"x" * 40, b"csrf:" + seed.encode(), "sha256").hexdigest()
    assert [r.status_code for r in _post_and_put(b, guess)] == [403] * 3


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1:8001"])
def test_csrf_from_a_foreign_origin(srv, origin):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    answers = _post_and_put(b, b.csrf(), {"Origin": origin})
    assert [r.status_code for r in answers] == [403] * 3
    _nothing_changed(srv, b)
    # The same requests from the course's own origin go through.
    ok = b.submit(headers={"Origin": "http://127.0.0.1:8000"})
    assert ok.status_code == 202


def test_csrf_on_signin_and_join(srv):
    class_id, code = srv.new_class()
    srv.new_user("ada", class_id)
    b = srv.browser()
    assert b.post("/api/signin", {"login": "ada", "password": PASSWORD}, "").status_code == 403
    join = {"invite_code": code, "login": "eve", "name": "Eve", "password": PASSWORD}
    assert b.post("/api/join", join, "bad").status_code == 403
    assert b.get("/api/session").json()["user"] is None


# --- bodies: size, compression, shape -------------------------------------------------------


def _asgi(app, method, path, headers, chunks):
    """Call the app directly; how many body bytes it read, and the answer's status."""
    read = 0
    sent = []
    source = iter(chunks)

    async def receive():
        nonlocal read
        chunk = next(source, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    # In a thread of its own: Playwright's tests leave an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], read, body


def _endless(size, total):
    sent = 0
    while sent < total:
        yield b"a" * size
        sent += size


def test_a_100_mb_body_with_its_content_length(srv):
    status, read, body = _asgi(
        srv.app,
        "POST",
        "/api/submissions",
        {"content-type": "application/json", "content-length": str(100 * 2**20)},
        _endless(2**16, 100 * 2**20),
    )
    assert status == 413 and read == 0
    assert json.loads(body)["error"]


def test_a_100_mb_chunked_body_without_content_length(srv):
    status, read, body = _asgi(
        srv.app,
        "POST",
        "/api/submissions",
        {"content-type": "application/json", "transfer-encoding": "chunked"},
        _endless(2**16, 100 * 2**20),
    )
    assert status == 413
    assert read <= srv.settings.max_body_bytes + 2**16
    assert json.loads(body)["error"]


def test_a_100_mb_body_through_the_client(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    r = b.post(
        "/api/submissions",
        content=b"{" + b" " * (3 * 2**20),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413
    _no_traceback(r)


def test_a_gzip_bomb(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    bomb = gzip.compress(b'{"exercise": "day05_add_mul.py", "code": "' + b"a" * 50_000_000 + b'"}')
    assert len(bomb) < srv.settings.max_body_bytes
    for encoding in ("gzip", "deflate", "br", "GZIP"):
        r = b.post(
            "/api/submissions",
            content=bomb,
            headers={"Content-Encoding": encoding, "Content-Type": "application/json"},
        )
        assert r.status_code == 415, encoding
        _no_traceback(r)
    with srv.db.session() as s:
        assert s.scalars(select(Submission)).all() == []


def test_code_over_256_kB(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    r = b.submit(code="#" * (256 * 1024 + 1))
    assert r.status_code == 413
    _no_traceback(r)
    assert "256" in r.json()["error"]
    # Multi-byte text counts in bytes: 100 000 four-byte characters are 400 kB.
    assert b.submit(code="🙂" * 100_000).status_code == 413
    assert b.submit(code="#" * (256 * 1024)).status_code == 202


@pytest.mark.parametrize(
    "path, method",
    [
        ("/api/submissions", "post"),
        ("/api/progress", "put"),
        ("/api/signin", "post"),
        ("/api/join", "post"),
        ("/api/signin-link", "post"),
    ],
)
def test_bodies_that_are_not_what_is_asked(srv, path, method):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    token = b.csrf()
    send = getattr(b.client, method)
    bodies = [
        b"",
        b"not json",
        b"{",
        b"\xff\xfe\x00",
        b"[1, 2]",
        b'"a string"',
        b"null",
        b"12",
        b'{"exercise": 5, "code": ["x"], "login": {}, "password": 1, "revision": "x", '
        b'"work": 3, "invite_code": null, "name": [], "token": 7}',
        b'{"exercise": [], "code": {}, "login": [], "password": [], "revision": 1e400, '
        b'"work": [], "token": [], "invite_code": 1, "name": 2}',
        b'{"revision": 99999999999999999999999999999, "work": {"format": "course-work"}}',
        b'{"revision": -1, "work": {"format": "course-work"}}',
        b'{"exercise": "day05_add_mul.py", "code": "\\ud800"}',
        b"[" * 100_000,
    ]
    saved = {"revision": 0, "work": {"format": "course-work"}}
    assert b.put("/api/progress", saved, token).status_code == 200  # a revision to be stale
    for body in bodies:
        r = send(path, content=body, headers={"X-CSRF-Token": token})
        assert r.status_code in (400, 401, 409, 413), (body[:60], r.status_code, r.text)
        if r.status_code == 409:  # a stale revision: the progress stored, as the contract says
            assert r.json() == {"revision": 1, "work": {"format": "course-work"}}
        else:
            _no_traceback(r)


# --- brute force and rate limits ------------------------------------------------------


def test_brute_force_one_login(srv):
    class_id, _ = srv.new_class()
    srv.new_user("ada", class_id)
    b = srv.browser()
    token = b.csrf()
    answers = [
        b.post("/api/signin", {"login": "ada", "password": f"guess {i}"}, token).status_code
        for i in range(srv.settings.signin_per_minute)
    ]
    assert answers == [401] * srv.settings.signin_per_minute
    right = b.post("/api/signin", {"login": "ADA", "password": PASSWORD}, token)
    assert right.status_code == 429
    _no_traceback(right)
    assert SESSION_COOKIE not in right.cookies


def test_brute_force_spread_over_many_logins(srv):
    srv.new_class()
    b = srv.browser()
    token = b.csrf()
    codes = [
        b.post("/api/signin", {"login": f"user{i}", "password": "guess"}, token).status_code
        for i in range(srv.settings.signin_per_address_per_minute + 1)
    ]
    assert codes[-1] == 429
    assert set(codes[:-1]) == {401}


def test_a_class_behind_one_address_signs_in_at_once(srv):
    """Thirty learners of one school (one address) all sign in in the same minute."""
    class_id, _ = srv.new_class()
    for i in range(30):
        srv.new_user(f"learner{i}", class_id)
    codes = []
    for i in range(30):
        b = srv.browser()
        codes.append(
            b.post(
                "/api/signin", {"login": f"learner{i}", "password": PASSWORD}, b.csrf()
            ).status_code
        )
    assert codes == [200] * 30


def test_submit_rate_limit(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    token = b.csrf()
    body = {"exercise": EXERCISE, "code": CODE}
    codes = [
        b.post("/api/submissions", body, token).status_code
        for _ in range(srv.settings.submit_per_minute + 1)
    ]
    assert codes == [202] * srv.settings.submit_per_minute + [429]
    with srv.db.session() as s:
        assert len(s.scalars(select(Submission)).all()) == srv.settings.submit_per_minute
    # Another learner is not held back by the first one's submissions.
    assert srv.signed_in("bob", class_id).submit().status_code == 202


# --- instructor pages -------------------------------------------------------------------


def test_learner_reaches_no_instructor_url(srv):
    class_id, _ = srv.new_class()
    ada = srv.signed_in("ada", class_id)
    sid = ada.submit().json()["submission"]["id"]
    token = ada.csrf()
    gets = [
        "/api/regrades/1",
        "/instructor/",
        f"/instructor/classes/{class_id}",
        f"/instructor/classes/{class_id}/gradebook.csv",
        f"/instructor/classes/{class_id}/learners/{ada.user_id}.json",
        f"/instructor/submissions/{sid}",
    ]
    for url in gets:
        assert ada.get(url).status_code in (401, 403, 404), url
        # Signed out: refused, or sent to the sign-in page (never the page itself).
        answer = srv.browser().get(url, follow_redirects=False)
        sent_to_signin = answer.status_code == 303 and answer.headers["location"].startswith(
            "/signin/"
        )
        assert answer.status_code in (401, 403, 404) or sent_to_signin, url
    r = ada.client.post(
        f"/instructor/classes/{class_id}/regrade",
        data={"exercise": EXERCISE, "csrf": token},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code in (401, 403, 404, 405)


# --- cookies, configuration, errors -------------------------------------------------------


def _set_cookies(response) -> dict[str, str]:
    found = {}
    for header in response.headers.get_list("set-cookie"):
        found[header.split("=", 1)[0]] = header.lower()
    return found


def test_cookies_are_httponly_and_samesite(srv):
    class_id, code = srv.new_class()
    b = srv.browser()
    anon = _set_cookies(b.get("/api/session"))[CSRF_COOKIE]
    join = {"invite_code": code, "login": "ada", "name": "Ada", "password": PASSWORD}
    session = _set_cookies(b.post("/api/join", join))[SESSION_COOKIE]
    for cookie in (anon, session):
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert "secure" not in cookie  # plain http on loopback


def test_cookies_are_secure_on_https(tmp_path, database_url):
    srv = make_server(tmp_path, database_url, PUBLIC_URL="https://course.example.org/")
    try:
        class_id, code = srv.new_class()
        b = srv.browser(base_url="https://course.example.org")
        anon = _set_cookies(b.get("/api/session"))[CSRF_COOKIE]
        join = {"invite_code": code, "login": "ada", "name": "Ada", "password": PASSWORD}
        r = b.post("/api/join", join, headers={"Origin": "https://course.example.org"})
        assert r.status_code == 200
        session = _set_cookies(r)[SESSION_COOKIE]
        for cookie in (anon, session):
            assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        # The course's loopback address is a foreign origin here.
        foreign = b.submit(headers={"Origin": "http://127.0.0.1:8000"})
        assert foreign.status_code == 403
    finally:
        srv.db.dispose()


@pytest.mark.parametrize(
    "url",
    [
        "http://example.org/",
        "http://10.0.0.5:8000/",
        "http://127.0.0.1.example.org/",
        "ftp://x/",
        "course",
    ],
)
def test_plain_http_off_loopback_is_refused(tmp_path, url):
    with pytest.raises(ConfigError):
        Settings.from_env(
            {"COURSE_DATA_DIR": str(tmp_path), "SECRET_KEY": SECRET, "PUBLIC_URL": url}
        )


def test_errors_are_json_without_a_traceback(srv, monkeypatch):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id, raise_server_exceptions=False)
    for r in (
        b.get("/api/no-such-thing"),
        b.client.delete("/api/submissions"),
        b.get("/api/submissions/x"),
    ):
        assert r.status_code in (404, 405)
        _no_traceback(r)

    def broken(*args, **kwargs):
        raise RuntimeError("secret detail of the failure /srv/app.py")

    monkeypatch.setattr(srv.app.state.queue, "send", broken)
    r = b.submit()
    assert r.status_code == 500
    _no_traceback(r)
    assert "secret detail" not in r.text


@pytest.mark.parametrize(
    "login",
    ["ada\x00", "\x00", "a" * 10_000, "ada\x00' OR '1'='1", "ä" * 5000, "\ud800"],
)
def test_login_with_a_nul_byte_or_10_kB(srv, login):
    class_id, code = srv.new_class()
    srv.new_user("ada", class_id)
    b = srv.browser()
    token = b.csrf()
    r = b.client.post(
        "/api/signin",
        content=json.dumps({"login": login, "password": PASSWORD}),
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )
    assert r.status_code in (400, 401), r.text
    _no_traceback(r)
    join = {"invite_code": code, "login": login, "name": login, "password": PASSWORD}
    r = b.client.post("/api/join", content=json.dumps(join), headers={"X-CSRF-Token": token})
    assert r.status_code == 400, r.text
    _no_traceback(r)


@pytest.mark.parametrize("field", ["name", "invite_code", "password"])
def test_join_with_a_nul_byte(srv, field):
    class_id, code = srv.new_class()
    body = {"invite_code": code, "login": "ada", "name": "Ada", "password": PASSWORD}
    body[field] += "\x00"
    r = srv.browser().post("/api/join", body)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        _no_traceback(r)


def test_nul_bytes_in_urls(srv):
    class_id, _ = srv.new_class()
    b = srv.signed_in("ada", class_id)
    for url in (
        "/api/submissions/%00",
        "/api/submissions?exercise=%00",
        "/api/submissions/" + "a" * 5000,
    ):
        r = b.get(url)
        assert r.status_code in (200, 404), (url, r.text)
    assert b.post("/api/signin-link", {"token": "\x00"}).status_code == 400


@pytest.mark.parametrize(
    "public, cors",
    [
        ("https://Course.Example.org:443/", "https://You.github.io/"),
        ("https://course.example.org", "https://you.github.io:443"),
    ],
)
def test_origin_check_matches_what_browsers_send(tmp_path, database_url, public, cors):
    """Browsers send the origin in lower case and without a default port: a PUBLIC_URL
    written otherwise must not make every POST from the course a foreign one."""
    srv = make_server(tmp_path, database_url, PUBLIC_URL=public, CORS_ORIGIN=cors)
    try:
        class_id, _ = srv.new_class()
        b = srv.signed_in("ada", class_id)
        for origin in ("https://course.example.org", "https://you.github.io"):
            assert b.submit(headers={"Origin": origin}).status_code == 202, origin
        assert b.submit(headers={"Origin": "https://evil.github.io"}).status_code == 403
    finally:
        srv.db.dispose()


def test_cors_answers_the_course_site_with_credentials_and_no_one_else(tmp_path):
    """A course site on another host (CORS_ORIGIN) may call the API with its cookies;
    a browser gets no CORS permission for any other origin, so another site's page can
    neither read an answer nor send the preflighted JSON writes."""
    srv = make_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'course.db'}",
        PUBLIC_URL="https://course.example.org/",
        CORS_ORIGIN="https://site.example.org",
    )
    try:
        client = srv.browser().client
        ask = {
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, x-csrf-token",
        }
        site = client.options(
            "/api/submissions", headers={"origin": "https://site.example.org", **ask}
        )
        assert site.status_code == 200
        assert site.headers["access-control-allow-origin"] == "https://site.example.org"
        assert site.headers["access-control-allow-credentials"] == "true"
        assert "x-csrf-token" in site.headers["access-control-allow-headers"].lower()
        evil = client.options("/api/submissions", headers={"origin": "https://evil.example", **ask})
        assert evil.status_code == 400
        assert "access-control-allow-origin" not in evil.headers
        read = client.get("/api/session", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in read.headers
        ours = client.get("/api/session", headers={"origin": "https://site.example.org"})
        assert ours.headers["access-control-allow-origin"] == "https://site.example.org"
        assert ours.headers["access-control-allow-credentials"] == "true"
    finally:
        srv.db.dispose()

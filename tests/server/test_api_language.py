"""The API's refusals in the learner's language: {"error"} is said in the language the
request asks for, chosen as the sign-in pages choose theirs (?lang=, else Accept-Language,
else English), through the course's catalog; English is as it always was."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from grader.messages import catalog
from server.api import MAX_WORK_BYTES
from server.models import Course, User

from .client import EXERCISE, PASSWORD, make_server

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"
ORIGIN = "https://site.example.org"


@pytest.fixture
def srv(tmp_path):
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}")
    yield server
    server.db.dispose()


def said(english: str, lang: str, **values) -> str:
    """`english` as the course's catalog says it in `lang`, its {fields} filled."""
    text = catalog(lang).gettext(english)
    return text.format(**values) if values else text


# --- the refusals: how each is met, and what it says in English -----------------------------
# Each case: (send, English text, its values). `send(srv, ask)` makes the request with
# `ask` (the language's header or query) and returns the response.


def _wrong_password(srv, ask):
    srv.new_user("ada")
    return srv.browser().post("/api/signin", {"login": "ada", "password": "not it"}, **ask)


def _missing_fields(srv, ask):
    return srv.browser().post("/api/signin", {"login": "ada"}, **ask)


def _rate_limited(srv, ask):
    srv.new_user("ada")
    b = srv.browser()
    for i in range(srv.settings.signin_per_minute):
        b.post("/api/signin", {"login": "ada", "password": f"guess {i}"})
    return b.post("/api/signin", {"login": "ada", "password": "one more"}, **ask)


def _signed_out(srv, ask):
    return srv.browser().get("/api/progress", **ask)


def _stale_token(srv, ask):
    return srv.browser().post("/api/signin", {"login": "a", "password": "b"}, token="old", **ask)


def _not_json(srv, ask):
    b = srv.browser()
    headers = {"X-CSRF-Token": b.csrf(), "Content-Type": "application/json"}
    headers.update(ask.pop("headers", {}))
    return b.client.post("/api/signin", content=b"{not json", headers=headers, **ask)


def _too_much_work(srv, ask):
    b = srv.signed_in("ada")
    text = "x" * (MAX_WORK_BYTES + 1024)
    work = {"format": "course-work", "files": {"day05_add_mul.py": text}}
    return b.put("/api/progress", {"revision": 0, "work": work}, **ask)


def _submit(b, ask, code="x = 1\n"):
    return b.post("/api/submissions", {"exercise": EXERCISE, "code": code}, **ask)


def _too_big_a_body(srv, ask):
    return _submit(srv.signed_in("ada"), ask, code="x" * srv.settings.max_body_bytes)


def _in_no_class(srv, ask):
    return _submit(srv.signed_in("ada"), ask)


def _invite_code_unknown(srv, ask):
    body = {"invite_code": "nosuchcode12", "login": "ada", "name": "Ada", "password": PASSWORD}
    return srv.browser().post("/api/join", body, **ask)


def _login_taken(srv, ask):
    _, code = srv.new_class()
    srv.new_user("ada")
    body = {"invite_code": code, "login": "ada", "name": "Ada", "password": PASSWORD}
    return srv.browser().post("/api/join", body, **ask)


def _no_route(srv, ask):
    return srv.browser().get("/api/no-such-thing", **ask)


def _server_failed(srv, ask):
    b = srv.signed_in("ada", raise_server_exceptions=False)

    def broken():
        raise RuntimeError("the database is gone")

    srv.app.state.db.session = broken
    return b.get("/api/progress", **ask)


CASES = {
    "wrong password": (_wrong_password, "Wrong login or password.", {}),
    "missing fields": (_missing_fields, "Give your login and password.", {}),
    "rate limit": (_rate_limited, "Too many sign-in attempts: wait a minute and try again.", {}),
    "sign in first": (_signed_out, "Sign in first.", {}),
    "CSRF refusal": (
        _stale_token,
        "The page's security token is missing or old: reload the page and try again.",
        {},
    ),
    "bad JSON body": (_not_json, "The body is not JSON.", {}),
    "too-large saved work": (
        _too_much_work,
        "Saved work over 5 MB is not kept on the server.",
        {},
    ),
    "too-large body": (
        _too_big_a_body,
        "The request is over {size} kB, more than the server takes.",
        {"size": 1024},
    ),
    "not in a class": (
        _in_no_class,
        "You are in no class as a learner: join one with its invite code.",
        {},
    ),
    "unknown invite code": (
        _invite_code_unknown,
        "No class has this invite code: check it with your instructor.",
        {},
    ),
    "login taken": (
        _login_taken,
        "The login {login!r} is taken: choose another.",
        {"login": "ada"},
    ),
    "no such route": (_no_route, "Not Found", {}),
    "the 500 text": (
        _server_failed,
        "The server failed on this request; your work is kept in your browser. Try again.",
        {},
    ),
}

ASKS = {
    "Accept-Language": lambda lang: {"headers": {"Accept-Language": f"{lang}-RU;q=0.9, de;q=0.5"}},
    "?lang=": lambda lang: {"params": {"lang": lang}},
}


def _error(response) -> str:
    assert response.headers["content-type"] == "application/json", response.text
    return response.json()["error"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("lang", ["ru", "et"])
@pytest.mark.parametrize("how", ASKS)
def test_the_refusal_is_in_the_language_asked_for(srv, case, lang, how):
    send, english, values = CASES[case]
    expected = said(english, lang, **values)
    assert expected != english.format(**values), f"{english!r} has no {lang} translation"
    response = send(srv, ASKS[how](lang))
    assert response.status_code >= 400
    assert _error(response) == expected
    assert "accept-language" in response.headers.get("vary", "").lower()


@pytest.mark.parametrize("case", CASES)
def test_english_is_unchanged(srv, case):
    send, english, values = CASES[case]
    response = send(srv, {})
    assert _error(response) == english.format(**values)


# A language the course does not speak, or a value that is not a language at all: English,
# never an error and never a file or catalog of that name.
HOSTILE = [
    {"params": {"lang": "../../../etc/passwd"}},
    {"params": {"lang": "ru\x00"}},
    {"params": {"lang": "RU"}},
    {"params": {"lang": "de"}},
    {"headers": {"Accept-Language": "../ru"}},
    {"headers": {"Accept-Language": "ru;q=abc, de"}},
    {"headers": {"Accept-Language": "x" * 100_000}},
    {"headers": {"Accept-Language": "ru" + ";q=0" * 5000}},
]


@pytest.mark.parametrize("ask", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_language_is_not_used(srv, ask):
    response = _wrong_password(srv, dict(ask))
    assert response.status_code == 401
    assert _error(response) == "Wrong login or password."


def test_the_csrf_refusal_says_which_it_is_in_every_language(srv):
    """The course's page sends again with a new token on this refusal: it cannot recognise
    it by its words, which are the learner's language."""
    for lang in ("en", "ru", "et"):
        response = _stale_token(srv, {"params": {"lang": lang}})
        assert response.status_code == 403
        assert response.json()["reason"] == "csrf"
    other = srv.browser().post("/api/signin", {}, headers={"Origin": "https://evil.example"})
    assert other.status_code == 403 and "reason" not in other.json()


def test_the_language_passes_a_cross_origin_course_site_s_preflight(tmp_path):
    """A course site on another origin (CORS_ORIGIN) sends Accept-Language with its fetches:
    the preflight allows it, and the answer says it varies with it (and with Origin)."""
    srv = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}", CORS_ORIGIN=ORIGIN)
    try:
        client = srv.browser().client
        preflight = client.options(
            "/api/progress",
            headers={
                "Origin": ORIGIN,
                "Access-Control-Request-Method": "PUT",
                "Access-Control-Request-Headers": "accept-language, content-type, x-csrf-token",
            },
        )
        assert preflight.status_code == 200, preflight.text
        allowed = preflight.headers["access-control-allow-headers"].lower()
        assert "accept-language" in allowed
        assert preflight.headers["access-control-allow-origin"] == ORIGIN
        answer = client.get("/api/progress", headers={"Origin": ORIGIN, "Accept-Language": "et"})
        assert answer.status_code == 401
        assert answer.json()["error"] == said("Sign in first.", "et")
        assert answer.headers["access-control-allow-origin"] == ORIGIN
        vary = {v.strip().lower() for v in answer.headers["vary"].split(",")}
        assert {"origin", "accept-language"} <= vary
    finally:
        srv.db.dispose()


# --- every refusal is in the catalog -----------------------------------------------------------
# What the API can say is what its code raises: HTTPException(status, detail) anywhere in
# server/, and PeopleError(message) in what the API calls (the admin commands, English, aside).

RAISERS = {"HTTPException": 1, "PeopleError": 0, "_error": 3, "api_error": 2}


def _calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            yield name, node


def _said_by_server():
    """(place, detail node) of each refusal in server/, and the msg(...) texts there."""
    details, texts = [], []
    for path in sorted(SERVER.rglob("*.py")):
        if path.name == "__main__.py" or "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for name, call in _calls(tree):
            place = f"{path.relative_to(ROOT)}:{call.lineno}"
            if name in RAISERS and len(call.args) > RAISERS[name]:
                details.append((place, call.args[RAISERS[name]]))
            if name == "msg" and call.args:
                assert isinstance(call.args[0], ast.Constant), f"{place}: msg of a computed text"
                texts.append((place, call.args[0].value))
    return details, texts


def test_every_refusal_of_the_server_is_a_message_of_the_catalog():
    details, texts = _said_by_server()
    assert len(details) > 30 and len(texts) > 30
    for place, node in details:
        # English only, as it was: a literal or an f-string in place of msg(...).
        english_only = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Constant) and isinstance(node.value, str)
        )
        assert not english_only, f"{place}: say it with msg(...), in the course's catalog"
    for lang in ("ru", "et"):
        path = ROOT / "locales" / lang / "LC_MESSAGES" / "course.po"
        with path.open("rb") as f:
            translated = {m.id: m.string for m in read_po(f) if m.id}
        for place, text in texts:
            assert translated.get(text), f"{place}: {text!r} has no {lang} translation"
            assert catalog(lang).gettext(text) == translated[text], f"{place}: compile {lang}"


def test_starlette_s_own_refusals_are_in_the_catalog(srv):
    """No route, or not that method: Starlette's status phrases, said in the language."""
    b = srv.browser()
    response = b.client.delete("/api/session", headers={"Accept-Language": "ru"})
    assert response.status_code == 405
    assert _error(response) == said("Method Not Allowed", "ru") != "Method Not Allowed"


def test_a_people_error_is_english_for_the_admin_commands(srv):
    """The admin commands print the exception: English, whatever the catalog has."""
    from server import people

    with srv.db.session() as s:
        course = s.get(Course, srv.new_class()[0])
        s.add(User(login="ada", name="Ada"))
        with pytest.raises(people.PeopleError) as raised:
            people.add_member(s, course, "Ada", login="ada")
    assert str(raised.value) == "The login 'ada' is taken: choose another."


# --- the sign-in pages' script ------------------------------------------------------------------
SCRIPT_WORDS = {
    "signed-in": "Signed in.",
    "signed-out": "Signed out.",
    "network-error": "The server did not answer: check your connection and try again.",
    "server-status": "The server answered {status}: try again in a moment.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_sign_in_script_says_the_page_s_words(srv, lang):
    """signin.js's own messages are the page's, in its language (data-* of <body>): the
    script holds none, and sends the page's language with its requests."""
    from .test_pages import Page

    page = srv.browser().get("/signin/", params={"lang": lang}).text
    body = Page(page).all("body")[0]
    for name, english in SCRIPT_WORDS.items():
        assert body[f"data-{name}"] == said(english, lang)
        assert lang == "en" or body[f"data-{name}"] != english
    script = (SERVER / "static" / "signin.js").read_text()
    for english in SCRIPT_WORDS.values():
        assert english.split(":")[0].rstrip(".") not in script, english
    assert "Accept-Language" in script and "documentElement.lang" in script


# --- the grader's report on a submission --------------------------------------------------------
GRADED_LINE = "Graded: the cases marked [hidden], with inputs drawn afresh on every run."


@pytest.mark.parametrize(
    "ask, lang",
    [
        ({"headers": {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}}, "ru"),
        ({"params": {"lang": "et"}, "headers": {"Accept-Language": "ru"}}, "et"),
        ({}, "en"),
        ({"headers": {"Accept-Language": "de, zz;q=0.9"}}, "en"),
        ({"params": {"lang": "../ru"}}, "en"),
    ],
)
def test_a_submission_is_graded_and_regraded_in_its_pages_language(srv, ask, lang):
    """web/server.js sends the page's language with a submission: the grader's report
    speaks it, and an instructor's re-grade (whatever the gradebook's language) keeps it."""
    from grader.sandbox import SandboxError, detect
    from server import jobs

    try:
        sandbox = detect("auto")
    except SandboxError as exc:
        pytest.skip(f"no sandbox here: {exc}")
    class_id, _ = srv.new_class()
    learner = srv.signed_in("ada", class_id)
    stub = (ROOT / "exercises" / EXERCISE).read_text()
    answer = learner.post("/api/submissions", {"exercise": EXERCISE, "code": stub}, **ask)
    assert answer.status_code == 202, answer.text
    sub_id = answer.json()["submission"]["id"]

    def report():
        assert jobs.grade_submission(srv.db, srv.settings, sandbox, sub_id) == "graded"
        shown = learner.get(f"/api/submissions/{sub_id}").json()["submission"]
        assert shown["language"] == lang
        assert said(GRADED_LINE, lang) in shown["feedback"].splitlines()
        assert lang == "en" or GRADED_LINE not in shown["feedback"]
        return shown["feedback"].splitlines()[:3]  # the cases' inputs are drawn afresh

    first = report()
    teacher = srv.signed_in("teacher", class_id, role="instructor")
    form = {"exercise": EXERCISE, "csrf": teacher.csrf()}
    regrade = teacher.client.post(
        f"/instructor/classes/{class_id}/regrade?lang=et",
        data=form,
        headers={"Accept-Language": "ru"},
        follow_redirects=False,
    )
    assert regrade.status_code == 303
    assert report() == first
    # The instructor's page marks the report with its own language, whatever the page's.
    page = teacher.get(f"/instructor/submissions/{sub_id}", params={"lang": "et"}).text
    assert f'<pre class="feedback" lang="{lang}">' in page

"""Red team of the server's language paths: what ?lang=, Accept-Language and the learners'
own words (names) can and cannot do to the instructor's pages, their refusals and the API's
in English, Russian and Estonian."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from html import escape
from pathlib import Path

import pytest
from sqlalchemy import update

import grader.messages
from grader.messages import catalog
from server import gradebook, pages
from server.models import Course, User

from . import test_gradebook
from .client import PASSWORD, make_server
from .test_gradebook import ADD_MUL
from .test_instructor_pages import fill

world = test_gradebook.world  # the gradebook tests' class: a teacher and five learners


@pytest.fixture
def database_url(tmp_path):
    """The pages and refusals are the same on both databases: SQLite is enough here."""
    return f"sqlite:///{tmp_path / 'course.db'}"


def said(english: str, lang: str, **values) -> str:
    """`english` as the course's catalog says it in `lang`, its {fields} filled."""
    text = catalog(lang).gettext(english)
    return text.format(**values) if values else text


ASKS = {
    "?lang=": lambda lang: {"params": {"lang": lang}},
    "Accept-Language": lambda lang: {"headers": {"Accept-Language": f"{lang};q=0.9, en;q=0.1"}},
}


# --- the refusals of the instructor's pages ---------------------------------------------
def _unknown_exercise(w, client, csrf, ask):
    path = f"/instructor/classes/{w.course}/regrade"
    data = {"csrf": csrf, "exercise": "nope.py"}
    return client.post(path, data=data, follow_redirects=False, **ask)


def _stale_form(w, client, csrf, ask):
    path = f"/instructor/classes/{w.course}/regrade"
    data = {"csrf": "0" * 64, "exercise": ADD_MUL}
    return client.post(path, data=data, follow_redirects=False, **ask)


def _another_class(w, client, csrf, ask):
    return client.get(f"/instructor/classes/{w.other_course}", **ask)


REFUSALS = {
    "unknown exercise": (
        _unknown_exercise,
        400,
        "Choose an exercise of the course to grade again.",
    ),
    "stale token": (
        _stale_form,
        403,
        "The page's security token is missing or old: reload the page and try again.",
    ),
    "another class": (_another_class, 404, "Not found."),
}


@pytest.mark.parametrize("how", list(ASKS))
@pytest.mark.parametrize("lang", ["ru", "et"])
@pytest.mark.parametrize("case", list(REFUSALS))
def test_an_instructor_s_refusal_is_in_the_page_s_language(world, case, lang, how):
    """A page refused to the instructor (a form's mistake, a stale token, another class's
    page) says why in the language the pages speak, and leads back to their pages in it."""
    send, status, english = REFUSALS[case]
    fill(world)
    client, csrf = world.client("teacher")
    answer = send(world, client, csrf, ASKS[how](lang))
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("text/html")
    assert escape(said(english, lang)) in answer.text
    href, words = _way_back(world, case, lang if how == "?lang=" else None)
    assert english not in answer.text and words not in answer.text
    assert f'<a href="{href}">{escape(said(words, lang))}</a>' in answer.text
    assert f'lang="{lang}"' in answer.text
    # Its words follow the browser's language: no cache hands them to another browser.
    assert "Accept-Language" in answer.headers["vary"]
    assert "no-store" in answer.headers["cache-control"]


def _way_back(w, case, lang) -> tuple[str, str]:
    """(link, English words) an instructor's refusal leads back with: a form's refusal to
    the gradebook it came from, another class's page to their classes; ?lang= kept."""
    query = f"?lang={lang}" if lang else ""
    if case == "another class":
        return f"/instructor/{query}", "Back to your classes"
    return f"/instructor/classes/{w.course}{query}", "Back to the gradebook"


@pytest.mark.parametrize("case", list(REFUSALS))
def test_an_instructor_s_refusal_in_english_is_as_it_was(world, case):
    """As it was but for its way back (to the instructor's pages) and its language."""
    send, status, english = REFUSALS[case]
    fill(world)
    client, csrf = world.client("teacher")
    answer = send(world, client, csrf, {})
    assert answer.status_code == status
    href, words = _way_back(world, case, None)
    assert answer.text == (
        f'<!doctype html><html lang="en"><meta charset=utf-8><title>{status}</title>'
        f'<p>{escape(english)}</p><p><a href="{href}">{words}</a></p>'
    )


def test_a_refusal_to_one_who_teaches_nothing_is_as_it_was(world):
    """A learner has no instructor's pages to go back to: the course, in English byte for
    byte as before."""
    client, _ = world.client("ada")
    answer = client.get(f"/instructor/classes/{world.course}")
    assert answer.status_code == 404
    assert answer.text == (
        "<!doctype html><meta charset=utf-8><title>404</title>"
        '<p>Not found.</p><p><a href="/">Back to the course</a></p>'
    )
    russian = client.get(f"/instructor/classes/{world.course}", params={"lang": "ru"})
    assert f'<a href="/ru/">{escape(said("Back to the course", "ru"))}</a>' in russian.text


# --- what a learner's or another class's request can reach -------------------------------
HOSTILE_LANG = [
    "ru\r\nLocation: https://evil.example",
    "ru%0d%0aLocation:%20https://evil.example",
    "ru?x=//evil.example",
    "//evil.example",
    "ru/../../x",
    "RU",
    "ru\x00",
]


@pytest.mark.parametrize("bad", HOSTILE_LANG)
def test_the_regrade_redirect_keeps_no_hostile_lang(world, bad):
    fill(world)
    client, csrf = world.client("teacher")
    answer = client.post(
        f"/instructor/classes/{world.course}/regrade",
        params={"lang": bad},
        data={"csrf": csrf, "exercise": ADD_MUL},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert re.fullmatch(r"/instructor/regrades/\d+", answer.headers["location"])


def test_no_instructor_page_opens_to_a_learner_or_another_class_in_any_language(world):
    paths = fill(world)
    for who in ("ada", "other_teacher"):
        client, _ = world.client(who)
        for name, path in paths.items():
            if name == "home":
                continue
            for ask in ({"params": {"lang": "ru"}}, {"headers": {"Accept-Language": "et"}}, {}):
                answer = client.get(path, **ask)
                assert answer.status_code == 404, (who, name)
                assert "Autumn" not in answer.text and "Ada" not in answer.text, (who, name)


def test_a_learner_s_name_is_never_a_format_in_the_translated_pages(world):
    """A name made of format fields (str.format's, %-format's, Jinja's) is shown as it is,
    in every language, never filled and never a failure."""
    name = "{name.__class__}{0:>999999999}%(name)s%s{{ name }}"
    paths = fill(world)
    with world.db.session() as s:
        s.execute(update(User).where(User.id == world.users["ada"]).values(name=name))
    client, _ = world.client("teacher")
    for lang in ("en", "ru", "et"):
        for page in ("gradebook", "latest"):
            answer = client.get(paths[page], params={"lang": lang})
            assert answer.status_code == 200, (lang, page)
            assert escape(name) in answer.text and len(answer.text) < 1_000_000


# --- the API's refusals ----------------------------------------------------------------
@pytest.fixture
def srv(tmp_path):
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}")
    yield server
    server.db.dispose()


def test_the_500_carries_the_server_s_headers(srv):
    """The last-resort refusal is sent from outside the middleware: it still says nosniff
    and no-store, and varies with the language it is said in."""
    b = srv.signed_in("ada", raise_server_exceptions=False)

    def broken():
        raise RuntimeError("the database is gone")

    srv.app.state.db.session = broken
    answer = b.get("/api/progress", params={"lang": "ru"})
    assert answer.status_code == 500
    assert answer.json()["error"] == said(
        "The server failed on this request; your work is kept in your browser. Try again.", "ru"
    )
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "no-store" in answer.headers["cache-control"]
    assert "Accept-Language" in answer.headers["vary"]


WORST_HEADERS = [
    "a" + " " * 998 + "x",
    "a-" + "a" * 997,
    ("a-a" * 400)[:1000],
    "a;q=" + "." * 900,
    "ru;q=0.5," * 200,
    "a;" + " " * 990 + "q",
    "," * 60_000,
    "a" + "\t" * 30_000 + ";",
]


def test_an_accept_language_header_costs_little_on_every_request(srv):
    b = srv.browser()
    for header in WORST_HEADERS:
        started = time.perf_counter()
        answer = b.get("/api/no-such-thing", headers={"Accept-Language": header})
        assert time.perf_counter() - started < 1.0, repr(header[:20])
        assert answer.status_code == 404 and answer.json()["error"]


@pytest.mark.parametrize(
    "query", ["lang=%ff%fe", "lang=%00", "lang=" + "r" * 10_000, "lang=ru&lang=de", "%ff=1"]
)
def test_an_odd_lang_is_english_json_never_a_traceback(srv, query):
    answer = srv.browser().get(f"/api/no-such-thing?{query}")
    assert answer.status_code == 404
    assert answer.json() == {"error": "Not Found"}


def test_an_unreadable_catalog_leaves_pages_and_refusals_in_english(world, tmp_path, monkeypatch):
    """A broken .mo (truncated, not a catalog) is no 500: the words are English."""
    folder = tmp_path / "locales"
    for lang in ("ru", "et"):
        mo = folder / lang / "LC_MESSAGES" / "course.mo"
        mo.parent.mkdir(parents=True)
        mo.write_bytes(b"\xde\x12\x04\x95 not a catalog")
    caches = (catalog, pages._templates, gradebook._templates)
    monkeypatch.setattr(grader.messages, "LOCALE_DIRS", (folder,))
    for cache in caches:
        cache.cache_clear()
    try:
        paths = fill(world)
        client, csrf = world.client("teacher")
        for path in paths.values():
            answer = client.get(path, params={"lang": "ru"})
            assert answer.status_code == 200, path
            assert 'lang="en"' in answer.text, path
        refused = client.get("/api/no-such-thing", params={"lang": "ru"})
        assert refused.json() == {"error": "Not Found"}
    finally:
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
    assert catalog("ru").gettext("Not Found") != "Not Found"


def test_a_class_name_in_a_translated_title_is_escaped(world):
    paths = fill(world)
    with world.db.session() as s:
        s.execute(
            update(Course)
            .where(Course.id == world.course)
            .values(name="</title><script>x()</script>")
        )
    client, _ = world.client("teacher")
    for lang in ("ru", "et"):
        for page in ("gradebook", "latest", "running"):
            text = client.get(paths[page], params={"lang": lang}).text
            assert "<script>x()" not in text and "&lt;/title&gt;&lt;script&gt;" in text


# --- the course page's CSRF retry (web/server.js, under Node) ----------------------------
ROOT = Path(__file__).resolve().parents[2]
STALE = "The page's security token is missing or old: reload the page and try again."
RETRY_SCRIPT = """
globalThis.location = { href: "http://127.0.0.1:1/ru/lessons/" };
globalThis.document = {
  documentElement: { lang: "ru" },
  querySelector: () => ({ getAttribute: () => "http://127.0.0.1:2/" }),
  addEventListener() {},
  dispatchEvent() {},
};
const sessions = __SESSIONS__;
const calls = [];
let refused = false;
globalThis.fetch = async (url, init) => {
  const path = new URL(url).pathname;
  calls.push(`${init.method} ${path}`);
  const reply = (data, status = 200) => ({ ok: status < 300, status, json: async () => data });
  if (path === "/api/session") return reply({ user: sessions.shift(), csrf: "t" });
  if (!refused) {
    refused = true;
    return reply({ error: "__STALE__", reason: "csrf" }, 403);
  }
  return reply({ submission: { id: "s" } }, 202);
};
const server = await import("./web/server.js");
await server.loadSession();
const answer = await server.api("POST", "api/submissions", { exercise: "e", code: "c" });
console.log(JSON.stringify({ calls, status: answer.status }));
"""


def _retry(sessions: list) -> dict:
    script = RETRY_SCRIPT.replace("__SESSIONS__", json.dumps(sessions))
    script = script.replace("__STALE__", catalog("ru").gettext(STALE))
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


ADA, BOB = {"id": 7, "login": "ada"}, {"id": 8, "login": "bob"}
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")


@needs_node
def test_a_request_refused_for_its_token_is_not_sent_again_as_someone_else():
    """Ada's tab, Bob signed in since in another tab of the same computer: Ada's submission
    is refused for its token and is not sent again with Bob's."""
    result = _retry([ADA, BOB])
    assert result["calls"] == ["GET /api/session", "POST /api/submissions", "GET /api/session"]
    assert result["status"] == 403


@needs_node
@pytest.mark.parametrize("before", [None, ADA], ids=["signed out", "the same learner"])
def test_a_request_refused_for_its_token_is_sent_again_by_whoever_signed_in(before):
    result = _retry([before, ADA])
    assert result["calls"][-1] == "POST /api/submissions" and len(result["calls"]) == 4
    assert result["status"] == 202


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_signed_out_instructor_is_sent_to_the_sign_in_page_in_the_language_chosen(world, lang):
    client, _ = world.client(None)
    answer = client.get("/instructor/", params={"lang": lang}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/signin/?lang={lang}"
    page = client.get("/instructor/", params={"lang": lang})
    assert f'<html lang="{lang}">' in page.text
    for bad in HOSTILE_LANG:
        answer = client.get("/instructor/", params={"lang": bad}, follow_redirects=False)
        assert answer.headers["location"] == "/signin/"


@pytest.mark.parametrize("name", ["Ada\u202eyp.lum_7yad", "\u2067Ada", "Ad\x85a", "Ada\x9b31m"])
def test_a_name_that_turns_the_instructor_s_sentences_around_is_refused(srv, name):
    """A direction override in a name would reverse the words after it in the instructor's
    sentences ("{name}'s tries of {exercise}"); a C1 control is a control character too."""
    _, code = srv.new_class()
    body = {"invite_code": code, "login": "ada2", "name": name, "password": PASSWORD}
    answer = srv.browser().post("/api/join", body, params={"lang": "ru"})
    assert answer.status_code == 400
    english = "Give a name of 1 to 200 characters, without control characters."
    assert answer.json()["error"] == said(english, "ru")

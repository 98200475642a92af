"""Red team of the learner's pages in their language (server/pages.py: ?lang=, else
Accept-Language, else English; the words from the course's catalog).

Each test is an attack the pages must hold. Three broke them when written and were fixed:
a long run of spaces in one Accept-Language entry was parsed in quadratic time; the pages
chose their language by a request header without saying so (no `Vary: Accept-Language`);
a catalog that could not be read gave English words on a page that said `lang="ru"`.
"""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from starlette.testclient import TestClient

import grader.messages
from server import pages, people
from server.app import create_app
from server.config import Settings
from server.db import Database

from .test_pages import BASE, PASSWORD, WORDS, Page, lang_of, learner, post

LANGS = ("en", "ru", "et")


@pytest.fixture
def app(database_url, tmp_path):
    settings = Settings.from_env(
        {"COURSE_DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": database_url},
        secret_key="s" * 48,
    )
    db = Database(settings.database_url)
    db.migrate()
    yield create_app(settings, db)
    db.dispose()


@pytest.fixture
def client(app):
    with TestClient(app, base_url=BASE) as c:
        yield c


@pytest.fixture
def fresh_templates():
    """The pages' environments and the catalogs read anew for the test, and again after it."""
    pages._templates.cache_clear()
    grader.messages.catalog.cache_clear()
    yield
    pages._templates.cache_clear()
    grader.messages.catalog.cache_clear()


# --- Accept-Language: slow, malformed, hostile -------------------------------------------


def test_a_long_run_of_spaces_in_accept_language_is_read_as_the_entry_it_is():
    """One entry of 1000 characters (all the header the server reads), spaces between a
    language and garbage: each entry is stripped and matched whole, so no run of spaces is
    tried at every start (the pattern once backtracked over them in quadratic time, about
    9 ms a request). Speed is not asserted here (shared machines): what such an entry means."""
    hostile = [
        "ru" + " " * 997 + "x",
        "ru" + "\t" * 998,
        "ru" + " " * 400 + ";" + " " * 400 + "q" + " " * 190,
        "ru;q=" + " " * 994 + "x",
    ]
    answers = [pages._accepted(header[:1000]) for header in hostile]
    assert answers == [None, "ru", None, None]
    # Spaces around an entry and its parts are still allowed.
    assert pages._accepted("  de ,  ru - RU ; q = 0.5 ") is None  # "ru - RU" is no range
    assert pages._accepted("  de ,  ru-RU ; q = 0.5 ,\tet;q=0.4 ") == "ru"
    assert pages._accepted(" et ") == "et"


@pytest.mark.parametrize(
    "header",
    [
        "ru;q=",
        "ru;q=.",
        "ru;q=-1",
        "ru;q=nan",
        "ru;q=inf",
        "ru;q=1e9",
        "ru;;q=1",
        ";q=1",
        "-ru",
        "ru-",
        "ru_RU",
        "ru;q=0.5;q=0.9",
        "<script>alert(1)</script>",
        '"><svg onload=alert(1)>',
        "ru\u00a0",
        "ру",  # Cyrillic: not a language range
        ",".join(["xx"] * 5000),
        "ru;q=0.00001," * 100,
    ],
)
def test_a_malformed_accept_language_gives_a_page_never_an_error(client, header):
    response = client.get("/signin/", headers=[(b"accept-language", header.encode("utf-8"))])
    assert response.status_code == 200
    assert lang_of(response.text) in LANGS
    assert "<script>alert" not in response.text and "<svg" not in response.text


def test_hostile_languages_reach_no_file_and_build_no_environment(
    client, fresh_templates, monkeypatch
):
    """Only en, ru and et reach the catalog (the file system): one environment each, however
    many other values a client sends."""
    asked = []
    real = pages.catalog
    monkeypatch.setattr(pages, "catalog", lambda lang: asked.append(lang) or real(lang))
    hostile = ["../../etc/passwd", "ru/../../x", "ru\x00", "..", "/", "ru%2f..", "RU", " ru"]
    for value in hostile + [f"x{i}" for i in range(50)]:
        assert client.get("/signin/", params={"lang": value}).status_code == 200
        assert client.get("/signin/", headers={"Accept-Language": value}).status_code == 200
    for lang in LANGS:
        client.get("/signin/", params={"lang": lang})
    assert sorted(asked) == sorted(LANGS)
    assert pages._templates.cache_info().currsize == 3


def test_lang_given_twice_is_one_the_course_speaks_or_english(client):
    for query in ("lang=ru&lang=<b>", "lang=<b>&lang=et", "lang[]=ru", "lang=%D1%80%D1%83"):
        page = client.get("/signin/?" + query).text
        assert lang_of(page) in LANGS and "<b>" not in page


# --- what a learner puts on a translated page --------------------------------------------

HOSTILE_NAME = "\"'><script>alert(1)</script> %(login)s %s % {{ 7*7 }} {% trans %} &amp;"


@pytest.mark.parametrize("lang", LANGS)
def test_a_learner_s_name_is_text_on_every_language_s_page(app, client, lang):
    """The name fills a `{% trans %}` block's field: the translation is markup (the catalog's),
    the value is escaped into it, and is not formatted or rendered again."""
    login, _ = learner(app, name=HOSTILE_NAME)
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    page = client.get("/signin/", params={"lang": lang}).text
    assert lang_of(page) == lang
    escaped = (
        "&#34;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt; %(login)s %s % {{ 7*7 }}"
        " {% trans %} &amp;amp;"
    )
    assert escaped in page
    assert "<script>alert" not in page and "49" not in page
    assert page.count("<strong>") == 1 and f"<strong>{login}</strong>" in page


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_link_s_token_is_text_on_a_translated_page(client, lang):
    token = '"><img src=x onerror=alert(1)><input name="token" value="x'
    quoted = "%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E%3Cinput%20name=%22token%22%20value=%22x"
    response = client.get(f"/signin/link/{quoted}", params={"lang": lang})
    assert response.status_code == 200 and lang_of(response.text) == lang
    page = Page(response.text)
    assert [a["value"] for a in page.all("input") if a.get("name") == "token"] == [token]
    assert not page.all("img")


def test_the_translations_carry_the_source_s_markup_and_no_other():
    """A template's translated words are trusted markup (Jinja2 marks them safe, then
    escapes the values into them): a translation may carry only the tags its English
    carries, and no character reference of its own."""
    from babel.messages.pofile import read_po

    import translations

    markup = re.compile(r"</?[A-Za-z][^>]*>|[<>&]")
    checked = 0
    for lang in ("ru", "et"):
        with open(translations.LOCALES / lang / "LC_MESSAGES" / "course.po", "rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not any(p.startswith("server/templates/pages/") for p, _ in m.locations):
                continue
            sources = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            wanted = sorted(markup.findall(sources[0]))
            for s in strings:
                assert sorted(markup.findall(s)) == wanted, (lang, m.id, s)
                checked += 1
    assert checked > 40


# --- the forms, CSRF and the redirect ----------------------------------------------------


def _forms(html: str):
    """Every element the script and the API rely on, without the words."""
    keep = ("form", "input", "button", "label", "script", "link", "p", "span", "main")
    return [
        (tag, {k: v for k, v in attrs.items() if k != "href"})
        for tag, attrs in Page(html).tags
        if tag in keep
    ]


def test_the_forms_are_the_same_in_every_language(app, client):
    _, token = learner(app)
    for path in ("/signin/", f"/signin/link/{token}"):
        english = _forms(client.get(path).text)
        assert any(tag == "form" for tag, _ in english)
        for lang in ("ru", "et"):
            assert _forms(client.get(path, params={"lang": lang}).text) == english, (path, lang)
    login, _ = learner(app, name="Ada")
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    english = _forms(client.get("/signin/").text)
    assert ("form", {"id": "signout", "data-api": "/api/signout", "data-then": "reload",
                     "method": "post"}) in english  # fmt: skip
    for lang in ("ru", "et"):
        assert _forms(client.get("/signin/", headers={"Accept-Language": lang}).text) == english


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_csrf_still_guards_what_a_translated_page_sends(app, client, lang):
    login, _ = learner(app)
    page = client.get("/signin/", params={"lang": lang}).text
    assert all(word in page for word in WORDS[lang][0])
    body = {"login": login, "password": PASSWORD}
    headers = {"Accept-Language": lang}
    assert client.post("/api/signin", json=body, headers=headers).status_code == 403
    forged = {**headers, "X-CSRF-Token": "x" * 43}
    assert client.post("/api/signin", json=body, headers=forged).status_code == 403
    other = {**headers, "Origin": "https://evil.example"}
    token = client.get("/api/session").json()["csrf"]
    other["X-CSRF-Token"] = token
    assert client.post("/api/signin", json=body, headers=other).status_code == 403
    assert post(client, "/api/signin", body).status_code == 200
    assert client.get("/api/session").json()["user"]["login"] == login
    with app.state.db.session() as s:
        course = people.create_class(s, "Spring")
        code = course.invite_code
    joined = post(
        client,
        "/api/join",
        {"invite_code": code, "login": "grace", "name": "Grace", "password": PASSWORD},
    )
    assert joined.status_code == 200, joined.text


def _raw_get(app, path: bytes, query: bytes):
    """One GET straight to the app, its query bytes as they are (no client tidies them)."""
    messages = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path.decode(),
        "raw_path": path,
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    # A thread of its own: a browser test earlier in the session may hold this thread's loop.
    worker = threading.Thread(target=asyncio.run, args=(app(scope, receive, send),))
    worker.start()
    worker.join()
    start = next(m for m in messages if m["type"] == "http.response.start")
    return start["status"], start["headers"]


def test_the_signin_redirect_keeps_lang_on_this_site_in_one_header(app, client):
    for query, location in (
        ("lang=//evil.example", "/signin/?lang=//evil.example"),
        ("lang=ru&next=https://evil.example/", "/signin/?lang=ru&next=https://evil.example/"),
        ("lang=%0d%0aSet-Cookie:%20x=1", "/signin/?lang=%0d%0aSet-Cookie:%20x=1"),
    ):
        moved = client.get("/signin?" + query, follow_redirects=False)
        assert moved.status_code == 307 and moved.headers["location"] == location
        assert "set-cookie" not in moved.headers
    status, headers = _raw_get(app, b"/signin", b"lang=ru\r\nSet-Cookie: x=1\r\n\r\n<b>&a=\\\\evil")
    assert status == 307
    names = [k for k, _ in headers]
    assert b"set-cookie" not in names and names.count(b"location") == 1
    location = dict(headers)[b"location"]
    assert location.startswith(b"/signin/?lang=ru") and not re.search(rb"[\r\n\\<> ]", location)


# --- caches and catalogs -----------------------------------------------------------------


def test_the_pages_are_not_stored_and_say_they_vary_by_language(app, client):
    """A shared cache must not give one reader's language to another: the pages are not
    stored, and say that Accept-Language chose them."""
    _, token = learner(app)
    for path in ("/signin/", f"/signin/link/{token}"):
        for kwargs in ({}, {"params": {"lang": "ru"}}, {"headers": {"Accept-Language": "et"}}):
            response = client.get(path, **kwargs)
            assert response.headers["cache-control"] == "no-store"
            vary = {v.strip().lower() for v in response.headers.get("vary", "").split(",")}
            assert "accept-language" in vary, (path, kwargs)


@pytest.mark.parametrize("broken", ["garbage", "truncated", "folder", "missing"])
def test_a_catalog_that_cannot_be_read_gives_an_english_page_that_says_so(
    client, fresh_templates, monkeypatch, tmp_path, capsys, broken
):
    real = grader.messages.LOCALE_DIRS[-1] / "ru" / "LC_MESSAGES" / "course.mo"
    folder = tmp_path / "locales" / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    if broken == "garbage":
        (folder / "course.mo").write_bytes(b"not a catalog")
    elif broken == "truncated":
        (folder / "course.mo").write_bytes(real.read_bytes()[:200])
    elif broken == "folder":
        (folder / "course.mo").mkdir()
    monkeypatch.setattr(grader.messages, "LOCALE_DIRS", (tmp_path / "locales",))
    for kwargs in ({"params": {"lang": "ru"}}, {"headers": {"Accept-Language": "ru"}}):
        response = client.get("/signin/", **kwargs)
        assert response.status_code == 200
        assert lang_of(response.text) == "en"  # the language of its words
        assert "<h2>Join a class</h2>" in response.text
        assert 'data-course-home="/ru/"' in response.text  # the learner's course is still Russian
    assert client.get("/signin/link/abc", params={"lang": "ru"}).status_code == 200
    if broken != "missing":
        assert "cannot be read" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_class_s_name_and_code_are_not_on_a_translated_page(app, client, lang):
    """The pages name the viewer only: a class's name (which its instructor chose) and its
    invite code are not on them, in any language."""
    hostile = "<img src=x onerror=alert(1)> %(name)s {{ 7*7 }}"
    with app.state.db.session() as s:
        course = people.create_class(s, hostile)
        user = people.add_member(s, course, "Ada", password=PASSWORD)
        login, code = user.login, course.invite_code
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    assert client.get("/api/session").json()["user"]["classes"][0]["name"] == hostile
    page = client.get("/signin/", params={"lang": lang}).text
    assert lang_of(page) == lang and f"<strong>{login}</strong>" in page
    assert "<img" not in page and "onerror" not in page and "49" not in page
    assert code not in page

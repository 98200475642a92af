"""The sign-in, join and sign-in-link pages: labelled forms, one same-origin script, and a
link page that does not use the link up."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from server import people
from server.app import create_app
from server.config import Settings
from server.db import Database

BASE = "http://127.0.0.1:8000"
PASSWORD = "a long enough password"


class Page(HTMLParser):
    """The tags of a page, and the text inside each <script>."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.scripts, self._in_script = [], [], False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data

    def all(self, tag):
        return [attrs for t, attrs in self.tags if t == tag]


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


def learner(app, name="Ada Lovelace", password=PASSWORD):
    """A learner in a new class; (login, a sign-in link's token)."""
    with app.state.db.session() as s:
        course = people.create_class(s, "Autumn")
        user = people.add_member(s, course, name, password=password)
        link = people.signin_link(s, user, BASE + "/")
        return user.login, link.rsplit("/", 1)[1]


def post(client, path, body):
    token = client.get("/api/session").json()["csrf"]
    return client.post(path, json=body, headers={"X-CSRF-Token": token})


def assert_labelled(page: Page):
    """Every visible input has a <label for=...>; every form posts (never a GET with the password)."""
    labels = {attrs.get("for") for attrs in page.all("label")}
    inputs = [a for a in page.all("input") if a.get("type") != "hidden"]
    assert inputs
    for attrs in inputs:
        assert attrs.get("id") in labels, attrs
        assert attrs.get("autocomplete"), attrs
    for form in page.all("form"):
        assert form.get("method") == "post" and form.get("data-api", "").startswith("/api/")


def assert_self_contained(html: str, page: Page):
    """No address of another host, no inline script or handler, no inline style."""
    assert not re.search(r"https?://", html)
    assert page.all("script") == [{"src": "/signin/static/signin.js", "defer": None}]
    assert page.scripts == [""]
    for _tag, attrs in page.tags:
        assert not [name for name in attrs if name.startswith("on") or name == "style"]
    assert not page.all("style") and not page.all("iframe") and not page.all("img")


def test_the_signin_page_has_both_forms_labelled(client):
    response = client.get("/signin/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = Page(response.text)
    assert_labelled(page)
    assert_self_contained(response.text, page)
    forms = {f["id"]: f["data-api"] for f in page.all("form")}
    assert forms == {"signin": "/api/signin", "join": "/api/join"}
    inputs = {a["id"]: a for a in page.all("input")}
    assert inputs["signin-login"]["autocomplete"] == "username"
    assert inputs["signin-password"]["autocomplete"] == "current-password"
    assert inputs["join-password"]["autocomplete"] == "new-password"
    assert inputs["join-password"]["minlength"] == str(people.MIN_PASSWORD)
    assert {a["name"] for a in page.all("input") if a["id"].startswith("join-")} == {
        "invite_code",
        "login",
        "name",
        "password",
    }
    assert len(page.all("main")) == 1 and "width=device-width" in response.text
    # The page names who is signed in: no cache keeps it; no other site may frame or feed it.
    assert response.headers["cache-control"] == "no-store"
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp
    assert response.headers["referrer-policy"] == "same-origin"


def test_signed_in_the_page_names_the_viewer_and_offers_sign_out(app, client):
    login, _ = learner(app, name="Ada <b>Lovelace</b>")
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    response = client.get("/signin/")
    page = Page(response.text)
    assert "Signed in as Ada &lt;b&gt;Lovelace&lt;/b&gt;" in response.text
    assert "<b>" not in response.text
    assert [f["data-api"] for f in page.all("form")] == ["/api/signout"]
    assert_self_contained(response.text, page)
    assert post(client, "/api/signout", {}).status_code == 200
    assert 'id="join"' in client.get("/signin/").text


def test_signin_without_a_slash_keeps_next(client):
    response = client.get("/signin?next=/lessons/day05/", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/signin/?next=/lessons/day05/"


def test_opening_a_link_page_does_not_use_the_link(app, client):
    login, token = learner(app)
    for _ in range(3):  # a mail scanner, a preview, the learner
        response = client.get(f"/signin/link/{token}")
        assert response.status_code == 200
    page = Page(response.text)
    assert_labelled(page)
    assert_self_contained(response.text, page)
    hidden = [a for a in page.all("input") if a.get("type") == "hidden"]
    assert hidden == [{"type": "hidden", "name": "token", "value": token}]
    assert page.all("input")[-1]["autocomplete"] == "new-password"
    assert response.headers["referrer-policy"] == "same-origin"
    assert response.headers["cache-control"] == "no-store"
    # The button's POST still works, once; with the password it sets, the learner signs in.
    signed = post(client, "/api/signin-link", {"token": token, "password": "another good one"})
    assert signed.status_code == 200 and signed.json()["user"]["login"] == login
    assert post(client, "/api/signin-link", {"token": token}).status_code == 400
    post(client, "/api/signout", {})
    again = post(client, "/api/signin", {"login": login, "password": "another good one"})
    assert again.status_code == 200


def test_a_link_page_is_the_same_for_any_token(client):
    # Not looked up: an unknown token gets the same page (the POST says it is wrong).
    response = client.get("/signin/link/%3Cscript%3Ealert(1)%3C%22%3E")
    assert response.status_code == 200
    assert "<script>alert" not in response.text
    assert post(client, "/api/signin-link", {"token": "nope"}).status_code == 400


def test_the_script_and_style_are_served(client):
    script = client.get("/signin/static/signin.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert "X-CSRF-Token" in script.text and "/api/session" in script.text
    assert not re.search(r"https?://", script.text)
    style = client.get("/signin/static/signin.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert not re.search(r"https?://|@import|url\(", style.text)
    assert client.get("/signin/static/../pages.py").status_code == 404


def test_a_stale_session_cookie_does_not_block_signing_in(app, client):
    """A browser whose session the server no longer knows (signed out elsewhere, the
    database reset) gets a CSRF token that works, and can sign in again."""
    login, _ = learner(app)
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    assert client.cookies.get("course_session")
    with app.state.db.session() as s:
        from server.models import SignInSession

        s.query(SignInSession).delete()
    assert "Sign in" in client.get("/signin/").text
    response = post(client, "/api/signin", {"login": login, "password": PASSWORD})
    assert response.status_code == 200, response.text


def test_signing_out_from_another_origin_deletes_the_cookie_it_set(database_url, tmp_path):
    """With CORS_ORIGIN the session cookie is SameSite=None; Secure, and a deletion with
    weaker attributes would be ignored by the browser in a cross-site fetch."""
    settings = Settings.from_env(
        {
            "COURSE_DATA_DIR": str(tmp_path / "data"),
            "DATABASE_URL": database_url,
            "PUBLIC_URL": "https://course.example.org/",
            "CORS_ORIGIN": "https://site.example.org",
        },
        secret_key="s" * 48,
    )
    db = Database(settings.database_url)
    db.migrate()
    app = create_app(settings, db)
    login, _ = learner(app)
    with TestClient(app, base_url="https://course.example.org") as client:
        assert (
            post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
        )
        response = post(client, "/api/signout", {})
        cookie = response.headers["set-cookie"].lower()
        assert cookie.startswith("course_session=") and "max-age=0" in cookie
        assert "samesite=none" in cookie and "secure" in cookie
    db.dispose()


def test_the_course_is_served_cross_origin_isolated_and_the_api_is_not_cached(tmp_path):
    """The built course at / gets the headers `nox -s serve` gives it (SharedArrayBuffer,
    so Stop interrupts Python); the API's answers are the server's own and never cached."""
    from tools.serve import ISOLATION_HEADERS

    from .client import make_server

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>course</title>")
    srv = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}", COURSE_SITE_DIR=str(site))
    try:
        client = srv.browser().client
        home = client.get("/")
        assert home.status_code == 200 and "course" in home.text
        for name, value in ISOLATION_HEADERS.items():
            assert home.headers[name] == value
        assert home.headers["cache-control"] == "no-cache"
        api = client.get("/api/session")
        assert api.headers["cache-control"] == "no-store"
        assert api.headers["x-content-type-options"] == "nosniff"
    finally:
        srv.db.dispose()


# The pages in the learner's language: ?lang= (the course's page passes it, web/server.js),
# else Accept-Language, else English; any other value is English, never an error.

WORDS = {
    # language: (the sign-in page's words, the link page's words)
    "ru": (
        [
            "<title>Войти · От производной до работающего GPT</title>",
            "<h1>Войти</h1>",
            "<h2>Вступить в группу</h2>",
            ">Код приглашения</label>",
            ">Логин</label>",
            ">Пароль</label>",
            "Не меньше 10 символов.",
            "JavaScript: включите",
        ],
        [
            "<h1>Войти по этой ссылке?</h1>",
            ">Пароль на следующий раз (необязательно)</label>",
            "Не меньше 10 символов; оставьте",
            '<button type="submit">Войти</button>',
        ],
    ),
    "et": (
        [
            "<title>Logi sisse · Tuletisest töötava GPT-ni</title>",
            "<h1>Logi sisse</h1>",
            "<h2>Liitu klassiga</h2>",
            ">Kutsekood</label>",
            ">Kasutajanimi</label>",
            ">Parool</label>",
            "Vähemalt 10 märki.",
            "Need vormid vajavad JavaScripti",
        ],
        [
            "<h1>Kas logida selle lingiga sisse?</h1>",
            ">Parool järgmiseks korraks (valikuline)</label>",
            "Vähemalt 10 märki; jäta",
            '<button type="submit">Logi sisse</button>',
        ],
    ),
}
# The English pages as they were before they had other languages, word for word.
ENGLISH = [
    '<html lang="en">',
    "<title>Sign in · From a derivative to a working GPT</title>",
    '<p class="course-home"><a href="/">From a derivative to a working GPT</a></p>',
    "<h2>Join a class</h2>\n<p>Your instructor gives you the class's invite code. Choose a login"
    " and a password: you\nsign in with them from then on.</p>",
    '<span class="hint" id="join-login-hint">2 to 40 letters, digits, dots, dashes or\n'
    "    underscores, starting with a letter or digit.</span>",
    '<span class="hint" id="join-password-hint">At least 10 characters.</span>',
    '<p class="actions"><button type="submit">Join the class</button></p>',
    '<noscript><p class="message">These forms need JavaScript: turn it on for this site and'
    " reload the page.</p></noscript>",
]
HOSTILE = ["../../x", "/etc/passwd", "x" * 10_240, "ru/../et", "RU ", "ru\x00", "e", "de"]


def lang_of(html: str) -> str:
    return Page(html).all("html")[0]["lang"]


def assert_speaks(html: str, lang: str, words: list[str]):
    assert lang_of(html) == lang
    for word in words:
        assert word in html, (lang, word)
    for english in ("Sign in with this link?", "Join a class", "Invite code", "Password<"):
        assert english not in html, (lang, english)


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_pages_speak_the_language_the_course_page_asks_for(app, client, lang):
    _, token = learner(app)
    signin_words, link_words = WORDS[lang]
    for path, words in (
        (f"/signin/?lang={lang}", signin_words),
        (f"/signin/link/{token}?lang={lang}", link_words),
    ):
        response = client.get(path)
        assert response.status_code == 200
        assert_speaks(response.text, lang, words)
        page = Page(response.text)
        assert_labelled(page)
        assert_self_contained(response.text, page)
    # The course's home in that language; /signin keeps the language on its way to /signin/.
    page = client.get(f"/signin/?lang={lang}").text
    assert f'data-course-home="/{lang}/"' in page and f'<a href="/{lang}/">' in page
    moved = client.get(f"/signin?next=/{lang}/lessons/&lang={lang}", follow_redirects=False)
    assert moved.headers["location"] == f"/signin/?next=/{lang}/lessons/&lang={lang}"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru", "ru"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("et-EE, et;q=0.9", "et"),
        ("de-DE, de;q=0.9, et;q=0.5, ru;q=0.4", "et"),  # the first the course speaks
        ("en;q=0.5, ru", "ru"),  # by weight, not by order
        ("ru;q=0, et;q=0.1", "et"),  # q=0: not wanted
        ("de, fr;q=0.8", "en"),
        ("", "en"),
    ],
)
def test_without_lang_the_browser_s_languages_choose(app, client, header, lang):
    _, token = learner(app)
    for path in ("/signin/", f"/signin/link/{token}"):
        response = client.get(path, headers={"Accept-Language": header})
        assert response.status_code == 200
        assert lang_of(response.text) == lang
        if lang != "en":
            assert_speaks(response.text, lang, WORDS[lang][path != "/signin/"])


def test_lang_comes_before_the_browser_s_languages(client):
    page = client.get("/signin/?lang=et", headers={"Accept-Language": "ru"}).text
    assert_speaks(page, "et", WORDS["et"][0])
    english = client.get("/signin/?lang=en", headers={"Accept-Language": "ru"}).text
    assert english == client.get("/signin/").text


def test_the_signed_in_page_speaks_russian_and_escapes_the_name(app, client):
    login, _ = learner(app, name="Ada <b>Lovelace</b> 100%")
    assert post(client, "/api/signin", {"login": login, "password": PASSWORD}).status_code == 200
    page = client.get("/signin/", headers={"Accept-Language": "ru"}).text
    assert lang_of(page) == "ru"
    assert "<h1>Вы вошли как Ada &lt;b&gt;Lovelace&lt;/b&gt; 100%</h1>" in page
    assert f"Ваш логин — <strong>{login}</strong>." in page
    assert '<a class="button" href="/ru/">Перейти к курсу</a>' in page
    assert '<button type="submit">Выйти</button>' in page and "<b>" not in page
    english = client.get("/signin/").text
    assert "<h1>Signed in as Ada &lt;b&gt;Lovelace&lt;/b&gt; 100%</h1>" in english
    assert f"<p>Your login is <strong>{login}</strong>. Your submissions" in english
    assert '<a class="button" href="/">Go to the course</a>' in english


def test_english_is_unchanged_and_what_the_course_does_not_speak_is_english(app, client):
    _, token = learner(app)
    signin, link = client.get("/signin/").text, client.get(f"/signin/link/{token}").text
    for words in ENGLISH:
        assert words in signin, words
    assert '<html lang="en">' in link and "<h1>Sign in with this link?</h1>" in link
    assert (
        '<span class="hint" id="link-password-hint">At least 10 characters; leave it\n'
        "    empty to keep signing in with links.</span>"
    ) in link
    for bad in HOSTILE:
        for path, english in (("/signin/", signin), (f"/signin/link/{token}", link)):
            response = client.get(path, params={"lang": bad})
            assert response.status_code == 200, bad[:20]
            assert response.text == english, bad[:20]
            if bad != "RU ":  # as a header, a language range: any case, spaces around
                response = client.get(path, headers={"Accept-Language": bad})
                assert response.status_code == 200 and response.text == english, bad[:20]
    for header in ("ru;q=abc", "ru;q=1.2.3", ";;;,,,", "*", "x" * 10_240 + ",ru"):
        response = client.get("/signin/", headers={"Accept-Language": header})
        assert response.status_code == 200 and lang_of(response.text) in ("en", "ru"), header[:20]


def test_the_templates_translations_fill_the_same_fields():
    """The templates' messages use %(name)s (Jinja2's i18n): each translation has the same."""
    from babel.messages.pofile import read_po

    import translations

    field = re.compile(r"%\((\w+)\)s")
    for lang in ("ru", "et"):
        with open(translations.LOCALES / lang / "LC_MESSAGES" / "course.po", "rb") as f:
            catalog = read_po(f, locale=lang)
        ours = [m for m in catalog if any(p.startswith("server/") for p, _ in m.locations)]
        assert len(ours) > 20
        for m in ours:
            sources = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            wanted = set(field.findall(sources[-1]))
            for s in strings:
                assert s and set(field.findall(s)) == wanted, (lang, m.id)
                assert "%" not in field.sub("", s), (lang, s)


def test_the_server_finds_the_catalogs_from_any_folder(tmp_path):
    """The compiled catalogs are read beside the checkout's grader (grader/messages.py), not
    from the working directory: the server started anywhere speaks Russian."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "from server.pages import _templates\n"
        "print(_templates('ru').get_template('signin.html').render(user=None, lang='ru',"
        " min_password=10, course_home='/ru/', course_root='/ru/', course_origin=''))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "<h2>Вступить в группу</h2>" in out

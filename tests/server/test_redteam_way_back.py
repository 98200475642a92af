"""Red team of the instructor's refusal pages and their way back (app.html_error,
gradebook.way_back): what they tell a viewer who may not see a class, and what a hostile
path, ?lang=, Accept: or method makes of them."""

from __future__ import annotations

import re
import uuid

import pytest

from . import test_gradebook
from .test_gradebook import ADD_MUL
from .test_instructor_pages import Visible, fill

world = test_gradebook.world  # the gradebook tests' class, another class and its teacher

ABSENT = 999999  # an id no class, re-grade or learner has
COURSE_ROOTS = {"/", "/ru/", "/et/"}


def _pairs(w, paths) -> list[tuple[str, str, str]]:
    """(method, a path to something that exists, the same path to nothing)."""
    return [
        ("GET", f"/instructor/classes/{w.course}", f"/instructor/classes/{ABSENT}"),
        (
            "GET",
            f"/instructor/classes/{w.course}/gradebook.csv",
            f"/instructor/classes/{ABSENT}/gradebook.csv",
        ),
        (
            "GET",
            f"/instructor/classes/{w.course}/learners/{w.users['ada']}.json",
            f"/instructor/classes/{ABSENT}/learners/{w.users['ada']}.json",
        ),
        ("GET", paths["latest"], f"/instructor/submissions/{uuid.uuid4()}"),
        ("GET", paths["running"], f"/instructor/regrades/{ABSENT}"),
        (
            "POST",
            f"/instructor/classes/{w.course}/regrade",
            f"/instructor/classes/{ABSENT}/regrade",
        ),
    ]


def _ask(client, csrf, method, path, **kw):
    if method == "POST":
        data = {"csrf": csrf, "exercise": ADD_MUL}
        return client.post(path, data=data, follow_redirects=False, **kw)
    return client.get(path, follow_redirects=False, **kw)


@pytest.mark.parametrize("who", ["ada", "bob", "other_teacher", None])
def test_a_class_that_is_not_yours_answers_byte_for_byte_as_one_that_is_not_there(world, who):
    paths = fill(world)
    client, csrf = world.client(who)
    for ask in ({}, {"params": {"lang": "ru"}}, {"headers": {"Accept-Language": "et"}}):
        for method, there, absent in _pairs(world, paths):
            seen, nothing = (_ask(client, csrf, method, p, **ask) for p in (there, absent))
            assert seen.status_code == nothing.status_code == 404, (who, there)
            assert seen.content == nothing.content, (who, there)
            assert dict(seen.headers) == dict(nothing.headers), (who, there)
            # Nothing of the class, its learners or the viewer's token on the page.
            for secret in ("Autumn class", "Ada Lovelace", "Grace Hopper", csrf, ADD_MUL):
                assert secret not in seen.text, (who, there, secret)
            links = Visible(seen.text).links
            if who == "other_teacher":
                assert {link.split("?")[0] for link in links} == {"/instructor/"}
            else:  # a learner or a visitor: back to the course, no instructor's action
                assert set(links) <= COURSE_ROOTS, (who, links)


HOSTILE_PATHS = [
    "/instructor/classes/99999999999999999999999999",
    "/instructor/classes/2147483648",
    "/instructor/classes/0",
    "/instructor/classes/-1",
    "/instructor/classes/abc",
    "/instructor/classes/%D9%A1",  # an Arabic-Indic one
    "/instructor/classes/1%00",
    "/instructor/classes/%2F%2Fevil.example",
    "/instructor//evil.example",
    "/instructor/classes/1/..%2F..%2F..%2Fevil.example",
    "/instructor/submissions/%2F%2Fevil.example",
    "/instructor/submissions/%00",
    "/instructor/submissions/0%00000000-0000-4000-8000-000000000000",
    "/instructor/classes/1/learners/99999999999999999999999999.json",
    "/instructor/regrades/99999999999999999999999999",
    "/instructor/static/..%2F..%2Fapp.py",
    "/instructor/static/nope.css",
]


@pytest.mark.parametrize("who", ["teacher", "ada", None])
def test_a_hostile_path_leads_back_only_to_the_course_s_own_pages(world, who):
    client, _ = world.client(who)
    own = {"/instructor/", f"/instructor/classes/{world.course}", *COURSE_ROOTS}
    for path in HOSTILE_PATHS:
        answer = client.get(path)
        assert 400 <= answer.status_code < 500, path
        assert answer.headers["content-type"].startswith("text/html"), path
        links = Visible(answer.text).links
        assert links and set(links) <= own, (path, links)
        assert "evil" not in answer.text and "Traceback" not in answer.text, path


HOSTILE_LANGS = [
    "ru\r\nSet-Cookie: stolen=1",
    '"><script>alert(1)</script>',
    "//evil.example",
    "ru&next=//evil.example",
    "javascript:alert(1)",
    "ru\x00",
    "RU",
    "x" * 10_000,
]


@pytest.mark.parametrize("who", ["teacher", "other_teacher", "ada"])
def test_a_hostile_lang_never_reaches_the_link_or_the_headers(world, who):
    client, csrf = world.client(who)
    own = {"/instructor/", f"/instructor/classes/{world.course}", *COURSE_ROOTS}
    for bad in HOSTILE_LANGS:
        for answer in (
            client.get(f"/instructor/classes/{ABSENT}", params={"lang": bad}),
            _ask(
                client,
                "0" * 64,
                "POST",
                f"/instructor/classes/{world.course}/regrade",
                params={"lang": bad},
            ),
        ):
            assert answer.status_code in (403, 404), bad[:20]
            assert "stolen" not in str(answer.headers) and "set-cookie" not in answer.headers
            assert Visible(answer.text).links[0] in own, bad[:20]
            for piece in ("<script", "evil", "javascript:", "\r", "\x00", "xxxx"):
                assert piece not in answer.text, (bad[:20], piece)
            assert Visible(answer.text).attrs.get("lang", "en") == "en"


@pytest.mark.parametrize("who", ["teacher", "ada", None])
def test_json_stays_json_whatever_the_accept(world, who):
    client, _ = world.client(who)
    for accept in ("text/html", "*/*", "application/json", "text/html, application/json;q=0.1"):
        for api in (
            f"/api/regrades/{ABSENT}",
            "/api/regrades/99999999999999999999",
            "/api/submissions/%00",
        ):
            answer = client.get(api, headers={"Accept": accept})
            assert answer.status_code in (401, 404), api
            assert answer.headers["content-type"] == "application/json"
            assert set(answer.json()) == {"error"}
        page = client.get(f"/instructor/classes/{ABSENT}", headers={"Accept": accept})
        if "application/json" in accept:
            assert set(page.json()) == {"error"}
        else:
            assert page.headers["content-type"].startswith("text/html")
            assert "<a href=" in page.text


def test_head_answers_as_get_without_a_way_to_tell_more(world):
    client, _ = world.client("other_teacher")
    for path in (f"/instructor/classes/{world.course}", f"/instructor/classes/{ABSENT}"):
        head, get = client.head(path), client.get(path)
        assert head.status_code == get.status_code == 404
        assert head.headers["content-type"] == get.headers["content-type"]


@pytest.mark.parametrize("who", ["teacher", None])
def test_a_method_the_page_does_not_take_says_which_it_takes(world, who):
    # A 405 names what the route allows (RFC 9110 15.5.6), on the HTML page as in JSON.
    client, _ = world.client(who)
    for method, path, allowed in (
        ("OPTIONS", f"/instructor/classes/{world.course}", {"GET", "HEAD"}),
        ("POST", f"/instructor/classes/{world.course}", {"GET", "HEAD"}),
        ("GET", f"/instructor/classes/{world.course}/regrade", {"POST"}),
        ("DELETE", "/instructor/", {"GET", "HEAD"}),
    ):
        for accept in ("text/html", "application/json"):
            answer = client.request(method, path, headers={"Accept": accept})
            assert answer.status_code == 405, (method, path)
            assert set(re.split(r",\s*", answer.headers.get("allow", ""))) == allowed
            if accept == "text/html":
                assert answer.headers["content-type"].startswith("text/html")

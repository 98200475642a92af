"""The page's side of the course server (server/README.md), against a fake of its API.

The site is built once for this module with SUBMIT_URL set to its own address (a server on the
site's origin); Playwright answers every request under api/ from `FakeServer`, which follows
the README's contract: session and CSRF token, submissions (queued, grading, graded), progress
with revisions and 409.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from conftest import PageWatch
from helpers import PLAYGROUND, editor_text, set_code
from playwright.sync_api import expect

from tests.site_server import serve

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hooks"))
from course_site import submit_url  # noqa: E402

FILE = "day05_add_mul.py"
PREFIX = "derivative-to-gpt/v1/"
USER = {
    "id": 7,
    "login": "ada",
    "name": "Ada L.",
    "classes": [{"id": 1, "name": "A", "role": "learner"}],
}


@pytest.fixture(scope="module")
def served_site(server_site, server_port):
    """The site built with SUBMIT_URL = its own address (conftest), served isolated."""
    server = serve(server_site, isolation=True, port=server_port)
    yield server_site, f"http://127.0.0.1:{server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def site(served_site):
    return served_site[1]


class FakeServer:
    """The course server's JSON API, as server/README.md gives it, in memory."""

    def __init__(self):
        self.user = None
        self.csrf = "csrf-token-1"
        self.submissions: list[dict] = []
        self.steps: dict[int, list[str]] = {}  # id -> the states its next reads give
        self.revision = 0
        self.work = None
        self.conflicts: list[dict] = []  # answers given to the next PUTs instead of storing
        self.submit_error: tuple[int, str] | None = None
        self.requests: list[tuple[str, str, dict | None, dict]] = []
        self.reachable = True
        self.deadlines: list[dict] = []

    def answer(self, route, status, body):
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def handle(self, route, request):
        if not self.reachable:
            return route.abort()
        url = urlsplit(request.url)
        path = url.path.split("/api/", 1)[1]
        body = json.loads(request.post_data) if request.post_data else None
        self.requests.append((request.method, path, body, request.headers))
        if request.method != "GET" and request.headers.get("x-csrf-token") != self.csrf:
            return self.answer(route, 403, {"error": "The CSRF token is missing or wrong."})
        if path == "session":
            return self.answer(route, 200, {"user": self.user, "csrf": self.csrf})
        if path == "signout":
            self.user = None
            return self.answer(route, 200, {})
        if self.user is None:
            return self.answer(route, 401, {"error": "Sign in first."})
        if path == "deadlines":
            return self.answer(route, 200, {"deadlines": self.deadlines})
        if path == "submissions" and request.method == "POST":
            if self.submit_error:
                status, error = self.submit_error
                return self.answer(route, status, {"error": error})
            s = self.add(body["exercise"], "queued", ["grading", "graded"])
            s["code"] = body["code"]
            return self.answer(route, 202, {"submission": self.public(s)})
        if path == "submissions":
            exercise = parse_qs(url.query).get("exercise", [None])[0]
            mine = [self.public(s) for s in reversed(self.submissions) if s["exercise"] == exercise]
            return self.answer(route, 200, {"submissions": mine})
        m = re.fullmatch(r"submissions/(\d+)", path)
        if m:
            s = next(s for s in self.submissions if s["id"] == int(m.group(1)))
            if self.steps.get(s["id"]):
                s["state"] = self.steps[s["id"]].pop(0)
                if s["state"] == "graded":
                    s.update(score=3, max_score=5, feedback="<b>3 of 5</b> checks passed\nok")
            return self.answer(route, 200, {"submission": self.public(s)})
        if path == "progress" and request.method == "GET":
            return self.answer(route, 200, {"revision": self.revision, "work": self.work})
        if path == "progress" and request.method == "PUT":
            if self.conflicts:
                self.revision, self.work = self.conflicts.pop(0)
                return self.answer(route, 409, {"revision": self.revision, "work": self.work})
            if body["revision"] != self.revision:
                return self.answer(route, 409, {"revision": self.revision, "work": self.work})
            self.revision += 1
            self.work = body["work"]
            return self.answer(route, 200, {"revision": self.revision})
        return self.answer(route, 404, {"error": "no such thing"})

    def add(self, exercise, state, steps=(), **fields):
        n = len(self.submissions) + 1
        s = {
            "id": n,
            "exercise": exercise,
            "class_id": 1,
            "state": state,
            "created_at": f"2026-11-2{n}T10:00:00Z",
            "late": False,
            "score": None,
            "max_score": None,
            "feedback": None,
            "attempts": 1,
            **fields,
        }
        self.submissions.append(s)
        self.steps[n] = list(steps)
        return s

    def public(self, s):
        return {k: v for k, v in s.items() if k != "code"}

    def calls(self, method, path):
        return [r for r in self.requests if r[0] == method and r[1] == path]


@pytest.fixture
def fake(page):
    server = FakeServer()
    page.route(re.compile(r"/api/"), server.handle)
    return server


@pytest.fixture
def server_page(page, fake):
    """A watched page, where the fake's own 4xx answers and refusals are expected."""
    watch = PageWatch()
    watch.attach(page)
    page.set_default_timeout(30_000)
    yield page
    assert not watch.foreign, watch.foreign
    assert not watch.errors, watch.errors
    unexpected = [
        f
        for f in watch.failed
        if "/api/" not in f
        and "status of 4" not in f
        and "net::ERR_FAILED" not in f  # the fake set unreachable
    ]
    assert not unexpected, unexpected


def wait_for(page, predicate, timeout=10.0):
    """Let the page run (the fake answers meanwhile) until `predicate()` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "waited in vain"
        page.wait_for_timeout(50)


def block(page):
    return page.locator(f"[data-exercise='{FILE}']")


def stored(page, key):
    return page.evaluate("k => localStorage.getItem(k)", PREFIX + key)


def work(items):
    return {
        "format": "course-work",
        "course": "derivative-to-gpt",
        "storageVersion": 1,
        "siteVersion": "",
        "exported": "2026-11-20T00:00:00Z",
        "items": items,
    }


def test_submit_url_is_read_with_its_trailing_slash_and_checked():
    assert submit_url({}) is None
    assert submit_url({"SUBMIT_URL": " "}) is None
    assert submit_url({"SUBMIT_URL": "https://c.example.org"}) == "https://c.example.org/"
    assert submit_url({"SUBMIT_URL": "http://127.0.0.1:8000/x/"}) == "http://127.0.0.1:8000/x/"
    for bad in ("c.example.org", "ftp://c.example.org/", "https://c.example.org/?a=1"):
        with pytest.raises(ValueError, match="SUBMIT_URL"):
            submit_url({"SUBMIT_URL": bad})


def test_every_page_carries_the_server_and_the_worker_leaves_its_paths_alone(served_site):
    out, url = served_site
    for page in ("index.html", "playground/index.html", "map/index.html"):
        assert f'<meta name="course-server" content="{url}">' in (out / page).read_text()
    sw = (out / "sw.js").read_text()
    assert f'"server": "{url}"' in sw
    assert not any(
        p.startswith(("api/", "signin/", "instructor/"))
        for p in json.loads(re.search(r"const BUILD = (\{.*?\});\n", sw).group(1))["files"]
    )


def test_signed_out_submit_keeps_the_code_and_links_to_sign_in(server_page, fake, site):
    page = server_page
    page.goto(site + PLAYGROUND)
    account = page.locator(".course-account")
    expect(account).to_have_attribute("data-account", "signed-out")
    back = f"{site}signin/?next={quote(site + PLAYGROUND, safe='')}&lang=en"
    expect(account.locator("a[data-action=sign-in]")).to_have_attribute("href", back)
    b = block(page)
    submit = b.locator("button[data-action=submit]")
    expect(submit).to_have_text("⇪ Submit")
    set_code(b, "# my attempt, not signed in\n")
    submit.click()
    message = b.locator("[data-submit-message]")
    expect(message).to_contain_text("not signed in")
    expect(message.locator("a[data-action=sign-in]")).to_have_attribute("href", back)
    assert editor_text(b) == "# my attempt, not signed in\n"
    assert json.loads(stored(page, f"exercise/{FILE}"))["code"] == "# my attempt, not signed in\n"
    assert not fake.calls("POST", "submissions")
    assert not fake.calls("GET", "progress")  # nothing of the work is asked while signed out


def test_a_submission_goes_queued_grading_graded_newest_first(server_page, fake, site):
    page = server_page
    fake.user = USER
    fake.add(FILE, "graded", score=1, max_score=5, feedback="1 of 5", late=True)
    fake.deadlines = [
        {
            "class_id": 1,
            "exercise": "day01_derivative.py",
            "due_at": "2030-01-01T00:00:00Z",
            "late_policy": "refuse",
            "penalty_percent": 0,
        },
        {
            "class_id": 1,
            "exercise": FILE,
            "due_at": "2020-03-01T12:00:00Z",
            "late_policy": "penalty",
            "penalty_percent": 20,
        },
    ]
    page.goto(site + PLAYGROUND)
    expect(page.locator(".course-account")).to_contain_text("Signed in as Ada L.")
    b = block(page)
    items = b.locator("li[data-submission]")
    expect(items).to_have_count(1)
    expect(items.first).to_have_attribute("data-score", "1")
    expect(items.first.locator(".course-submission__late")).to_have_text("Late")
    # This exercise's deadline, not another's: passed, and what lateness costs.
    deadline = b.locator("[data-deadline]")
    expect(deadline).to_contain_text("2020")
    expect(deadline).to_contain_text("(passed)")
    expect(deadline).to_contain_text("loses 20 %")

    set_code(b, "def add(a, b):\n    return a + b\n")
    b.locator("[data-action=submit]").click()
    new = b.locator("li[data-submission='2']")
    expect(new).to_have_attribute("data-state", "queued")
    expect(new).to_contain_text("Queued")
    assert items.first.get_attribute("data-submission") == "2"  # newest first
    expect(new).to_have_attribute("data-state", "grading", timeout=5000)
    expect(new).to_contain_text("Grading…")
    expect(new).to_have_attribute("data-state", "graded", timeout=5000)
    expect(new).to_have_attribute("data-score", "3")
    expect(new).to_have_attribute("data-max-score", "5")
    expect(new).to_contain_text("Score 3/5")
    assert [i.get_attribute("data-submission") for i in items.all()] == ["2", "1"]
    # The grader's text is shown as text, never as HTML.
    new.locator("summary").click()
    assert new.locator("pre").inner_text().startswith("<b>3 of 5</b> checks passed")
    assert new.locator("pre b").count() == 0
    expect(b.locator("[data-submit-live]")).to_contain_text("Score 3/5")

    (post,) = fake.calls("POST", "submissions")
    assert post[2] == {"exercise": FILE, "code": "def add(a, b):\n    return a + b\n"}
    assert post[3]["x-csrf-token"] == fake.csrf
    reads = len(fake.calls("GET", "submissions/2"))
    page.wait_for_timeout(3500)
    assert len(fake.calls("GET", "submissions/2")) == reads  # none pending: polling stopped


def test_the_servers_refusal_is_said_in_one_line_and_the_code_kept(server_page, fake, site):
    page = server_page
    fake.user = USER
    fake.submit_error = (413, "This submission is too large (at most 64 KB).")
    page.goto(site + PLAYGROUND)
    b = block(page)
    expect(page.locator(".course-account")).to_have_attribute("data-account", "signed-in")
    set_code(b, "x = 1\n")
    b.locator("[data-action=submit]").click()
    message = b.locator("[data-submit-message]")
    expect(message).to_contain_text("This submission is too large (at most 64 KB).")
    expect(message).to_contain_text("kept in this browser")
    assert editor_text(b) == "x = 1\n"
    assert b.locator("li[data-submission]").count() == 0


def test_an_unreachable_server_is_a_quiet_note(server_page, fake, site):
    page = server_page
    fake.reachable = False
    page.goto(site + PLAYGROUND)
    account = page.locator(".course-account")
    expect(account).to_have_attribute("data-account", "unreachable")
    expect(account).to_contain_text("unreachable")
    b = block(page)
    set_code(b, "y = 2\n")
    b.locator("[data-action=submit]").click()
    expect(b.locator("[data-submit-message]")).to_contain_text("unreachable")
    assert editor_text(b) == "y = 2\n"


def test_progress_from_the_server_is_merged_and_a_newer_edit_here_kept(server_page, fake, site):
    page = server_page
    page.goto(site)  # signed out: nothing is synced
    now = int(time.time() * 1000)
    local = {"code": "# newer here\n", "base": "00000000", "saved": now}
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [PREFIX + f"exercise/{FILE}", json.dumps(local)]
    )
    fake.user = USER
    fake.revision = 7
    fake.work = work(
        {
            f"exercise/{FILE}": {"code": "# older, on the server\n", "saved": now - 60_000},
            "page/playground/cell/0": {"code": "print('from the server')\n", "saved": now - 1},
            "exercise/day01_derivative.py/done": "1",
        }
    )
    page.goto(site + PLAYGROUND)
    expect(page.locator(".course-account")).to_contain_text("Brought 2 items")
    assert json.loads(stored(page, f"exercise/{FILE}"))["code"] == "# newer here\n"
    assert (
        json.loads(stored(page, "page/playground/cell/0"))["code"] == "print('from the server')\n"
    )
    assert stored(page, "exercise/day01_derivative.py/done") == "1"
    assert editor_text(block(page)) == "# newer here\n"
    wait_for(page, lambda: fake.calls("PUT", "progress"))
    (put,) = fake.calls("PUT", "progress")
    assert put[2]["revision"] == 7 and put[3]["x-csrf-token"] == fake.csrf
    items = put[2]["work"]["items"]
    assert items[f"exercise/{FILE}"]["code"] == "# newer here\n"
    assert items["page/playground/cell/0"]["code"] == "print('from the server')\n"
    assert fake.revision == 8


def test_a_put_another_browser_beat_is_merged_and_sent_again(server_page, fake, site):
    page = server_page
    fake.user = USER
    fake.revision = 3
    fake.work = None
    other = work({"exercise/day02_chain_rule.py/done": "1"})
    fake.conflicts = [(4, other)]
    page.goto(site + PLAYGROUND)
    expect(page.locator(".course-account")).to_contain_text("Brought 1 item")
    wait_for(page, lambda: len(fake.calls("PUT", "progress")) == 2)
    puts = fake.calls("PUT", "progress")
    assert [p[2]["revision"] for p in puts] == [3, 4]
    assert puts[1][2]["work"]["items"]["exercise/day02_chain_rule.py/done"] == "1"
    assert stored(page, "exercise/day02_chain_rule.py/done") == "1"
    assert fake.revision == 5

    # A later edit goes up a few seconds after it is saved.
    set_code(block(page), "# later\n")
    wait_for(page, lambda: len(fake.calls("PUT", "progress")) == 3, timeout=15)
    last = fake.calls("PUT", "progress")[-1]
    assert last[2]["revision"] == 5
    assert last[2]["work"]["items"][f"exercise/{FILE}"]["code"] == "# later\n"


def test_another_accounts_work_in_this_browser_is_neither_sent_nor_mixed(server_page, fake, site):
    """A shared computer: Bea's work stays in the browser after she signs out; when Ada
    signs in there, none of it goes to Ada's account and none of Ada's is mixed into it,
    until Ada asks to remove it and load her own."""
    page = server_page
    page.goto(site)
    now = int(time.time() * 1000)
    beas = {"code": "# Bea's answer\n", "base": "00000000", "saved": now}
    page.evaluate(
        "([k, v, o]) => { localStorage.setItem(k, v); localStorage.setItem(o, `${location.origin}/#8`); }",
        [PREFIX + f"exercise/{FILE}", json.dumps(beas), "derivative-to-gpt/server-account"],
    )
    fake.user = USER  # Ada, id 7
    fake.work = work({"page/playground/cell/0": {"code": "print('Ada')\n", "saved": now - 1}})
    fake.revision = 3
    page.goto(site + PLAYGROUND)
    notice = page.locator("[data-foreign-work]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("another account")
    set_code(block(page), "# typed while the notice shows\n")
    page.wait_for_timeout(6500)  # past the 5 s push delay
    assert not fake.calls("PUT", "progress")
    assert not fake.calls("GET", "progress")
    assert stored(page, "page/playground/cell/0") is None  # Ada's work not mixed in

    notice.locator("[data-action=take-over]").click()
    expect(notice).to_be_hidden()
    wait_for(page, lambda: fake.calls("PUT", "progress"))
    (put,) = fake.calls("PUT", "progress")
    items = put[2]["work"]["items"]
    assert f"exercise/{FILE}" not in items  # Bea's answer never reached Ada's account
    assert items["page/playground/cell/0"]["code"] == "print('Ada')\n"
    assert stored(page, f"exercise/{FILE}") is None
    assert page.evaluate("k => localStorage.getItem(k)", "derivative-to-gpt/server-account") == (
        site.rstrip("/") + "/#7"
    )

"""The service worker (web/sw.js): isolation on a host without headers, the course offline after
one visit, and a new build that replaces the old one cleanly.

These tests allow service workers in contexts of their own (the other browser tests block
them) and serve the site from servers of their own, which they can stop.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import (
    LONG_GRACE_MS,
    cell,
    editor_text,
    output,
    run,
    set_code,
    stop_grace,
    wait_state,
)
from playwright.sync_api import expect

from tools.serve import make_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hooks"))
from site_build import ISOLATION_HEADERS, write_service_worker  # noqa: E402

LESSON = "lessons/day05_add_mul/"
OTHER_LESSON = "lessons/day02_chain_rule/"
EXERCISE = "day05_add_mul.py"
NEVER_OPENED = "lessons/day10_neuron/"


class Server:
    """tools/serve.py's server on a free port, in a thread, that a test can stop; `paths` lists
    what it was asked for."""

    def __init__(self, site: Path, isolation: bool):
        self.server = make_server(site, 0, isolation=isolation)
        self.paths = paths = []
        handler = self.server.RequestHandlerClass  # functools.partial(class, directory=...)

        class Logged(handler.func):
            def log_request(self, code="-", size="-"):
                paths.append(self.path)

        self.server.RequestHandlerClass = functools.partial(Logged, **handler.keywords)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def sw_context(browser):
    """A browser context where service workers run, as in a learner's browser."""
    context = browser.new_context(service_workers="allow")
    foreign, errors = [], []
    context.on(
        "request",
        lambda r: urlsplit(r.url).hostname not in (None, "127.0.0.1") and foreign.append(r.url),
    )
    context.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(str(exc))))
    yield context
    context.close()
    assert not foreign, f"requests left localhost: {foreign}"
    assert not errors, f"uncaught page errors: {errors}"


def wait_offline_ready(page, timeout=120_000):
    """Open the course map and wait until it says the whole course is kept."""
    page.goto(page.url.split("/lessons/")[0].rstrip("/") + "/map/")
    line = page.locator(".course-offline")
    expect(line).to_have_attribute("data-offline", "ready", timeout=timeout)
    return line.inner_text()


# Whether the service worker keeps the whole course, asked from the page open now.
KEPT_HERE = """async () => {
  const sw = navigator.serviceWorker;
  if (!sw.controller) return false;
  const state = await new Promise((resolve) => {
    const hear = (event) => {
      if (event.data?.type !== "course-cache") return;
      sw.removeEventListener("message", hear);
      resolve(event.data);
    };
    sw.addEventListener("message", hear);
    sw.controller.postMessage({ type: "cache-state" });
  });
  return state.cached === state.total;
}"""


def cache_names(page):
    return page.evaluate("async () => (await caches.keys()).filter(n => n.startsWith('course-'))")


def test_a_host_without_headers_is_isolated_by_the_service_worker(sw_context, site_dir):
    server = Server(site_dir, isolation=False)
    try:
        page = sw_context.new_page()
        page.set_default_timeout(60_000)
        stop_grace(page, LONG_GRACE_MS)  # an interrupt, however long a loaded machine takes
        page.goto(server.url + "playground/")
        # The first visit is not isolated; the worker takes over and the page reloads once.
        page.wait_for_function("() => crossOriginIsolated === true", timeout=60_000)
        assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "reload"
        assert page.evaluate("navigator.serviceWorker.controller !== null")

        block = cell(page, 0)
        set_code(block, "kept = 41")
        assert run(block) == "done", output(block)
        set_code(block, "while True:\n    pass")
        block.locator("[data-action=run]").click()
        wait_state(block, "running", timeout=60)
        block.locator("[data-action=stop]").click()
        wait_state(block, "idle", timeout=60)
        assert "Stopped" in output(block)
        assert "Python restarted" not in output(block)
        # Interrupted, not restarted: the session's names are still there.
        set_code(block, "print(kept + 1)")
        assert run(block) == "done", output(block)
        assert output(block).strip() == "42"
        # Later visits are isolated from the start: no second reload.
        page.reload()
        assert page.evaluate("crossOriginIsolated") is True
    finally:
        server.stop()


def test_the_course_works_offline_after_one_visit(sw_context, site_dir):
    server = Server(site_dir, isolation=False)
    page = sw_context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(server.url + LESSON)
        page.wait_for_function("() => crossOriginIsolated === true")
        # The first cell, run at once: the course is kept only after its output, so keeping
        # it never competes with Python's start. The cell asks the host for a marker just
        # after its output; the lesson never opened is asked for (to keep it) after that.
        block = cell(page, 0)
        lesson_code = editor_text(block)
        set_code(
            block,
            "from pyodide.http import open_url\n"
            "print('the first output')\n"
            f"marker = open_url('{server.url}first-output-marker')",
        )
        assert run(block) == "done", output(block)
        assert output(block).strip() == "the first output"
        set_code(block, lesson_code)  # kept in this browser: offline, the lesson's own cell runs
        page.goto(server.url + OTHER_LESSON)
        said = wait_offline_ready(page)
        assert re.search(r"whole course \(\d+\.\d MB\)", said), said
        never_opened = server.paths.index("/" + NEVER_OPENED)
        assert server.paths.index("/first-output-marker") < never_opened
        # An English reader keeps the English pages, not the other languages'.
        assert not [p for p in server.paths if p.startswith(("/ru/", "/et/"))]
    finally:
        server.stop()  # the host is gone, and the browser is offline too
    sw_context.set_offline(True)

    page.goto(server.url + LESSON)
    assert page.evaluate("crossOriginIsolated") is True
    block = cell(page, 0)
    assert run(block) == "done", output(block)
    assert output(block).strip()
    exercise = page.locator(f"[data-exercise='{EXERCISE}']")
    exercise.evaluate("el => { el.dataset.state = 'before-test-check' }")
    exercise.locator("[data-action=check]").click()
    assert wait_state(exercise, ("pass", "fail"), timeout=90) == "fail"  # the stub, checked
    set_code(exercise, (ROOT / "solutions" / EXERCISE).read_text())
    exercise.locator("[data-action=check]").click()
    assert wait_state(exercise, ("pass", "fail"), timeout=90) == "pass"

    # A lesson never opened before, and the graph explorer, are there too.
    page.goto(server.url + NEVER_OPENED)
    expect(page.locator("h1")).to_contain_text("neuron", ignore_case=True)
    page.goto(server.url + "explorer/")
    expect(page.locator("[data-explorer][data-state=ready]").first).to_be_visible(timeout=90_000)

    # A notebook's page is kept once opened online; one never opened says so, styled, and
    # links to what is kept: its lesson, the course map and the home page.
    page.goto(server.url + "notebooks/day10_neuron/")
    said = page.locator("[data-offline-page]")
    expect(said.locator("h1")).to_have_text("You are offline")
    expect(said).to_contain_text("This notebook's page was not saved for offline use")
    assert said.evaluate("el => getComputedStyle(document.body).fontFamily") != "Times New Roman"
    assert said.evaluate("el => getComputedStyle(document.body).maxWidth") != "none"
    hrefs = said.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert hrefs == [server.url + "lessons/day10_neuron/", server.url + "map/", server.url]
    said.get_by_role("link", name="This day's lesson").click()
    expect(page.locator("h1")).to_contain_text("neuron", ignore_case=True)


def test_a_reader_of_another_language_keeps_that_language_s_pages(sw_context, site_dir):
    server = Server(site_dir, isolation=True)
    try:
        page = sw_context.new_page()
        page.set_default_timeout(60_000)
        page.goto(server.url + "et/" + OTHER_LESSON)
        said = wait_offline_ready(page)  # et/map/
        assert re.search(r"\(\d+\.\d MB\)", said), said
        kept = page.evaluate(
            "async () => (await (await caches.open((await caches.keys())[0])).keys())"
            ".map(r => new URL(r.url).pathname)"
        )
        assert "/et/" + NEVER_OPENED in kept and "/pyodide/pyodide.asm.wasm" in kept
        assert not [p for p in kept if p.startswith("/ru/")], (
            "a Russian page kept for an Estonian reader"
        )
        assert "/" + NEVER_OPENED not in kept  # the English lesson: kept once visited
        server.stop()
        sw_context.set_offline(True)
        # A notebook's page not kept says so in the reader's language, with links to the
        # pages kept in that language.
        page.goto(server.url + "et/notebooks/day10_neuron/")
        said = page.locator("[data-offline-page]")
        expect(said.locator("h1")).to_have_text("Võrguühendus puudub")
        expect(said).to_contain_text("Selle märkmiku lehte ei salvestatud")
        assert page.evaluate("document.documentElement.lang") == "et"
        hrefs = said.locator("a").evaluate_all("links => links.map(a => a.href)")
        et = server.url + "et/"
        assert hrefs == [et + "lessons/day10_neuron/", et + "map/", et]
        said.get_by_role("link", name="Selle päeva õppetund").click()
        expect(page.locator("h1")).to_contain_text("neuron", ignore_case=True)
    finally:
        sw_context.set_offline(False)
        server.stop()


def test_a_new_build_replaces_the_old_cache_and_reuses_unchanged_files(
    sw_context, site_dir, tmp_path
):
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    server = Server(site, isolation=True)
    try:
        page = sw_context.new_page()
        page.set_default_timeout(60_000)
        page.goto(server.url + LESSON)
        # No cell is run: the lesson's page keeps the course all the same, once Python started.
        page.wait_for_function(KEPT_HERE, polling=500, timeout=120_000)
        wait_offline_ready(page)
        old = cache_names(page)
        assert len(old) == 1

        # A new build: one lesson changed, Pyodide did not.
        lesson = site / OTHER_LESSON / "index.html"
        lesson.write_text(lesson.read_text().replace("</h1>", " (new edition)</h1>", 1))
        build = write_service_worker(ROOT, site)
        assert f"course-{build['version']}" not in old
        server.paths.clear()

        page.goto(server.url + OTHER_LESSON)
        expect(page.locator("h1")).not_to_contain_text("new edition")  # the old build, whole
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        notice = page.locator(".course-update-notice")
        expect(notice).to_be_visible(timeout=60_000)
        with page.expect_navigation():
            notice.locator("[data-action=update]").click()
        expect(page.locator("h1")).to_contain_text("new edition")
        assert cache_names(page) == [f"course-{build['version']}"]
        # The changed lesson came from the host; the unchanged 9.6 MB of Pyodide did not.
        assert "/" + OTHER_LESSON in server.paths
        assert not any(path.endswith("pyodide.asm.wasm") for path in server.paths), server.paths
    finally:
        server.stop()


def test_the_service_worker_is_given_every_file_and_the_isolation_headers(site_dir):
    source = (site_dir / "sw.js").read_text()
    start = source.index("const BUILD = ") + len("const BUILD = ")
    build, _ = json.JSONDecoder().raw_decode(source[start:])
    files = build["files"]
    assert build["headers"] == ISOLATION_HEADERS
    # Pages under their folder's address, with the files they load, each with its hash.
    for path in ("pyodide/pyodide.asm.wasm", "pyodide/pyodide-lock.json"):
        assert files[path][2] is True, path  # every learner's
    # A page is kept ahead for a reader of its language; another language's once visited.
    for path, lang in [("", "en"), ("map/", "en"), (LESSON, "en"), ("ru/", "ru")]:
        assert files[path][2] == lang, path
    assert files["et/" + LESSON][2] == "et"
    assert files["search/search_index.json"][2] == "en"
    assert all(ahead in (True, False, "en", "ru", "et") for _, _, ahead in files.values())
    assert any(p.startswith("pyodide/engine-") and p.endswith(".whl") for p in files)
    assert files["notebooks/day01_derivative/"][2] is False  # kept once visited
    assert files["et/notebooks/day01_derivative/"][2] is False
    assert "sw.js" not in files and "_headers" not in files
    # The explorer's 3-D view (three.js) is a chunk loaded on demand: kept offline all the same.
    (scene,) = [p for p in files if p.startswith("assets/course/chunks/scene3d-")]
    assert files[scene][2] is True
    # Every other file is listed: all but the host's and the developer tools' files.
    left_out = {"sw.js", "_headers", "sitemap.xml.gz"}
    on_disk = {
        p.relative_to(site_dir).as_posix().removesuffix("index.html")
        for p in site_dir.rglob("*")
        if p.is_file() and p.name not in left_out and p.suffix != ".map"
    }
    assert set(files) == on_disk


def test_hosts_that_read_a_headers_file_get_the_isolation_headers(site_dir):
    from tools.serve import ISOLATION_HEADERS as SERVED

    lines = (site_dir / "_headers").read_text().splitlines()
    assert lines[0] == "/*"
    given = dict(line.strip().split(": ", 1) for line in lines[1:])
    assert given == ISOLATION_HEADERS == SERVED


def test_the_publishing_page_states_the_offline_size_of_this_build(site_dir):
    source = (site_dir / "sw.js").read_text()
    start = source.index("const BUILD = ") + len("const BUILD = ")
    build, _ = json.JSONDecoder().raw_decode(source[start:])
    # What an English reader keeps: every shared file and the English pages.
    kept = sum(size for _, size, ahead in build["files"].values() if ahead in (True, "en")) / 1e6
    page = (ROOT / "docs" / "instructors" / "publish.md").read_text()
    stated = float(re.search(r"graph explorer, about (\d+) MB", page).group(1))
    assert abs(kept - stated) <= 0.1 * stated, f"the page says about {stated} MB; kept: {kept:.1f}"

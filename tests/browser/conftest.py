"""Fixtures for the browser tests: the built site (tests/conftest.py: `site_dir`, `base_url`),
also served without isolation headers, and Debian's Chromium.

The site is built once per session into a temporary folder, with its site_url set to
the test server's port (Material's instant navigation needs them to match). Chromium is the system one,
found on PATH; no browser is ever downloaded. Every page a test opens is watched:
a request to any host but 127.0.0.1, or an uncaught page error, fails the test.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.site_server import serve

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # On a page's first visit the service worker keeps the whole course (~20 MB) for offline
    # use, and every test has a fresh context: the tests of the service worker itself
    # (test_offline.py) allow it in contexts of their own; the others run without it.
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def plain_url(site_dir):
    """The site served without COOP/COEP, like a static host that cannot set headers."""
    server = serve(site_dir, isolation=False)
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


class PageWatch:
    """What a page did that it must not: foreign requests and uncaught errors."""

    def __init__(self):
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.failed: list[str] = []

    def attach(self, page):
        page.on("request", self._request)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda m: m.type == "error" and self.failed.append(f"console: {m.text}"))
        # ERR_ABORTED is a request cut short on purpose (a restarted worker, a page left).
        page.on(
            "requestfailed",
            lambda r: (
                "ERR_ABORTED" not in (r.failure or "")
                and self.failed.append(f"{r.url}: {r.failure}")
            ),
        )
        page.on(
            "response",
            lambda r: r.status >= 400 and self.failed.append(f"{r.url}: HTTP {r.status}"),
        )
        for worker in page.context.service_workers:
            worker.on("request", self._request)

    def _request(self, request):
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if url.hostname not in ("127.0.0.1", "localhost"):
            self.foreign.append(request.url)


@pytest.fixture
def watch(context):
    """Every page of the test's browser context is watched; checked at teardown."""
    w = PageWatch()
    context.on("page", w.attach)
    context.on("request", w._request)
    yield w
    assert not w.foreign, f"requests left localhost: {w.foreign}"
    assert not w.errors, f"uncaught page errors: {w.errors}"
    assert not w.failed, f"failed requests or console errors: {w.failed}"


@pytest.fixture
def course_page(page, watch):
    """A page with the watch attached (the page fixture exists before the hook)."""
    watch.attach(page)
    page.set_default_timeout(60_000)
    return page

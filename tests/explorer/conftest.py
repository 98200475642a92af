"""The explorer's UI in Debian's Chromium, on a page of its own.

The page bundles web/explorer with esbuild and gets its graphs from
`explorer.explore` run by this Python process (exposed to the page by
Playwright), the same function the course worker runs under Pyodide; the
full-site test with Pyodide is tests/browser/test_explorer.py. No browser is
downloaded: Chromium comes from PATH.
"""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from explorer import explore

from .bundle import bundle_explorer

ROOT = Path(__file__).resolve().parents[2]

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>explorer</title>
<link rel="stylesheet" href="harness.css"></head>
<body>
<div data-explorer data-expression="{expression}"></div>
<script type="module">
import {{ mountExplorers }} from "./harness.js";
const calls = (window.exploreCalls = []);
const engine = {{
  explore: async (text, values) => {{
    calls.push(text);
    return window.pyExplore(text, values);
  }},
}};
window.explorers = mountExplorers(document.body, engine);
</script>
</body></html>
"""


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if (
            Path(str(item.fspath)).name.startswith(("test_ui", "test_tasks"))
            and here in Path(str(item.fspath)).parents
        ):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def harness_dir(tmp_path_factory) -> Path:
    return bundle_explorer(tmp_path_factory.mktemp("explorer"))


@pytest.fixture(scope="session")
def harness_url(harness_dir):
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(harness_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def open_explorer(page, harness_dir, harness_url):
    """Open the harness page with a starting expression; returns the page, ready."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.expose_function("pyExplore", explore)
    page.set_default_timeout(15_000)

    def open_(expression="(a + b) * c", wait=True):
        name = f"page{abs(hash(expression))}.html"
        (harness_dir / name).write_text(PAGE.format(expression=expression.replace('"', "&quot;")))
        page.goto(harness_url + name)
        if wait:
            page.wait_for_selector("[data-explorer][data-state=ready]")
        return page

    yield open_
    assert not errors, f"uncaught page errors: {errors}"

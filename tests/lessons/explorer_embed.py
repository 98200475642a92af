"""A lesson's graph explorers: the blocks on its page, the HTML the site makes of them, and a
page that mounts them in a browser (web/explorer bundled as the site bundles it).

A lesson embeds an explorer as docs/explorer.md ("In a lesson") shows: an `explorer` fence
that names the starting values as JSON on its first line.
"""

import json
import re
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from explorer import explore
from tests.explorer.bundle import bundle_explorer

from .pages import ROOT

VALUES_BLOCK = re.compile(r"```explorer values='(?P<values>[^']*)'\n(?P<expression>[^\n]*)\n```")


def explorer_blocks(page):
    """Every (expression, starting values) the page embeds, in page order."""
    return [(m["expression"], json.loads(m["values"])) for m in VALUES_BLOCK.finditer(page.text)]


def render(markdown_text):
    """HTML as the site renders it: the site's Markdown extensions and the course's fences."""
    markdown = pytest.importorskip("markdown")
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        from fences import custom_fences
    finally:
        sys.path.remove(str(ROOT / "hooks"))
    md = markdown.Markdown(
        extensions=["admonition", "attr_list", "md_in_html", "tables", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": custom_fences(ROOT / "exercises")}
        },
    )
    return md.convert(markdown_text)


def block_html(page):
    """The HTML the site makes of the page's one explorer block."""
    found = list(VALUES_BLOCK.finditer(page.text))
    assert len(found) == 1, f"{page.slug} has one explorer, whose fence gives its values"
    return render(found[0][0])


_HARNESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lesson explorer</title>
<link rel="stylesheet" href="harness.css"></head>
<body>
%s
<script type="module">
import { mountExplorers } from "./harness.js";
window.explorers = mountExplorers(document.body, { explore: (text, values) => window.pyExplore(text, values) });
</script>
</body></html>
"""


def serve(directory, html):
    """Bundle web/explorer into `directory`, write a page around `html`, serve it.

    Returns (address, stop). In the page, explorer.explore answers through
    `window.pyExplore` (the test exposes it), as the course worker does.
    """
    bundle_explorer(directory)
    (directory / "index.html").write_text(_HARNESS % html, encoding="utf-8")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def stop():
        server.shutdown()
        server.server_close()

    return f"http://127.0.0.1:{server.server_port}/index.html", stop


def open_explorer(page, address):
    """Open `serve`'s page with explorer.explore answering, and wait for its explorer.

    Returns the list the page's uncaught errors go into (a test asserts it stays empty)."""
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.expose_function("pyExplore", explore)
    page.set_default_timeout(15_000)
    page.goto(address)
    page.wait_for_selector("[data-explorer][data-state=ready]")
    return errors

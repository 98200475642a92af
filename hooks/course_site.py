"""The course's runtime in the site: its custom fences, each page's head, the built files.

The course plugin (hooks/plugin.py) calls these: `configure` registers the five custom fences
(`pyodide`, `exercise`, `explorer`, `gpt-explorer` and `question`: hooks/fences.py) with
pymdownx.superfences; `finish_page` completes each page's <head>; `build_runtime` adds
everything the pages need to run Python locally (see site_build.py).

SUBMIT_URL, when set at build time, is the course server's address (server/README.md):
every page then carries it as `<meta name="course-server" content="...">`, which the
runtime reads to show the account line, Submit and the submissions (web/server.js), and
the service worker leaves the server's own paths to the network. Unset (a plain static
site), no page mentions a server and nothing is ever asked of one.
"""

from __future__ import annotations

import html
import logging
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from fences import custom_fences
from mkdocs.utils import get_relative_url
from site_build import ISOLATION_HEADERS, SiteBuildError, build_site_runtime

from tools.glossary import rank_search_index

log = logging.getLogger("mkdocs.hooks.course_site")

SUPERFENCES = "pymdownx.superfences"


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


NO_SITE_URL = (
    "SITE_URL is not set. Set it to the address the course will be served at, e.g. "
    "`SITE_URL=https://you.github.io/course/ nox -s docs` "
    "(`nox -s serve` sets it for you). The sitemap and canonical links are made from it, "
    "and Material's instant navigation, which keeps one Python for every page, only "
    "follows links under it."
)


def submit_url(environ=os.environ) -> str | None:
    """The course server's address from SUBMIT_URL, with its trailing slash; None when unset.

    Raises ValueError when it is set but is not an http(s) address.
    """
    return server_url(environ.get("SUBMIT_URL"))


def server_url(value: str | None) -> str | None:
    """`value` (SUBMIT_URL) as the course server's address, with its trailing slash; None
    when empty. Raises ValueError when it is set but is not an http(s) address."""
    value = (value or "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"SUBMIT_URL={value!r} is not the address of a course server: give its http(s) "
            "address, e.g. `SUBMIT_URL=https://course.example.org/` (leave it unset for a "
            "static site without one)"
        )
    return value if value.endswith("/") else value + "/"


def configure(config, submit: str | None) -> str | None:
    """Check the build's addresses and register the custom fences; return the course
    server's address (`submit`, SUBMIT_URL, checked), or None."""
    if not config.site_url:
        from mkdocs.exceptions import Abort

        raise Abort(NO_SITE_URL)
    try:
        server = server_url(submit)
    except ValueError as exc:
        from mkdocs.exceptions import Abort

        raise Abort(str(exc)) from exc
    if SUPERFENCES not in config.markdown_extensions:
        config.markdown_extensions.append(SUPERFENCES)
    options = config.mdx_configs.setdefault(SUPERFENCES, {})
    fences = options.setdefault("custom_fences", [])
    names = {fence["name"] for fence in fences}
    fences.extend(f for f in custom_fences(_root(config) / "exercises") if f["name"] not in names)
    return server


# mkdocs-jupyter's page template carries a loader that imports Mermaid from a CDN when a
# notebook has a Mermaid diagram. Ours have none, and nothing may be fetched from elsewhere.
_MERMAID_LOADER = re.compile(
    r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{'
    r"\s*const diagrams = document\.querySelectorAll\(\"\.jp-Mermaid.*?</script>",
    re.S,
)


# A page that runs Python starts the worker from <head>, before the rest of the page
# loads (web/early.js, inline: no request of its own); web/client.js takes it over.
EARLY_BOOT = Path(__file__).resolve().parents[1] / "web" / "early.js"
_RUNS_PYTHON = (
    'class="course-cell"',
    'class="course-exercise"',
    "data-explorer",
    "data-model-explorer",
)


def early_boot(page_url: str) -> str:
    """The <script> of web/early.js for the page at `page_url`, with its URLs from there."""
    worker = html.escape(get_relative_url("assets/course/worker.js", page_url))
    pyodide = html.escape(get_relative_url("pyodide/", page_url))
    lines = EARLY_BOOT.read_text(encoding="utf-8").splitlines()
    source = "\n".join(line for line in lines if not line.lstrip().startswith("//"))
    return f'<script data-worker="{worker}" data-pyodide="{pyodide}">{source}</script>'


def finish_page(output: str, page, server: str | None) -> str:
    """The page's HTML with the course server's address and, where it runs Python, the early
    start of its worker in <head>; no CDN loader."""
    output = _MERMAID_LOADER.sub("", output)
    if server and "</head>" in output:
        meta = f'<meta name="course-server" content="{html.escape(server)}">'
        output = output.replace("</head>", meta + "</head>", 1)
    if any(marker in output for marker in _RUNS_PYTHON) and "</head>" in output:
        output = output.replace("</head>", early_boot(page.url) + "</head>", 1)
    return output


def build_runtime(config, server: str | None, offline: bool = True) -> None:
    """Add the runtime to the built site (site_build.py); Abort with the failing step's message.

    `offline=False` for a preview (`mkdocs serve`): its service worker keeps nothing."""
    # The search plugin has written its index; the runtime's list of file hashes comes next.
    rank_search_index(config.site_dir)
    try:
        build_site_runtime(
            _root(config),
            Path(config.site_dir),
            config.site_url,
            server_url=server,
            offline=offline,
        )
    except SiteBuildError as exc:
        # Abort the build with the step's own message (what to install or fix).
        from mkdocs.exceptions import Abort

        raise Abort(f"course runtime: {exc}") from exc
    log.info("course runtime: Pyodide, wheels, KaTeX and exercises are in %s", config.site_dir)


def isolated(app):
    """The WSGI app `app` (the preview server's) with the isolation headers on every response,
    as tools/serve.py and the built site's service worker give them."""

    def with_headers(environ, start_response):
        def start(status, headers, exc_info=None):
            return start_response(status, [*headers, *ISOLATION_HEADERS.items()], exc_info)

        return app(environ, start)

    return with_headers

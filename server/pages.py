"""The sign-in, join and sign-in-link pages (HTML).

Plain forms that a small same-origin script (static/signin.js) sends to the JSON API with
the CSRF token: no inline script, no third-party resource, and a Content-Security-Policy
that holds the pages to it. A sign-in link's page does not look its token up and does not
use it: only its button does, so a mail scanner that opens the link leaves it working.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .people import MIN_PASSWORD
from .security import viewer

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
_templates = Environment(
    loader=FileSystemLoader(HERE / "templates" / "pages"),
    autoescape=select_autoescape(default=True, default_for_string=True),
)
# Only the page's own script, style sheet and API: no inline code, no other host, no frame.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _page(request, name: str, **context) -> HTMLResponse:
    settings = request.app.state.settings
    html = _templates.get_template(name).render(
        min_password=MIN_PASSWORD,
        course_home=settings.course_url or "/",  # the course on this server: its root
        course_origin=settings.cors_origin or "",
        **context,
    )
    return HTMLResponse(
        html,
        headers={
            "Content-Security-Policy": CSP,
            "Cache-Control": "no-store",  # it may show who is signed in
        },
    )


def signin_page(request):
    found = viewer(request)
    return _page(request, "signin.html", user=found.user if found else None)


def signin_bare(request):
    """/signin -> /signin/, keeping the query (?next=...)."""
    query = request.url.query
    return RedirectResponse("/signin/" + (f"?{query}" if query else ""), status_code=307)


def link_page(request):
    # The token is not looked up: the page is the same for every token, and only the
    # button's POST uses the link up (or says that it is used or expired).
    return _page(request, "link.html", token=request.path_params["token"])


routes = [
    Route("/signin", signin_bare, methods=["GET"]),
    Route("/signin/", signin_page, methods=["GET"]),
    Route("/signin/link/{token}", link_page, methods=["GET"]),
    Mount("/signin/static", StaticFiles(directory=STATIC), name="signin-static"),
]

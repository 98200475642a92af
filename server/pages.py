"""The sign-in, join and sign-in-link pages (HTML).

Plain forms that a small same-origin script (static/signin.js) sends to the JSON API with
the CSRF token: no inline script, no third-party resource, and a Content-Security-Policy
that holds the pages to it. A sign-in link's page does not look its token up and does not
use it: only its button does, so a mail scanner that opens the link leaves it working.

The pages speak the learner's language (English, Russian, Estonian): the `lang` the course's
page passes on its link here (web/server.js), else the browser's Accept-Language, else
English. Their words are the course's gettext catalog (translations.py), read as the
grader reads it (grader/messages.py: locales/ beside the checkout's grader), through
Jinja2's i18n extension; Babel extracts them from the templates (babel.cfg).
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from grader.messages import DEFAULT, LANGUAGES, catalog

from .people import MIN_PASSWORD
from .security import viewer

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
# One entry of Accept-Language, its spaces around stripped: a language range and its optional
# weight ("ru-RU;q=0.8"). Not matched with runs of spaces at both ends: quadratic backtracking.
_ACCEPTED = re.compile(r"([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?")


def translated_templates(folder: Path, lang: str) -> Environment:
    """A new environment of the templates in `folder`, saying their words in `lang` through
    the course's catalog (Jinja2's i18n). Its `lang` is the language of the words: English
    when the catalog cannot be read. The learner's pages and the instructor's share it."""
    translations = catalog(lang)
    env = Environment(
        loader=FileSystemLoader(folder),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translations)
    env.globals["lang"] = lang if isinstance(translations, gettext.GNUTranslations) else DEFAULT
    return env


@cache
def _templates(lang: str) -> Environment:
    """The pages' templates, saying their words in `lang` (one environment per language)."""
    return translated_templates(HERE / "templates" / "pages", lang)


def _accepted(header: str) -> str | None:
    """The language of the course the Accept-Language header prefers (its weights, then its
    order), or None when it names none of them."""
    best, best_q = None, 0.0
    for entry in header.split(",")[:50]:
        match = _ACCEPTED.fullmatch(entry.strip())
        if not match:
            continue
        lang = match.group(1).lower()
        try:
            q = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def page_language(request) -> str:
    """The language to speak: ?lang= when the course speaks it, else the browser's first
    choice among the course's, else English. Any other value is not used at all."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    return _accepted(request.headers.get("accept-language", "")[:1000]) or DEFAULT


def language_query(request) -> str:
    """The query "?lang=xx" when the language came from ?lang= (a link keeps it, so a reader
    who chose a language stays in it), else "" (the browser's language chooses again)."""
    asked = request.query_params.get("lang", "")
    return f"?lang={asked}" if asked in LANGUAGES else ""


def course_root(lang: str) -> str:
    """The course on this server in `lang`: English at its root, the others under ru/ and et/."""
    return "/" if lang == DEFAULT else f"/{lang}/"


# Only the page's own script, style sheet and API: no inline code, no other host, no frame.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _page(request, name: str, **context) -> HTMLResponse:
    settings = request.app.state.settings
    lang = page_language(request)
    root = course_root(lang)
    template = _templates(lang).get_template(name)
    html = template.render(
        min_password=MIN_PASSWORD,
        course_home=(settings.course_url or "/") + root[1:],  # the course on this server: its root
        course_root=root,
        course_origin=settings.cors_origin or "",
        **context,
    )
    return HTMLResponse(
        html,
        headers={
            "Content-Security-Policy": CSP,
            "Cache-Control": "no-store",  # it may show who is signed in
            "Vary": "Accept-Language",  # and its language may be the browser's
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

"""`create_app(settings)`: the course and its API on one origin.

Routes first (the API, the sign-in and instructor pages, /health), then the built course
at / with the headers that make it cross-origin isolated (as tools/serve.py). Every
request body is capped before any route reads it, and never decompressed.
"""

from __future__ import annotations

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from grader.messages import DEFAULT, msg, render
from tools.serve import ISOLATION_HEADERS  # the course's files, served as `nox -s serve` does

from . import api, deadlines, gradebook, pages, submissions
from .config import Settings
from .db import Database
from .queue import make_queue
from .security import STALE_TOKEN, RateLimits

SERVER_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # A sign-in link's token never leaves this origin in a Referer; "no-referrer" would also
    # make browsers send "Origin: null" with the page's own POSTs, which CSRF checks refuse.
    "Referrer-Policy": "same-origin",
}
BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# Starlette's own refusals (no route, no such method), as their status phrases say them.
STARLETTE_DETAILS = {
    "Not Found": msg("Not Found"),
    "Method Not Allowed": msg("Method Not Allowed"),
}
BACK_TO_COURSE = msg("Back to the course")
SERVER_FAILED = msg(
    "The server failed on this request; your work is kept in your browser. Try again."
)


class BodyLimit:
    """Reads a request's body once, refusing it past `limit` bytes (413, from the
    Content-Length or while it streams in) or compressed (415: nothing is inflated here,
    so no zip bomb goes off); routes find it in request.state.body."""

    def __init__(self, app, limit: int, paths: dict[str, int] | None = None):
        self.app, self.default, self.paths = app, limit, paths or {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            return await self.app(scope, receive, send)
        limit = self.paths.get(scope["path"], self.default)
        headers = dict(scope["headers"])
        if headers.get(b"content-encoding", b"identity") not in (b"identity", b""):
            return await _error(scope, send, 415, msg("Send the body uncompressed."))
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return await _error(scope, send, 413, _too_big(limit))
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return await _error(scope, send, 413, _too_big(limit))
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        scope.setdefault("state", {})["body"] = b"".join(chunks)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": scope["state"]["body"], "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)


def _too_big(limit):
    return msg("The request is over {size} kB, more than the server takes.", size=limit // 1024)


def api_error(request, status: int, detail, headers=None) -> JSONResponse:
    """{"error": ...}: the refusal in the language the request's page speaks (?lang=, else
    Accept-Language, as the sign-in pages choose theirs), and which refusal it is when the
    course's page acts on it (a stale CSRF token: it fetches a new one and sends again)."""
    lang = pages.page_language(request)
    if isinstance(detail, str):
        detail = STARLETTE_DETAILS.get(detail, detail)
    body = {"error": render(detail, lang)}
    if detail == STALE_TOKEN:
        body["reason"] = "csrf"
    headers = {**(headers or {}), "Vary": "Accept-Language"}
    return JSONResponse(body, status_code=status, headers=headers)


async def _error(scope, send, status, message):
    response = api_error(Request(scope), status, message)
    await response(scope, None, send)


class Headers:
    """Adds the isolation headers to the course's files and the server's to everything else."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]
        ours = path.startswith(("/api/", "/signin/", "/instructor/", "/health"))

        async def send_with(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                extra = dict(SERVER_HEADERS)
                if not ours:
                    extra.update(ISOLATION_HEADERS)
                    extra["Cache-Control"] = "no-cache"
                elif path.startswith(("/signin/", "/instructor/")):
                    # The pages are same-origin documents: isolated like the course.
                    extra.update(ISOLATION_HEADERS)
                names = {k.lower() for k, _ in headers}
                for name, value in extra.items():
                    if name.lower().encode() not in names:
                        headers.append((name.lower().encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        return await self.app(scope, receive, send_with)


def health(request):
    state = request.app.state
    try:
        with state.db.session() as s:
            s.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"status": "error", "database": "unreachable"}, status_code=503)
    return JSONResponse(
        {"status": "ok", "database": state.db.dialect, "queue": state.queue.name},
        headers={"Cache-Control": "no-store"},
    )


async def http_error(request, exc: HTTPException):
    if request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", ""
    ):
        return api_error(request, exc.status_code, exc.detail, headers=exc.headers)
    back = gradebook.way_back(request) if request.url.path.startswith("/instructor/") else None
    # The exception's own headers stay (a 405's Allow: the methods the route takes).
    return html_error(request, exc.status_code, exc.detail, back, headers=exc.headers)


def html_error(request, status: int, detail, back=None, headers=None) -> HTMLResponse:
    """A refusal of a page (the instructor's, a form they sent, a file of the course that is
    not there) in the language the page speaks, as api_error says it in JSON. Its link leads
    to `back` (link, words): an instructor's page names its own way back; else the course,
    in English as it always was."""
    from html import escape

    lang = pages.page_language(request)
    if isinstance(detail, str):
        detail = STARLETTE_DETAILS.get(detail, detail)
    href, words = back or (pages.course_root(lang), BACK_TO_COURSE)
    said, words = render(detail, lang), render(words, lang)
    # English keeps its bytes where it leads to the course; the others say which language
    # they are (a screen reader's voice).
    plain = lang == DEFAULT and back is None
    start = "<!doctype html>" if plain else f'<!doctype html><html lang="{lang}">'
    return HTMLResponse(
        f"{start}<meta charset=utf-8><title>{status}</title>"
        f'<p>{escape(str(said))}</p><p><a href="{escape(href)}">{escape(words)}</a></p>',
        status_code=status,
        # The words follow the browser's language; a refusal is never kept by a cache.
        headers={**(headers or {}), "Vary": "Accept-Language", "Cache-Control": "no-store"},
    )


async def server_error(request, exc):
    # Sent from outside the middleware (Starlette's last resort): the server's own headers
    # are not added on the way out, so they are here.
    headers = {**SERVER_HEADERS, "Cache-Control": "no-store"}
    return api_error(request, 500, SERVER_FAILED, headers=headers)


def create_app(settings: Settings | None = None, db: Database | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    routes = [Route("/health", health)]
    routes += api.routes + submissions.routes + deadlines.routes + pages.routes + gradebook.routes
    if settings.site_dir is not None:
        routes.append(Mount("/", StaticFiles(directory=settings.site_dir, html=True)))
    middleware = []
    if settings.cors_origin:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=[settings.cors_origin],
                allow_credentials=True,
                allow_methods=["GET", "POST", "PUT"],
                allow_headers=["content-type", "x-csrf-token"],
                max_age=600,
            )
        )
    # Saved work may be bigger than a submission: up to web/transfer.js's 5 MB.
    work = {"/api/progress": api.MAX_WORK_BYTES + 64 * 1024}
    middleware += [
        Middleware(Headers),
        Middleware(BodyLimit, limit=settings.max_body_bytes, paths=work),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: http_error, 500: server_error},
    )
    app.state.settings = settings
    app.state.db = db or Database(settings.database_url)
    app.state.queue = make_queue(settings)
    app.state.limits = RateLimits(settings)
    return app

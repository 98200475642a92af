"""The learner's JSON API: the session, signing in and out, joining a class, progress."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.routing import Route

from grader.messages import msg

from . import people
from .models import Progress, SignInSession, User, now
from .security import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    check_csrf,
    classes_of,
    clear_session_cookie,
    client_address,
    csrf_token,
    end_session,
    hash_password,
    new_token,
    require_viewer,
    set_csrf_cookie,
    set_session_cookie,
    start_session,
    verify_password,
    viewer,
)
from .web import read_json

MAX_WORK_BYTES = 5 * 1024 * 1024  # as web/transfer.js's MAX_FILE_BYTES


def user_json(s, user: User, roles: dict) -> dict:
    return {
        "id": user.id,
        "login": user.login,
        "name": user.name,
        "classes": classes_of(s, roles),
    }


def session(request):
    settings = request.app.state.settings
    found = viewer(request)
    seed = request.cookies.get(SESSION_COOKIE) if found else None
    fresh = None
    if seed is None:
        seed = request.cookies.get(CSRF_COOKIE)
        if not seed or len(seed) > 100:
            seed = fresh = new_token()
    user = None
    if found:
        with request.app.state.db.session() as s:
            user = user_json(s, found.user, found.roles)
    response = JSONResponse({"user": user, "csrf": csrf_token(settings, seed)})
    if fresh:
        set_csrf_cookie(response, settings, fresh)
    if found is None and SESSION_COOKIE in request.cookies:
        # A session the server no longer knows (signed out elsewhere, expired, the database
        # reset): while the browser sent it, check_csrf would take it as the seed and refuse
        # the token above, so no sign-in could ever succeed. The browser forgets it here.
        clear_session_cookie(response, settings)
    response.headers["Cache-Control"] = "no-store"
    return response


def _signed_in(request, s, user: User) -> JSONResponse:
    """The answer to a successful sign-in: the user, and a session cookie."""
    from .models import Membership

    token = start_session(s, user)
    roles = dict(
        s.execute(
            select(Membership.class_id, Membership.role).where(Membership.user_id == user.id)
        ).all()
    )
    response = JSONResponse(
        {"user": user_json(s, user, roles), "csrf": csrf_token(request.app.state.settings, token)}
    )
    set_session_cookie(response, request.app.state.settings, token)
    return response


def _limited(request, login=None):
    if not request.app.state.limits.signing_in(login, client_address(request)):
        raise HTTPException(429, msg("Too many sign-in attempts: wait a minute and try again."))


def signin(request):
    check_csrf(request)
    body = read_json(request)
    login, password = body.get("login"), body.get("password")
    if not isinstance(login, str) or not isinstance(password, str):
        raise HTTPException(400, msg("Give your login and password."))
    login = login.strip().lower()[:80]
    _limited(request, login)
    with request.app.state.db.session() as s:
        # A login no one can have is no one's: it is never sent to the database (a NUL
        # byte in it made PostgreSQL fail), and the answer takes as long as any other.
        user = (
            s.scalar(select(User).where(User.login == login))
            if people.LOGIN.fullmatch(login)
            else None
        )
        if not verify_password(user.password_hash if user else None, password[:1000]):
            raise HTTPException(401, msg("Wrong login or password."))
        return _signed_in(request, s, user)


def join(request):
    check_csrf(request)
    body = read_json(request)
    fields = [body.get(k) for k in ("invite_code", "login", "name", "password")]
    if not all(isinstance(f, str) for f in fields):
        raise HTTPException(400, msg("Give the invite code, a login, your name and a password."))
    code, login, name, password = fields
    _limited(request)
    try:
        with request.app.state.db.session() as s:
            course = people.class_by_code(s, code)
            user = people.add_member(s, course, name, "learner", login=login, password=password)
            return _signed_in(request, s, user)
    except people.PeopleError as exc:
        raise HTTPException(400, exc.message) from None


def signin_link(request):
    check_csrf(request)
    body = read_json(request)
    token = body.get("token")
    if not isinstance(token, str):
        raise HTTPException(
            400, msg("The sign-in link is incomplete: open it again from your message.")
        )
    _limited(request)
    password = body.get("password")
    try:
        with request.app.state.db.session() as s:
            user = people.use_link(s, token)
            if isinstance(password, str) and password:
                people.check_password(password)
                user.password_hash = hash_password(password)
                # A new password ends every other session: a stolen cookie dies with it.
                s.execute(delete(SignInSession).where(SignInSession.user_id == user.id))
            return _signed_in(request, s, user)
    except people.PeopleError as exc:
        raise HTTPException(400, exc.message) from None


def signout(request):
    check_csrf(request)
    end_session(request)
    response = JSONResponse({"user": None})
    clear_session_cookie(response, request.app.state.settings)
    return response


def get_progress(request):
    who = require_viewer(request)
    with request.app.state.db.session() as s:
        row = s.get(Progress, who.user.id)
        data = {"revision": row.revision if row else 0, "work": row.work if row else None}
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


def put_progress(request):
    check_csrf(request)
    who = require_viewer(request)
    if len(request.state.body or b"") > MAX_WORK_BYTES:
        raise HTTPException(413, msg("Saved work over 5 MB is not kept on the server."))
    body = read_json(request)
    revision, work = body.get("revision"), body.get("work")
    # A revision the column holds (32-bit): a bigger one failed in the database (500).
    if type(revision) is not int or not 0 <= revision < 2**31 - 1 or not isinstance(work, dict):
        raise HTTPException(
            400, msg("Send {revision, work}: the revision you last read and your work.")
        )
    if work.get("format") != "course-work":
        raise HTTPException(400, msg("That is not the course's saved work (format course-work)."))
    db = request.app.state.db
    try:
        with db.session() as s:
            row = s.get(Progress, who.user.id)
            if row is None:
                if revision != 0:
                    return _conflict(0, None)
                s.add(Progress(user_id=who.user.id, revision=1, work=work, updated_at=now()))
                s.flush()
                return JSONResponse({"revision": 1})
            # Write only over the revision this browser read: another browser's write in
            # between is never lost (the page merges and tries again).
            result = s.execute(
                update(Progress)
                .where(Progress.user_id == who.user.id, Progress.revision == revision)
                .values(revision=revision + 1, work=work, updated_at=now())
            )
            if result.rowcount == 1:
                return JSONResponse({"revision": revision + 1})
    except IntegrityError:
        pass  # another browser's first write went in between this one's read and insert
    # Another browser wrote first: answer with what is there now (not what was read).
    with db.session() as s:
        row = s.get(Progress, who.user.id, populate_existing=True)
        return _conflict(row.revision, row.work)


def _conflict(revision, work):
    return JSONResponse({"revision": revision, "work": work}, status_code=409)


routes = [
    Route("/api/session", session, methods=["GET"]),
    Route("/api/signin", signin, methods=["POST"]),
    Route("/api/join", join, methods=["POST"]),
    Route("/api/signin-link", signin_link, methods=["POST"]),
    Route("/api/signout", signout, methods=["POST"]),
    Route("/api/progress", get_progress, methods=["GET"]),
    Route("/api/progress", put_progress, methods=["PUT"]),
]

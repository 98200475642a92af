"""Who is asking, and may they: passwords, session cookies, CSRF tokens and rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItemPerMinute, storage, strategies
from sqlalchemy import select
from starlette.exceptions import HTTPException

from grader.messages import msg

from .models import Course, Membership, SignInSession, User, now

SESSION_COOKIE = "course_session"
CSRF_COOKIE = "course_csrf"  # the anonymous visitor's CSRF seed, before signing in
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30

_hasher = PasswordHasher()  # argon2id with the library's current parameters
# A hash to verify against when the login does not exist: the answer takes as long.
_DUMMY_HASH = _hasher.hash("not a password of anyone")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Viewer:
    """The signed-in user of a request and their classes ({class id: role})."""

    user: User
    roles: dict[int, str]
    session_token: str

    def teaches(self, class_id: int) -> bool:
        return self.roles.get(class_id) == "instructor"

    def learns_in(self, class_id: int) -> bool:
        return self.roles.get(class_id) == "learner"


def start_session(db_session, user: User) -> str:
    """A new session for `user`; returns the cookie's token (only its hash is stored)."""
    token = new_token()
    db_session.add(
        SignInSession(
            token_hash=token_hash(token),
            user_id=user.id,
            expires_at=now() + timedelta(days=SESSION_DAYS),
        )
    )
    return token


def set_session_cookie(response, settings, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        secure=settings.secure_cookies,
        samesite=_samesite(settings),
        path="/",
    )


def clear_session_cookie(response, settings) -> None:
    """Delete the session cookie, with the attributes it was set with: a browser ignores a
    deletion that is less secure than the cookie (e.g. Lax for a SameSite=None cookie)."""
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        secure=settings.secure_cookies,
        samesite=_samesite(settings),
    )


def _samesite(settings) -> str:
    # A course site on another origin sends the cookie with its fetches only if it is
    # SameSite=None (and so Secure); on one origin, Lax keeps it out of other sites' forms.
    return "none" if settings.cors_origin and settings.secure_cookies else "lax"


def viewer(request) -> Viewer | None:
    """The request's signed-in viewer, or None (no cookie, unknown, expired)."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    db = request.app.state.db
    with db.session() as s:
        row = s.get(SignInSession, token_hash(token))
        if row is None or row.expires_at < now():
            return None
        user = s.get(User, row.user_id)
        roles = dict(
            s.execute(
                select(Membership.class_id, Membership.role).where(Membership.user_id == user.id)
            ).all()
        )
        s.expunge(user)
    return Viewer(user=user, roles=roles, session_token=token)


def require_viewer(request) -> Viewer:
    found = viewer(request)
    if found is None:
        raise HTTPException(401, msg("Sign in first."))
    return found


def end_session(request) -> None:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        with request.app.state.db.session() as s:
            row = s.get(SignInSession, token_hash(token))
            if row is not None:
                s.delete(row)


def classes_of(db_session, roles: dict[int, str]) -> list[dict]:
    if not roles:
        return []
    rows = db_session.scalars(select(Course).where(Course.id.in_(roles)).order_by(Course.id))
    return [{"id": c.id, "name": c.name, "role": roles[c.id]} for c in rows]


# --- CSRF ----------------------------------------------------------------------------
# The token is an HMAC of the session's token (or, before sign-in, of a random seed kept in
# an HttpOnly cookie): another site can neither read it nor make it, and it needs no table.


def csrf_seed(request) -> str | None:
    """The live session's token, else the anonymous seed. A session cookie the server no
    longer knows (expired, ended, forged) is no seed: /api/session gives such a browser a
    token of the anonymous seed, and that token must let it sign in again."""
    found = viewer(request)
    if found is not None:
        return found.session_token
    return request.cookies.get(CSRF_COOKIE)


def csrf_token(settings, seed: str) -> str:
    return hmac.new(settings.secret_key.encode(), b"csrf:" + seed.encode(), "sha256").hexdigest()


# A refusal the course's page answers by fetching a new token and sending again: the API
# says which refusal it is beside its text, which is in the learner's language (app.py).
STALE_TOKEN = msg("The page's security token is missing or old: reload the page and try again.")


def check_csrf(request, token: str | None = None) -> None:
    """Refuse a state-changing request without the right token or from a foreign origin."""
    settings = request.app.state.settings
    origin = request.headers.get("origin")
    allowed = {settings.origin, settings.cors_origin} - {None}
    if origin is not None and origin not in allowed:
        raise HTTPException(403, msg("This request came from another site."))
    seed = csrf_seed(request)
    given = token if token is not None else request.headers.get(CSRF_HEADER, "")
    if not seed or not given or not hmac.compare_digest(given, csrf_token(settings, seed)):
        raise HTTPException(403, STALE_TOKEN)


def set_csrf_cookie(response, settings, seed: str) -> None:
    response.set_cookie(
        CSRF_COOKIE,
        seed,
        httponly=True,
        secure=settings.secure_cookies,
        samesite=_samesite(settings),
        path="/",
    )


# --- Rate limits ------------------------------------------------------------------------


class RateLimits:
    """Fixed windows per minute (the `limits` library): in memory, or in Redis when the
    broker is Redis, so that every web process counts together."""

    def __init__(self, settings):
        url = settings.broker_url if settings.broker_url.startswith("redis") else "memory://"
        self.storage = storage.storage_from_string(url)
        self.strategy = strategies.FixedWindowRateLimiter(self.storage)
        self.signin = RateLimitItemPerMinute(settings.signin_per_minute)
        self.address = RateLimitItemPerMinute(settings.signin_per_address_per_minute)
        self.submit = RateLimitItemPerMinute(settings.submit_per_minute)

    def hit(self, item, *keys: str) -> bool:
        """True when allowed; every key counts."""
        return all([self.strategy.hit(item, "course", key) for key in keys])

    def signing_in(self, login: str | None, address: str) -> bool:
        """A sign-in attempt: limited per login, and (more widely) per address."""
        by_login = self.hit(self.signin, f"signin:login:{login}") if login is not None else True
        return self.hit(self.address, f"signin:addr:{address}") and by_login


def client_address(request) -> str:
    # Behind a reverse proxy, uvicorn's --proxy-headers puts the real address here.
    return request.client.host if request.client else "unknown"

"""Classes and the people in them: invite codes, learners, instructors, sign-in links.

The admin commands and the API both come here, so the rules live in one place.
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from sqlalchemy import func, select, update

from grader.messages import Message, msg, render

from .models import Course, Membership, SignInLink, User, now
from .security import hash_password, new_token, token_hash

LINK_DAYS = 14
LOGIN = re.compile(r"[a-z0-9][a-z0-9._-]{1,39}")
INVITE_CODE = re.compile(r"[a-z0-9]{1,40}")
MIN_PASSWORD = 10
ROLES = ("learner", "instructor")


class PeopleError(Exception):
    """A request about people that cannot be done; the message says what to do: in English
    as the exception's text (the admin commands), in the learner's language through the API
    (`message`, the course's catalog)."""

    def __init__(self, message: Message | str):
        self.message = message if isinstance(message, Message) else Message(message)
        super().__init__(render(self.message))


def _invite_code() -> str:
    # 12 letters and digits a person can type (no 0/O, 1/l/I), about 10^18 codes.
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


# Direction overrides, embeddings and isolates: a name shown inside a sentence of the
# instructor's pages would turn the words after it around (or pass for another name).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _printable(name: str) -> bool:
    # No control characters (C0, DEL, C1): PostgreSQL refuses NUL in text, and none belongs
    # in a name; nor the controls of the text's direction.
    return not any(ord(c) < 32 or 127 <= ord(c) < 160 or c in _BIDI_CONTROLS for c in name)


def create_class(s, name: str) -> Course:
    name = name.strip()
    if not name or len(name) > 200 or not _printable(name):
        raise PeopleError(msg("Give the class a name of 1 to 200 characters."))
    course = Course(name=name, invite_code=_invite_code())
    s.add(course)
    s.flush()
    return course


def class_by_code(s, code: str) -> Course:
    code = code.strip().lower()
    course = None
    if INVITE_CODE.fullmatch(code):
        course = s.scalar(select(Course).where(Course.invite_code == code))
    if course is None:
        raise PeopleError(msg("No class has this invite code: check it with your instructor."))
    return course


def normal_login(text: str) -> str:
    login = text.strip().lower()
    if not LOGIN.fullmatch(login):
        raise PeopleError(
            msg(
                "A login is 2 to 40 letters, digits, dots, dashes or underscores, "
                "starting with a letter or digit."
            )
        )
    return login


def login_from_name(s, name: str) -> str:
    """A free login made from a display name: "Ada Lovelace" -> "ada.lovelace" (then "-2")."""
    base = re.sub(r"[^a-z0-9]+", ".", name.lower()).strip(".")[:36] or "learner"
    if not base[0].isalnum():
        base = "l" + base
    login, n = base, 1
    while s.scalar(select(func.count()).select_from(User).where(User.login == login)):
        n += 1
        login = f"{base}-{n}"
    return login


def add_member(
    s,
    course: Course,
    name: str,
    role: str = "learner",
    login: str | None = None,
    password: str | None = None,
) -> User:
    if role not in ROLES:
        raise PeopleError(msg("A role is one of {roles}.", roles=", ".join(ROLES)))
    name = name.strip()
    if not name or len(name) > 200 or not _printable(name):
        raise PeopleError(msg("Give a name of 1 to 200 characters, without control characters."))
    login = normal_login(login) if login else login_from_name(s, name)
    if s.scalar(select(User).where(User.login == login)) is not None:
        raise PeopleError(msg("The login {login!r} is taken: choose another.", login=login))
    if password is not None:
        check_password(password)
    user = User(login=login, name=name, password_hash=hash_password(password) if password else None)
    s.add(user)
    s.flush()
    s.add(Membership(user_id=user.id, class_id=course.id, role=role))
    return user


def login_exists(s, login: str) -> bool:
    try:
        login = normal_login(login)
    except PeopleError:
        return False
    return s.scalar(select(User).where(User.login == login)) is not None


def add_existing(s, course: Course, login: str, role: str = "learner") -> User:
    """Put someone who already has a login into another class (an instructor of two
    classes, a learner retaking the course). Only the admin commands do this: joining with
    an invite code never attaches to an existing account."""
    if role not in ROLES:
        raise PeopleError(msg("A role is one of {roles}.", roles=", ".join(ROLES)))
    user = s.scalar(select(User).where(User.login == normal_login(login)))
    if user is None:
        raise PeopleError(msg("No one has the login {login!r}.", login=login))
    member = s.get(Membership, (user.id, course.id))
    if member is not None:
        raise PeopleError(
            msg(
                "{login} is already in this class (role: {role}).",
                login=user.login,
                role=member.role,
            )
        )
    s.add(Membership(user_id=user.id, class_id=course.id, role=role))
    return user


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise PeopleError(
            msg("Choose a password of at least {count} characters.", count=MIN_PASSWORD)
        )
    if len(password) > 1000:
        raise PeopleError(
            msg("That password is too long (at most {count} characters).", count=1000)
        )


def signin_link(s, user: User, public_url: str) -> str:
    """A one-time sign-in link for `user`, valid LINK_DAYS days."""
    token = new_token()
    s.add(
        SignInLink(
            token_hash=token_hash(token),
            user_id=user.id,
            expires_at=now() + timedelta(days=LINK_DAYS),
        )
    )
    return f"{public_url}signin/link/{token}"


def use_link(s, token: str) -> User:
    """The link's user; the link is used up. Unknown, used or expired links are refused alike."""
    refused = PeopleError(
        msg("This sign-in link is used, expired or wrong: ask your instructor for a new one.")
    )
    if not 0 < len(token) <= 100:
        raise refused
    # One UPDATE that only an unused, unexpired link matches: two tabs racing with the same
    # link cannot both sign in.
    used = s.execute(
        update(SignInLink)
        .where(
            SignInLink.token_hash == token_hash(token),
            SignInLink.used_at.is_(None),
            SignInLink.expires_at > now(),
        )
        .values(used_at=now())
        .returning(SignInLink.user_id)
    ).first()
    if used is None:
        raise refused
    return s.get(User, used[0])

"""people.py: classes, invite codes, members and sign-in links (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from server import people
from server.models import Membership, SignInLink, User

from .client import PASSWORD


@pytest.fixture
def db(tmp_path, database_url):
    from .client import make_server

    server = make_server(tmp_path, database_url)
    yield server.db
    server.db.dispose()


def test_invite_codes_are_unguessable_and_found_in_any_case(db):
    with db.session() as s:
        codes = {people.create_class(s, f"C{i}").invite_code for i in range(20)}
    assert len(codes) == 20
    assert all(len(c) == 12 and c.isalnum() and c == c.lower() for c in codes)
    code = sorted(codes)[0]
    with db.session() as s:
        assert people.class_by_code(s, f"  {code.upper()} ").invite_code == code
        for wrong in ("", code[:-1], code + "x", "%", "\x00"):
            with pytest.raises(people.PeopleError):
                people.class_by_code(s, wrong)


def test_logins_made_from_names_never_collide(db):
    with db.session() as s:
        course = people.create_class(s, "A")
        logins = [people.add_member(s, course, "Ada Lovelace").login for _ in range(3)]
        odd = people.add_member(s, course, "  ---Ünïcode!!  ").login
    assert logins == ["ada.lovelace", "ada.lovelace-2", "ada.lovelace-3"]
    assert people.LOGIN.fullmatch(odd)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"role": "admin"},
        {"name": ""},
        {"name": "x" * 201},
        {"name": "Ada\x00"},
        {"login": "a"},
        {"login": "-ada"},
        {"login": "ada lovelace"},
        {"password": "short"},
        {"password": "p" * 1001},
    ],
)
def test_add_member_refuses(db, kwargs):
    with db.session() as s:
        course = people.create_class(s, "A")
        args = {"name": "Ada", "role": "learner", "login": "ada", "password": PASSWORD, **kwargs}
        with pytest.raises(people.PeopleError):
            people.add_member(s, course, **args)
        assert s.scalars(select(User)).all() == []


def test_taken_login_in_any_case(db):
    with db.session() as s:
        course = people.create_class(s, "A")
        people.add_member(s, course, "Ada", login="ada")
        with pytest.raises(people.PeopleError, match="taken"):
            people.add_member(s, course, "Other", login=" ADA ")


def test_a_link_is_used_once_and_only_its_hash_is_kept(db):
    with db.session() as s:
        course = people.create_class(s, "A")
        user = people.add_member(s, course, "Ada", role="instructor")
        link = people.signin_link(s, user, "https://course.example.org/")
    token = link.rsplit("/", 1)[-1]
    assert link == f"https://course.example.org/signin/link/{token}"
    with db.session() as s:
        (row,) = s.scalars(select(SignInLink)).all()
        assert token not in row.token_hash and row.used_at is None
        assert s.get(Membership, (user.id, course.id)).role == "instructor"
    with db.session() as s:
        assert people.use_link(s, token).id == user.id
    with db.session() as s, pytest.raises(people.PeopleError):
        people.use_link(s, token)


def test_a_refused_link_is_not_used_up(db):
    """The API sets a password in the same transaction: a bad password leaves the link."""
    with db.session() as s:
        user = people.add_member(s, people.create_class(s, "A"), "Ada")
        token = people.signin_link(s, user, "http://127.0.0.1:8000/").rsplit("/", 1)[-1]
    with pytest.raises(people.PeopleError), db.session() as s:
        people.use_link(s, token)
        people.check_password("short")
    with db.session() as s:
        assert people.use_link(s, token).id == user.id

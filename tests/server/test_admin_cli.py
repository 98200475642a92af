"""`python -m server admin ...` as a subprocess: what it prints last, and its errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from server.models import Deadline, Membership, User

from .client import SECRET, make_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path):
    url = f"sqlite:///{tmp_path / 'course.db'}"
    env = {
        **os.environ,
        "COURSE_DATA_DIR": str(tmp_path),
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PUBLIC_URL", None)

    def run(*args, expect=0):
        done = subprocess.run(
            [sys.executable, "-m", "server", "admin", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == expect, (args, done.stdout, done.stderr)
        if expect:
            assert "Traceback" not in done.stderr
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("server: "), done.stderr
            return lines[0]
        return done.stdout.strip().splitlines()[-1]

    run.url, run.tmp_path = url, tmp_path
    return run


def test_create_class_then_add_a_learner_whose_link_signs_in(cli):
    code = cli("create-class", "Autumn 2026")
    assert code.isalnum() and len(code) >= 8
    link = cli("add-learner", code, "Ada Lovelace")
    assert link.startswith("http://127.0.0.1:8000/signin/link/")
    srv = make_server(cli.tmp_path, cli.url)  # the same database the commands wrote
    try:
        with srv.db.session() as s:
            user = s.scalar(select(User).where(User.login == "ada.lovelace"))
            assert user is not None and user.password_hash is None
            assert s.get(Membership, (user.id, 1)).role == "learner"
        b = srv.browser()
        token = link.rsplit("/", 1)[-1]
        r = b.post("/api/signin-link", {"token": token})
        assert r.status_code == 200, r.text
        assert r.json()["user"]["login"] == "ada.lovelace"
        assert r.json()["user"]["classes"][0]["name"] == "Autumn 2026"
        assert srv.browser().post("/api/signin-link", {"token": token}).status_code == 400
    finally:
        srv.db.dispose()


def test_add_with_a_bad_invite_code(cli):
    cli("create-class", "A")
    message = cli("add-learner", "nosuchcode99", "Ada", expect=2)
    assert "invite code" in message


def test_set_deadline_and_its_errors(cli):
    code = cli("create-class", "A")
    cli("set-deadline", code, "day05_add_mul.py", "2026-12-01T23:59+01:00", "--late", "refuse")
    assert "not a date" in cli("set-deadline", code, "day05_add_mul.py", "next friday", expect=2)
    assert "day99" in cli("set-deadline", code, "day99_nothing.py", "2026-12-01T23:59Z", expect=2)
    from server.db import Database

    db = Database(cli.url)
    try:
        with db.session() as s:
            (row,) = s.scalars(select(Deadline)).all()
            assert (row.due_at.hour, row.due_at.minute, row.late_policy) == (22, 59, "refuse")
    finally:
        db.dispose()


def test_signin_link_for_an_unknown_login(cli):
    assert "nobody" in cli("signin-link", "nobody", expect=2)


def test_a_config_error_is_one_line(cli):
    done = subprocess.run(
        [sys.executable, "-m", "server", "admin", "create-class", "A"],
        cwd=ROOT,
        env={
            **os.environ,
            "PUBLIC_URL": "http://example.org/",
            "COURSE_DATA_DIR": str(cli.tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_one_instructor_teaches_two_classes_with_one_login(cli):
    first = cli("create-class", "Autumn")
    second = cli("create-class", "Spring")
    cli("add-instructor", first, "Grace Hopper", "--login", "grace")
    link = cli("add-instructor", second, "Grace Hopper", "--login", "grace")
    assert "/signin/link/" in link
    # Adding her twice to one class says so, in one line.
    assert "already in this class" in cli(
        "add-instructor", second, "Grace", "--login", "grace", expect=2
    )
    srv = make_server(cli.tmp_path, cli.url)
    try:
        with srv.db.session() as s:
            (grace,) = s.scalars(select(User)).all()
            roles = s.scalars(select(Membership.role).where(Membership.user_id == grace.id))
            assert list(roles) == ["instructor", "instructor"]
    finally:
        srv.db.dispose()

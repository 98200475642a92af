"""The sign-in page in Russian, in Chromium against the real server (`python -m server
serve`, SQLite, no workers, no site): a wrong password is said in Russian, as the server's
catalog says it, and the page's own words too (signin.js holds none)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from argon2 import PasswordHasher
from playwright.sync_api import expect

from grader.messages import catalog
from server import people
from server.db import Database

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long enough password"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server with one learner, Ada, who has a password."""
    data = tmp_path_factory.mktemp("served")
    port = _free_port()
    env = {**os.environ, "COURSE_DATA_DIR": str(data), "SECRET_KEY": "r" * 48}
    env.pop("PUBLIC_URL", None)
    db = Database(f"sqlite:///{data / 'course.db'}")
    db.migrate()
    with db.session() as s:
        course = people.create_class(s, "Группа")
        ada = people.add_member(s, course, "Ada", login="ada")
        ada.password_hash = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
    db.dispose()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--port", str(port), "--workers", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx2.get(base + "/health", timeout=1).status_code == 200:
                break
        except httpx2.HTTPError:
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(10)


def test_a_wrong_password_on_the_russian_page_is_said_in_russian(served, browser):
    ru = catalog("ru").gettext
    wrong = ru("Wrong login or password.")
    assert wrong != "Wrong login or password."
    # The browser prefers English: the page's own language (?lang=ru) is the one that counts.
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{served}/signin/?lang=ru")
        page.fill("#signin-login", "ada")
        page.fill("#signin-password", "not the password")
        page.click("#signin button[type=submit]")
        message = page.locator("#signin .message")
        expect(message).to_have_text(wrong)
        expect(message).to_have_class("message error")
        page.fill("#signin-password", PASSWORD)
        page.click("#signin button[type=submit]")
        page.wait_for_url(f"{served}/ru/")  # the course's home in Russian, after signing in
        assert errors == []
    finally:
        context.close()

"""The sign-in page in Russian, in Chromium against the real server (`python -m server
serve`, SQLite, no workers, no site): a wrong password is said in Russian, as the server's
catalog says it, and the page's own words too (signin.js holds none)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher
from playwright.sync_api import expect

from grader.messages import catalog
from server import people
from tests.server.processes import Course

PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server with one learner, Ada, who has a password."""
    folder = tmp_path_factory.mktemp("served")
    course = Course(folder, f"sqlite:///{folder / 'course.db'}")
    with course.db.session() as s:
        ada = people.add_member(s, people.class_by_code(s, course.invite_code), "Ada", login="ada")
        ada.password_hash = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
    try:
        course.serve()
        yield course.base
    finally:
        course.close()


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

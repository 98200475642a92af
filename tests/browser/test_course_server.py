"""The course server end to end, as a class uses it: a learner signs in by the link an
instructor made, submits day 5's stub (graded, fails) and then a right answer (graded,
full marks), finds both from a second browser, and the instructor's gradebook shows both.

The server is the real one (`python -m server serve`, SQLite, one local worker grading in
the sandbox), serving a site built for its address with SUBMIT_URL set.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from tests.browser.helpers import set_code

ROOT = Path(__file__).resolve().parents[2]
DAY5 = "lessons/day05_add_mul/"


def admin(env, *args) -> str:
    """Run `python -m server admin ...`; its last line (the invite code or the link)."""
    done = subprocess.run(
        [sys.executable, "-m", "server", "admin", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def course_server(server_site, server_port, tmp_path_factory):
    data = tmp_path_factory.mktemp("server-data")
    url = f"http://127.0.0.1:{server_port}/"
    env = {**os.environ, "COURSE_DATA_DIR": str(data), "PUBLIC_URL": url, "SECRET_KEY": "e2e" * 20}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--port",
            str(server_port),
            "--site",
            str(server_site),
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(data / "server.log", "wb"),
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx2.get(url + "health", timeout=2).status_code == 200:
                break
        except httpx2.HTTPError:
            pass
        assert proc.poll() is None, (data / "server.log").read_text()[-3000:]
        assert time.monotonic() < deadline, "the server did not answer /health within 60 s"
        time.sleep(0.2)
    code = admin(env, "create-class", "Autumn class")
    learner_link = admin(env, "add-learner", code, "Ada Lovelace")
    teacher_link = admin(env, "add-instructor", code, "Grace Hopper")
    yield {"url": url, "learner": learner_link, "teacher": teacher_link}
    proc.terminate()
    proc.wait(60)


def sign_in_by_link(page, link, password=None):
    page.goto(link)
    if password:
        page.get_by_label("password", exact=False).first.fill(password)
    page.get_by_role("button", name="Sign in", exact=False).first.click()
    page.wait_for_url(lambda u: "/signin/" not in u, timeout=30_000)


def submissions(block):
    return block.locator("[data-submission]")


def wait_graded(block, count, timeout=180):
    """Wait for `count` submissions, all graded; the newest first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        items = submissions(block)
        states = [items.nth(i).get_attribute("data-state") for i in range(items.count())]
        if len(states) == count and all(s in ("graded", "error") for s in states):
            return items
        block.page.wait_for_timeout(250)
    raise AssertionError(f"submissions stayed {states}, wanted {count} graded")


def test_a_learner_submits_and_the_gradebook_shows_it(browser, course_server):
    url = course_server["url"]
    learner = browser.new_context(service_workers="block")
    page = learner.new_page()
    page.set_default_timeout(60_000)
    sign_in_by_link(page, course_server["learner"], password="correct horse battery")

    page.goto(url + DAY5)
    block = page.locator(".course-exercise[data-exercise='day05_add_mul.py']")
    submit = block.locator("[data-action=submit]")
    submit.click()  # the stub as given: graded, and fails
    first = wait_graded(block, 1)
    assert first.nth(0).get_attribute("data-state") == "graded"
    assert float(first.nth(0).get_attribute("data-score")) == 0
    maximum = float(first.nth(0).get_attribute("data-max-score"))
    assert maximum > 0

    set_code(block, (ROOT / "solutions/day05_add_mul.py").read_text())
    submit.click()
    both = wait_graded(block, 2)
    newest = both.nth(0)
    assert float(newest.get_attribute("data-score")) == maximum
    assert float(newest.get_attribute("data-max-score")) == maximum
    assert float(both.nth(1).get_attribute("data-score")) == 0
    ids = [both.nth(i).get_attribute("data-submission") for i in range(2)]

    # Another browser: the same learner signs in with the password set on the link page.
    other = browser.new_context(service_workers="block")
    page2 = other.new_page()
    page2.set_default_timeout(60_000)
    page2.goto(url + "signin/")
    page2.get_by_label("Login", exact=False).first.fill("ada.lovelace")
    page2.get_by_label("Password", exact=False).first.fill("correct horse battery")
    page2.get_by_role("button", name="Sign in", exact=True).click()
    page2.wait_for_url(lambda u: "/signin/" not in u, timeout=30_000)
    page2.goto(url + DAY5)
    block2 = page2.locator(".course-exercise[data-exercise='day05_add_mul.py']")
    found = wait_graded(block2, 2, timeout=60)
    assert [found.nth(i).get_attribute("data-submission") for i in range(2)] == ids

    # The instructor's gradebook: Ada, two tries, full marks as her best.
    teacher = browser.new_context(service_workers="block")
    page3 = teacher.new_page()
    sign_in_by_link(page3, course_server["teacher"])
    page3.goto(url + "instructor/")
    page3.get_by_role("link", name="Autumn class").click()
    row = page3.locator("tr", has_text="Ada Lovelace")
    text = row.inner_text()
    assert f"{maximum:g}/{maximum:g}" in text.replace(" ", ""), text
    assert "2" in text  # tries
    for context in (learner, other, teacher):
        context.close()

"""The runtime speaks the page's language (web/i18n.js, web/locales/*.json): on a Russian and
an Estonian lesson its buttons, its status line and what a run says are that language's,
and the English page keeps its words."""

from __future__ import annotations

import re

import pytest
from helpers import cell, output, run, run_status, set_code, wait_state
from playwright.sync_api import expect

from tests.browser.conftest import ROOT

LESSON = "lessons/day04_manual_backward/"

WORDS = {
    "ru": {
        "run": "▶ Запустить",
        "check": "✓ Проверить",
        "stop": "■ Остановить",
        "reset": "↺ Сбросить",
        "ready": "Python готов.",
        "running": r"выполняется… \d+ с",
        "stopped": "Остановлено.",
        "not_written": "ещё не написано",
        "failed": "не пройдена",
        "passed": "пройдена",
    },
    "et": {
        "run": "▶ Käivita",
        "check": "✓ Kontrolli",
        "stop": "■ Peata",
        "reset": "↺ Lähtesta",
        "ready": "Python on valmis.",
        "running": r"töötab… \d+ s",
        "stopped": "Peatatud.",
        "not_written": "veel kirjutamata",
        "failed": "läbimata",
        "passed": "läbitud",
    },
    "en": {
        "run": "▶ Run",
        "check": "✓ Check",
        "stop": "■ Stop",
        "reset": "↺ Reset",
        "ready": "Python is ready.",
        "running": r"running… \d+ s",
        "stopped": "Stopped.",
        "not_written": "not written yet",
        "failed": "failed",
        "passed": "passed",
    },
}


@pytest.mark.parametrize("lang", ["ru", "et", "en"])
def test_a_lesson_runs_in_its_pages_language(course_page, base_url, lang):
    page = course_page
    words = WORDS[lang]
    page.goto(base_url + ("" if lang == "en" else f"{lang}/") + LESSON)
    first = cell(page, 0)
    expect(first.locator("[data-action=run]")).to_have_text(words["run"])
    expect(first.locator("[data-action=stop]")).to_have_text(words["stop"])
    expect(first.locator("[data-action=reset]")).to_have_text(words["reset"])
    expect(page.locator(".course-exercise [data-action=check]").first).to_have_text(words["check"])

    assert run(first) == "done"
    status = page.locator(".course-status")
    expect(status).to_have_attribute("data-python-status", "ready")
    expect(status).to_have_text(words["ready"])

    # A run that takes a while says so, then Stop ends it, in the page's language.
    set_code(first, "import time\ntime.sleep(30)")
    first.locator("[data-action=run]").click()
    wait_state(first, "running")
    expect(first.locator("[data-run-status]")).to_have_text(re.compile(words["running"]))
    assert re.fullmatch(words["running"], run_status(first))
    first.locator("[data-action=stop]").click()
    assert wait_state(first, ("idle", "error", "done")) == "idle"
    assert words["stopped"] in output(first)


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_check_answers_in_the_pages_language(course_page, base_url, lang):
    """The exercise's Check: the stub's verdict and the reference's, in the page's words,
    from the grader's catalog (grader/messages.py) and the runtime's (web/locales)."""
    page = course_page
    words = WORDS[lang]
    page.goto(f"{base_url}{lang}/{LESSON}")
    block = page.locator("[data-exercise='day04_manual_backward.py']")
    block.locator("[data-action=check]").click()
    assert wait_state(block, ("pass", "fail"), timeout=90) == "fail"
    result = block.locator("[data-result]")
    text = result.inner_text()
    assert words["not_written"] in text, text
    assert WORDS["en"]["not_written"] not in text, text
    failed = result.locator("li[data-passed='false']")
    assert failed.count() >= 1
    mark = failed.first.locator(".course-checks__mark")
    assert mark.get_attribute("aria-label") == words["failed"]

    set_code(block, (ROOT / "solutions" / "day04_manual_backward.py").read_text())
    block.locator("[data-action=check]").click()
    assert wait_state(block, ("pass", "fail"), timeout=90) == "pass", result.inner_text()
    items = result.locator("li[data-passed='true']")
    assert items.count() >= 1
    mark = items.first.locator(".course-checks__mark")
    assert mark.get_attribute("aria-label") == words["passed"]
    assert "passed" not in result.inner_text()  # no English word of the grader's left

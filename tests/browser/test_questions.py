"""Checks for understanding in the browser: answered from the keyboard, judged at once with
the explanation after, kept across a reload, counted on the course map, and readable in
both palettes."""

from __future__ import annotations

import pytest

import course
import questions

DAY7 = next(d for d in course.DAYS if d.day == 7)
BRANCHES = "[data-question='multi-branch-gradients']"


def _asked(day):
    return questions.find((course.DOCS / day.lesson).read_text(encoding="utf-8"))


def _first_choice_question():
    for day in course.DAYS:
        for q in _asked(day):
            if q.choices:
                return day, q
    pytest.fail("no lesson has a choice question")


def test_a_number_question_is_answered_from_the_keyboard_and_kept(course_page, base_url):
    page = course_page
    page.goto(base_url + f"lessons/{DAY7.slug}/")
    q = page.locator(BRANCHES)
    explain = q.locator(".course-question__explain")
    assert q.get_attribute("data-state") == "unanswered"
    explain.wait_for(state="hidden")  # mounted: the answer waits for a first try

    q.locator("input").first.focus()
    page.keyboard.type("7")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("1")  # the sign is the mistake
    page.keyboard.press("Enter")
    assert q.get_attribute("data-state") == "wrong"
    assert "2 of 3 are right" in q.locator(".course-question__feedback").inner_text()
    assert q.locator("input.course-question--off").count() == 1
    second = q.locator("input").nth(1)
    second.fill("5")
    second.press("Enter")
    assert "1 of 3 is right." in q.locator(".course-question__feedback").inner_text()
    second.fill("2")
    assert explain.is_visible() and explain.get_attribute("open") is None  # offered, not forced

    third = q.locator("input").nth(2)
    third.fill("\u22121")  # the minus sign the page itself prints
    third.press("Enter")
    assert q.get_attribute("data-state") == "right"
    assert "Right" in q.locator(".course-question__feedback").inner_text()
    assert explain.get_attribute("open") is not None

    first = q.locator("input").first
    first.fill("seven")  # not a number: said, and nothing judged or saved
    first.press("Enter")
    assert "Type a number" in q.locator(".course-question__feedback").inner_text()
    assert q.get_attribute("data-state") == "right"
    assert page.evaluate("document.activeElement.name") == "b0"

    page.reload()
    q = page.locator(BRANCHES)
    assert q.get_attribute("data-state") == "right"
    assert [q.locator("input").nth(i).input_value() for i in range(3)] == ["7", "2", "\u22121"]


def test_the_course_map_counts_the_questions_answered_right(course_page, base_url):
    page = course_page
    page.goto(base_url + f"lessons/{DAY7.slug}/")
    q = page.locator(BRANCHES)
    for i, value in enumerate(["7", "2", "-1"]):
        q.locator("input").nth(i).fill(value)
    q.locator("button[type=submit]").click()
    assert q.get_attribute("data-state") == "right"

    page.goto(base_url + "map/")
    total = len(_asked(DAY7))
    cell = page.locator(f".course-answers[data-page='lessons/{DAY7.slug}']")
    assert cell.inner_text() == f"1/{total}"
    every = sum(len(_asked(d)) for d in course.DAYS)
    line = page.locator(".course-map__progress").inner_text()
    assert f"1 of {every} questions answered right" in line


def test_a_choice_question_is_answered_from_the_keyboard(course_page, base_url):
    day, asked = _first_choice_question()
    right = next(i for i, (_, ok) in enumerate(asked.choices) if ok)
    wrong = next(i for i, (_, ok) in enumerate(asked.choices) if not ok)
    page = course_page
    page.goto(base_url + f"lessons/{day.slug}/")
    q = page.locator(f"[data-question='{asked.id}']")
    radios = q.locator("input[type=radio]")
    button = q.locator("button[type=submit]")

    button.focus()
    page.keyboard.press("Enter")  # nothing chosen yet: said, not judged
    assert "Choose one" in q.locator(".course-question__feedback").inner_text()
    assert q.get_attribute("data-state") == "unanswered"

    radios.nth(0).focus()
    for _ in range(wrong):
        page.keyboard.press("ArrowDown")  # arrows move the choice, as in any radio group
    page.keyboard.press("Space")
    assert radios.nth(wrong).is_checked()
    button.focus()
    page.keyboard.press("Enter")
    assert q.get_attribute("data-state") == "wrong"

    radios.nth(right).check()
    button.press("Space")
    assert q.get_attribute("data-state") == "right"


_CONTRAST = """
(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const fg = lum(rgb(getComputedStyle(el).color));
  const bg = lum(rgb(getComputedStyle(document.body).backgroundColor));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}
"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_right_and_wrong_are_readable_in_both_palettes(course_page, base_url, scheme):
    page = course_page
    page.goto(base_url + f"lessons/{DAY7.slug}/")
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    q = page.locator(BRANCHES)
    feedback = q.locator(".course-question__feedback")
    for values, state in ((["0", "0", "0"], "wrong"), (["7", "2", "-1"], "right")):
        for i, value in enumerate(values):
            q.locator("input").nth(i).fill(value)
        q.locator("button[type=submit]").click()
        assert q.get_attribute("data-state") == state
        ratio = feedback.evaluate(_CONTRAST)
        assert ratio >= 4.5, f"{state} feedback has contrast {ratio:.2f} in {scheme}"

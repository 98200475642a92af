"""The course in three languages, in the browser: the header's switch keeps the reader on the
page (after instant navigation too), and a learner's work is the same in every language."""

import re

from playwright.sync_api import expect

from tests.browser.helpers import cell, editor_text, run, set_code


def _switch_to(page, lang):
    # Material's language menu opens on hover; its links are in the page either way
    link = page.locator(f".md-select__link[hreflang='{lang}']")
    href = link.get_attribute("href")
    page.locator(".md-header__option .md-select").first.hover()
    link.click()
    return href


def test_the_switch_keeps_the_page_and_its_edits(course_page, base_url):
    page = course_page
    page.goto(base_url + "lessons/day04_manual_backward/")
    first = cell(page, 0)
    set_code(first, 'print("saved in English")')
    assert run(first) == "done"
    page.wait_for_load_state("networkidle")
    _switch_to(page, "ru")
    page.wait_for_url(base_url + "ru/lessons/day04_manual_backward/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".day-badge")).to_contain_text("день 4 из")
    # the same cell, the learner's edit in it
    expect(cell(page, 0).locator(".cm-content")).to_contain_text("saved in English")
    set_code(cell(page, 0), 'print("edited in Russian")')
    page.wait_for_timeout(400)  # the edit is saved as it is typed (debounced)
    _switch_to(page, "et")
    page.wait_for_url(base_url + "et/lessons/day04_manual_backward/")
    expect(cell(page, 0).locator(".cm-content")).to_contain_text("edited in Russian")
    assert editor_text(cell(page, 0)) == 'print("edited in Russian")'


def test_the_switch_follows_instant_navigation(course_page, base_url):
    page = course_page
    page.goto(base_url + "ru/lessons/day01_derivative/")
    page.wait_for_load_state(
        "networkidle"
    )  # Material follows links instantly once it read the sitemap
    page.evaluate("() => { window.samePage = 'instant' }")
    page.locator("a.md-footer__link--next").click()
    page.wait_for_url(re.compile(r"ru/lessons/day02_chain_rule/$"))
    expect(page.locator(".day-badge")).to_contain_text("день 2 из")
    assert page.evaluate("() => window.samePage") == "instant"  # no page load happened
    expect(page.locator(".md-select__link[hreflang='en']")).to_have_attribute(
        "href", base_url + "lessons/day02_chain_rule/"
    )
    _switch_to(page, "en")
    page.wait_for_url(base_url + "lessons/day02_chain_rule/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate("() => window.samePage") is None  # a new language: a fresh page

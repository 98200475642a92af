"""The way in and the way around: the home page starts with the first lesson, the navigation
names each lesson with its day, the site's name does not cover the navigation on a wide
screen, and the course map fits a phone."""

from __future__ import annotations

import course

FIRST = course.DAYS[0]


def test_the_home_page_opens_with_the_way_in(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(base_url)
    start = page.locator("article a.md-button--primary").first
    assert FIRST.slug in start.get_attribute("href")
    box = start.bounding_box()
    assert box and box["y"] + box["height"] <= 720, "the way in is below the fold"


def test_the_navigation_names_each_lesson_with_its_day(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(base_url + f"lessons/{FIRST.slug}/")
    links = page.locator(".md-nav--primary a.md-nav__link[href*='lessons/day']")
    names = [" ".join(t.split()) for t in links.all_inner_texts()]
    for day in course.DAYS:
        assert f"Day {day.day} · {day.title}" in names


def test_the_sites_name_does_not_cover_the_navigation(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(base_url + "lessons/day05_add_mul/")
    page.locator(".md-sidebar--primary .md-sidebar__scrollwrap").evaluate(
        "el => el.scrollTop = 400"
    )
    title = page.locator(".md-nav--primary > .md-nav__title")
    if title.is_visible():  # shown: on one line, and nothing scrolled shows through it
        lines = title.evaluate(
            """el => { const r = document.createRange(); r.selectNodeContents(el);
                       return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"""
        )
        assert lines == 1, f"the site's name wraps onto {lines} lines"
        covered = title.evaluate(
            """el => {
              const r = el.getBoundingClientRect();
              const points = [0.25, 0.5, 0.75].map((f) => [r.left + 40, r.top + f * r.height]);
              return points.filter(([x, y]) => !document.elementFromPoint(x, y)?.closest(".md-nav__title"));
            }"""
        )
        assert not covered, f"links show through the site's name at {covered}"


def test_the_course_map_fits_a_phone(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(base_url + "map/")
    tables = page.locator("article table")
    tables.first.wait_for()
    widths = tables.evaluate_all(
        "els => els.map(t => [t.getBoundingClientRect().right, document.documentElement.clientWidth])"
    )
    assert all(right <= width + 1 for right, width in widths), widths
    last = page.locator(".course-answers").first
    box = last.bounding_box()
    assert box and box["x"] + box["width"] <= 375

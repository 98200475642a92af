"""A lesson as a learner knows it: by its day and title on the course site, not by its path.

The exercise files are written for a checkout, so their stubs say "Read
docs/lessons/day06_backward.md". A learner who works on the site knows the lesson as
"Day 6 · Topological order and backward()" at lessons/day06_backward/: the trusted
grader's messages (`python -m grader`, Gradescope) say that instead. (The page's Check
button turns the same words into a link, web/wording.js; a notebook's check cell into
words of its own, grader/notebook.py.)

The words are the reader's language (`lang`, grader/messages.py), and the lesson is
named as that language's site names it: "День 6 · <its Russian title>" at
ru/lessons/day06_backward/. The titles are the course manifest's (course.py, the lessons'
front matter, a translation's own). The grader also runs from a Gradescope zip that has
neither course.py nor docs/: there they come from grader/lessons.json ({lang: {slug:
title}}), which `python -m grader.gradescope` writes into the zip.
"""

import functools
import json
import re
from pathlib import Path

from grader.messages import DEFAULT, msg, render

__all__ = ["TITLES_FILE", "lesson_name", "lesson_path", "titles", "site_wording"]

TITLES_FILE = Path(__file__).with_name("lessons.json")
_READ_LESSON = re.compile(r"Read docs/lessons/(day(\d\d)_[a-z0-9_]+)\.md\.?")


@functools.cache
def titles(lang=DEFAULT):
    """{slug: title in `lang`} of every day: from course.py in a checkout (English where a
    day has no translation), else lessons.json, else {}."""
    try:
        import course

        return {day.slug: course.COURSE.title(day, lang) for day in course.DAYS}
    except Exception:  # no course.py or no docs/ here (a Gradescope zip)
        pass
    try:
        data = json.loads(TITLES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    found = data.get(lang)
    english = data.get(DEFAULT)
    out = {str(k): str(v) for k, v in english.items()} if isinstance(english, dict) else {}
    if isinstance(found, dict):
        out.update((str(k), str(v)) for k, v in found.items())
    return out


def lesson_path(slug, lang=DEFAULT):
    """The lesson's exercise on the site, from the site's root, as the page links it (a
    translation's page under its language's folder: "ru/lessons/...")."""
    folder = "" if lang == DEFAULT else f"{lang}/"
    return f"{folder}lessons/{slug}/#exercise-{slug}"


def lesson_name(slug, lang=DEFAULT):
    """ "Day 6 · Topological order and backward()" (or "Day 6's lesson" without a title),
    in `lang` as the site's navigation says it."""
    day = int(slug[3:5])
    title = titles(lang).get(slug)
    if title:
        return render(msg("Day {day} · {title}", day=day, title=title), lang)
    return render(msg("Day {day}'s lesson", day=day), lang)


def site_wording(message, lang=DEFAULT):
    """`message` with every "Read docs/lessons/dayNN_slug.md" said as the site names it, in
    `lang`."""
    return _READ_LESSON.sub(
        lambda m: render(
            msg(
                "Read the exercise of {lesson} on the course site ({path}).",
                lesson=lesson_name(m[1], lang),
                path=lesson_path(m[1], lang),
            ),
            lang,
        ),
        message,
    )

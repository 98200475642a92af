"""A lesson as a learner knows it: by its day and title on the course site, not by its path.

The exercise files are written for a checkout, so their stubs say "Read
docs/lessons/day06_backward.md". A learner who works on the site knows the lesson as
"Day 6 · Topological order and backward()" at lessons/day06_backward/: the trusted
grader's messages (`python -m grader`, Gradescope) say that instead. (The page's Check
button turns the same words into a link, web/wording.js; a notebook's check cell into
words of its own, grader/notebook.py.)

The titles are the course manifest's (course.py, the lessons' front matter). The grader
also runs from a Gradescope zip that has neither course.py nor docs/: there they come
from grader/lessons.json, which `python -m grader.gradescope` writes into the zip.
"""

import functools
import json
import re
from pathlib import Path

__all__ = ["TITLES_FILE", "lesson_name", "lesson_path", "titles", "site_wording"]

TITLES_FILE = Path(__file__).with_name("lessons.json")
_READ_LESSON = re.compile(r"Read docs/lessons/(day(\d\d)_[a-z0-9_]+)\.md\.?")


@functools.cache
def titles():
    """{slug: title} of every day: from course.py in a checkout, else lessons.json, else {}."""
    try:
        import course

        return {day.slug: day.title for day in course.DAYS}
    except Exception:  # no course.py or no docs/ here (a Gradescope zip)
        pass
    try:
        data = json.loads(TITLES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def lesson_path(slug):
    """The lesson's exercise on the site, from the site's root, as the page links it."""
    return f"lessons/{slug}/#exercise-{slug}"


def lesson_name(slug):
    """ "Day 6 · Topological order and backward()" (or "Day 6's lesson" without a title)."""
    day = int(slug[3:5])
    title = titles().get(slug)
    return f"Day {day} · {title}" if title else f"Day {day}'s lesson"


def site_wording(message):
    """`message` with every "Read docs/lessons/dayNN_slug.md" said as the site names it."""
    return _READ_LESSON.sub(
        lambda m: (
            f"Read the exercise of {lesson_name(m[1])} on the course site ({lesson_path(m[1])})."
        ),
        message,
    )

"""The grader names a lesson as the site does, never by its path in the repository."""

import json
import random
import zipfile

import pytest

import course
from grader import lessons
from grader.checks import EXERCISES, check_module
from grader.gradescope import build

from .mutants import SOLUTIONS, judge_cases, load_source, mutant_failures
from .test_mutations import CASES

STUBS = SOLUTIONS.parent / "exercises"


def _messages_of(exercise, source):
    check = check_module(exercise)
    cases = check.public_cases() + check.hidden_cases(random.Random(0))
    return [m for passed, m in judge_cases(exercise, load_source(exercise, source), cases)]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_no_message_names_a_repository_path(exercise):
    """The untouched stub (its messages quote the stub's "Read docs/lessons/...md") and
    every planted bug of the exercise."""
    messages = _messages_of(exercise, (STUBS / exercise).read_text())
    messages += [
        m for e, old, new, *_ in CASES if e == exercise for m in mutant_failures(e, old, new)
    ]
    assert messages
    for message in messages:
        assert "docs/" not in message and ".md" not in message, message
    day = course.DAYS[int(exercise[3:5]) - 1]
    named = f"Read the exercise of Day {day.day} · {day.title} on the course site "
    assert any(f"{named}(lessons/{day.slug}/#exercise-{day.slug})" in m for m in messages), (
        messages[0]
    )


def test_without_course_py_the_titles_come_from_the_gradescope_zip(tmp_path, monkeypatch):
    with zipfile.ZipFile(build(tmp_path / "autograder.zip")) as archive:
        shipped = json.loads(archive.read("grader/lessons.json"))
    assert shipped["en"] == {day.slug: day.title for day in course.DAYS}
    for lang in ("ru", "et"):
        assert shipped[lang] == {day.slug: course.COURSE.title(day, lang) for day in course.DAYS}
    titles_file = tmp_path / "lessons.json"
    titles_file.write_text(json.dumps(shipped))
    monkeypatch.setitem(__import__("sys").modules, "course", None)  # import course fails
    monkeypatch.setattr(lessons, "TITLES_FILE", titles_file)
    lessons.titles.cache_clear()
    try:
        english = shipped["en"]["day06_backward"]
        assert lessons.lesson_name("day06_backward") == f"Day 6 · {english}"
        russian = shipped["ru"]["day06_backward"]
        assert russian != english
        assert lessons.lesson_name("day06_backward", "ru") == f"День 6 · {russian}"
        titles_file.unlink()
        lessons.titles.cache_clear()
        assert lessons.lesson_name("day06_backward") == "Day 6's lesson"
    finally:
        lessons.titles.cache_clear()

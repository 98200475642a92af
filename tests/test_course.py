"""The course manifest (course.py): the days as the lessons' front matter describes them."""

import pytest

import course


def _lesson(folder, name, front_matter):
    (folder / "lessons").mkdir(parents=True, exist_ok=True)
    (folder / "lessons" / name).write_text(f"---\n{front_matter}\n---\n\n# Text\n")


def _day(n, phase=1):
    return f"day: {n}\ntitle: Day {n}\nphase: {phase}"


def test_the_days_are_the_lesson_pages_in_order():
    # the English pages: a translation (day12_loss.ru.md) is the same day in another language
    pages = sorted(
        p for p in course.LESSONS.glob("day*.md") if not course.TRANSLATION.search(p.name)
    )
    assert [d.slug for d in course.DAYS] == [p.stem for p in pages]
    assert [d.day for d in course.DAYS] == list(range(1, course.TOTAL_DAYS + 1))
    assert course.TOTAL_DAYS == len(pages) > 0
    first = course.DAYS[0]
    assert (first.lesson, first.exercise, first.notebook) == (
        f"lessons/{first.slug}.md",
        f"{first.slug}.py",
        f"{first.slug}.ipynb",
    )
    assert first.phase_name == course.PHASES[first.phase]
    assert "time" not in first.meta and first.minutes == course.estimate_minutes(
        course.split_front_matter((course.LESSONS / f"{first.slug}.md").read_text())[1],
        (course.ROOT / "exercises" / first.exercise).read_text(),
    )


def test_every_phase_has_days_and_they_run_in_order():
    phases = course.COURSE.phases()
    assert [p for p, _, _ in phases] == list(course.PHASES)
    assert [d for _, _, days in phases for d in days] == list(course.DAYS)


def test_badge():
    assert course.badge(12, 2) == f"Phase 2 · Neural networks · Day 12 of {course.TOTAL_DAYS}"
    assert course.badge_text(31, 3, 31) == "Phase 3 · Language models · Day 31 of 31"
    assert course.badge_text(41, 4, 41) == "Phase 4 · Toward nanoGPT · Day 41 of 41"
    with pytest.raises(ValueError, match="phase must be 1, 2, 3 or 4, got 5"):
        course.badge(1, 5)


def test_exercises_are_the_days_with_an_exercise_file():
    assert course.EXERCISES == tuple(
        d.exercise for d in course.DAYS if (course.ROOT / "exercises" / d.exercise).is_file()
    )


def test_a_new_day_needs_only_its_page(tmp_path):
    docs = tmp_path / "docs"
    for n in (1, 2):
        _lesson(docs, f"day0{n}_x{n}.md", _day(n))
    _lesson(docs, "day03_new.md", _day(3, phase=3))
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "day03_new.py").write_text("")
    c = course.load(docs)
    assert c.root == tmp_path
    assert c.total == 3 and c.badge(3, 3) == "Phase 3 · Language models · Day 3 of 3"
    assert [(p, [d.day for d in days]) for p, _, days in c.phases()] == [(1, [1, 2]), (3, [3])]
    assert c.exercises == ("day03_new.py",)


@pytest.mark.parametrize(
    "name, front_matter, message",
    [
        ("day01_a.md", _day(2), "front matter says day 2, the file name says 1"),
        ("day01_a.md", "day: 1\ntitle: A", "front matter needs `phase:`"),
        ("day01_a.md", _day(1, phase=7), r"phase must be 1, 2.* or \d, got 7"),
        ("day01_a.md", _day(1) + "\ntime: 40", "`time:` is not typed any more"),
        ("day1_a.md", _day(1), "a lesson is named dayNN_slug.md"),
        ("day01_a.md", "- a list", "must be a YAML mapping"),
    ],
)
def test_a_broken_page_is_named_with_what_is_wrong(tmp_path, name, front_matter, message):
    _lesson(tmp_path, name, front_matter)
    with pytest.raises(course.ManifestError, match=message) as info:
        course.load(tmp_path)
    assert f"docs/lessons/{name}" in str(info.value)


def test_days_run_without_gaps_or_repeats(tmp_path):
    _lesson(tmp_path, "day01_a.md", _day(1))
    _lesson(tmp_path, "day03_c.md", _day(3))
    with pytest.raises(course.ManifestError, match=r"missing \[2\]"):
        course.load(tmp_path)
    _lesson(tmp_path, "day02_b.md", _day(2))
    _lesson(tmp_path, "day02_bb.md", _day(2))
    with pytest.raises(course.ManifestError, match=r"repeated \[2\]"):
        course.load(tmp_path)


def test_phases_run_in_day_order(tmp_path):
    _lesson(tmp_path, "day01_a.md", _day(1, phase=2))
    _lesson(tmp_path, "day02_b.md", _day(2, phase=1))
    with pytest.raises(course.ManifestError, match="day 2 is in phase 1, but day 1 before it"):
        course.load(tmp_path)


def test_no_lessons_folder(tmp_path):
    with pytest.raises(course.ManifestError, match="is not a folder"):
        course.load(tmp_path)


def test_minutes_follow_the_time_rule():
    """120 words a minute, 15 s a line of code, 3 min a question, 10 a function to write and
    5 to open the exercise, rounded up to 5 minutes."""
    prose = "word " * 240  # 2 min
    cell = "```pyodide\nx = 1\n\nprint(x)\n```\n"  # 2 lines: 0.5 min, and its code is not prose
    question = "```question\nid: q\nask: many many words here\n```\n"  # 3 min
    stub = "def f():\n    raise NotImplementedError\ndef g():\n    raise NotImplementedError\n"
    assert course.estimate_minutes(prose) == 5
    assert course.estimate_minutes(prose + cell * 8 + question) == 10  # 2 + 4 + 3 = 9
    assert course.estimate_minutes(prose + question, stub) == 30  # 2 + 3 + 25
    assert course.estimate_minutes("word " * 1201) == 15  # 10.008 minutes round up
    svg = "<svg>" + "label " * 1000 + "</svg>"
    assert course.estimate_minutes(prose + svg) == 5  # a figure's labels are not prose


def test_day_7_takes_as_long_as_a_learner_took():
    """A learner's walk through day 7 with its questions and exercise took 70 to 90 minutes."""
    day7 = next(d for d in course.DAYS if d.day == 7)
    assert 70 <= day7.minutes <= 90

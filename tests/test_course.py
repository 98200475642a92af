"""The course manifest (course.py): the days as the lessons' front matter describes them."""

import pytest

import course


def _lesson(folder, name, front_matter):
    (folder / "lessons").mkdir(parents=True, exist_ok=True)
    (folder / "lessons" / name).write_text(f"---\n{front_matter}\n---\n\n# Text\n")


def _day(n, phase=1, time=10):
    return f"day: {n}\ntitle: Day {n}\nphase: {phase}\ntime: {time}"


def test_the_days_are_the_lesson_pages_in_order():
    pages = sorted(course.LESSONS.glob("day*.md"))
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
    assert first.meta["time"] == first.minutes


def test_every_phase_has_days_and_they_run_in_order():
    phases = course.COURSE.phases()
    assert [p for p, _, _ in phases] == list(course.PHASES)
    assert [d for _, _, days in phases for d in days] == list(course.DAYS)


def test_badge():
    assert course.badge(12, 2) == f"Phase 2 · Neural networks · Day 12 of {course.TOTAL_DAYS}"
    assert course.badge_text(31, 3, 31) == "Phase 3 · Language models · Day 31 of 31"
    with pytest.raises(ValueError, match="phase must be 1, 2 or 3, got 4"):
        course.badge(1, 4)


def test_exercises_are_the_days_with_an_exercise_file():
    assert course.EXERCISES == tuple(
        d.exercise for d in course.DAYS if (course.ROOT / "exercises" / d.exercise).is_file()
    )


def test_a_new_day_needs_only_its_page(tmp_path):
    docs = tmp_path / "docs"
    for n in (1, 2):
        _lesson(docs, f"day0{n}_x{n}.md", _day(n))
    _lesson(docs, "day03_new.md", _day(3, phase=3, time=25))
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
        ("day01_a.md", "day: 1\ntitle: A\nphase: 1", "front matter needs `time:`"),
        ("day01_a.md", _day(1, phase=7), "phase must be 1, 2 or 3, got 7"),
        ("day01_a.md", _day(1, time="soon"), "`time:` is whole minutes"),
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

"""Every lesson cell from day 6 on, with solutions/ as "my engine", prints the course's numbers.

Each day's cells run twice in fresh Pythons (tools/my_engine.py): on the course engine and on
solutions/ installed by engine/mine.py. The runs start ahead, in the lesson tests' other
process (ahead.py), as soon as the tests are collected (tests/conftest.py). A cell marked my_engine="..." on its page shows numbers of the engine
itself (a node count): it need only run.
"""

import pytest

import course
from tools import my_engine

from .ahead import ahead

SOLUTIONS = str(course.ROOT / "solutions")
DAYS = [day for day in course.DAYS if day.day >= my_engine.FIRST_DAY]
REPORTS = {day.slug: ahead(my_engine.compare_day, day.slug, SOLUTIONS, 900) for day in DAYS}


@pytest.mark.parametrize("slug", [day.slug for day in DAYS])
def test_solutions_as_my_engine_print_the_course_engines_numbers(slug):
    report = REPORTS[slug]()
    assert report["error"] is None, report["error"]
    assert report["differ"] == [], report["differ"]
    assert report["agree"] + report["own"] == report["cells"] > 0
    # Every part the solutions hold is theirs: nothing fell back to the course engine.
    assert "course engine —" not in report["parts"], report["parts"]

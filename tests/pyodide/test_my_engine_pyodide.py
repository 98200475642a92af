"""The lessons' cells on solutions/ as "my engine", under Pyodide, print the course engine's numbers.

Each lesson page runs in Pyodide (Node, tests/pyodide/run_cells.mjs) after a first cell that
installs the solutions as the learner's engine (`engine.mine.install`, as the page's switch
does); every cell's printed numbers are compared, with tools/my_engine.py's `compare`, with the
same cells on the course engine (the session's run of every page, tests/conftest.py).

`nox -s tests` covers days 6 to 19 (about half a minute); COURSE_MY_ENGINE_DAYS=all
(`nox -s my-engine-pyodide`) runs every day from 6 on, and COURSE_MY_ENGINE_DAYS=20-25 a range.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import course
from engine.mine import PARTS
from tests.notebooks.test_run import _MEASURED
from tests.pyodide.test_lesson_cells import ROOT, extract_cells, run_cells_in_node
from tools.my_engine import FIRST_DAY, cells_and_notes, compare, parse_days

DEFAULT_DAYS = "6-19"
WANTED = os.environ.get("COURSE_MY_ENGINE_DAYS") or DEFAULT_DAYS
FIRST, LAST = parse_days(f"{FIRST_DAY}-{course.TOTAL_DAYS}" if WANTED == "all" else WANTED)
DAYS = [d for d in course.DAYS if max(FIRST, FIRST_DAY) <= d.day <= LAST]

# Measurements of the machine, not of the maths (tests/notebooks leaves out the same), and the
# spaces that pad them: a time, a ratio of two ("7.6x faster", "2.3 times faster").
MEASURED = re.compile(rf"[ \t]*(?:{_MEASURED.pattern}|\d+\.\d+ times\b)")

SOLUTIONS = {
    p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "solutions").glob("day*.py"))
}
INSTALL = f"from engine import mine\nprint(mine.install({SOLUTIONS!r})['line'])\n"


# The learner's engine is slower than the course's (solutions/ runs day 29's and day 40's
# cells 8 to 13 times slower; the page warns with mine.speed_ratio): the time limit of each
# cell (run_cells.mjs's 60 s where the page sets none) is stretched by this much.
SLOWER = 10


def my_engine_pages(days):
    """run_cells.mjs's pages: each day's cells after a cell that installs the solutions."""
    return [
        {
            "page": day.slug,
            "cells": [
                {"code": INSTALL, "timeout": None},
                *(
                    {**cell, "timeout": (cell["timeout"] or 60) * SLOWER}
                    for cell in extract_cells(course.DOCS / day.lesson)
                ),
            ],
        }
        for day in days
    ]


@pytest.fixture(scope="module")
def on_my_engine(tmp_path_factory):
    """{lesson: [each cell's result]}: the install cell first, then the page's cells."""
    return run_cells_in_node(my_engine_pages(DAYS), tmp_path_factory.mktemp("my-engine"))


def as_run(cells):
    """A run as tools.my_engine.compare reads it: a cell stopped at its time limit failed, and
    measurements of the machine (times, their ratios, collector runs) are not compared."""
    return {
        "cells": [
            {
                "out": MEASURED.sub(" <measured>", c["stdout"]),
                "error": None
                if c["ok"]
                else (c["error"] or {}).get("traceback") or "ran past its time limit",
            }
            for c in cells
        ]
    }


@pytest.mark.slow
@pytest.mark.parametrize("day", DAYS, ids=[d.slug for d in DAYS])
def test_the_cells_print_the_same_numbers_on_the_solutions_as_my_engine(
    on_my_engine, lesson_cells_under_pyodide, day
):
    install, *mine = on_my_engine[day.slug]
    assert install["ok"], f"installing solutions/ failed:\n{install['error']['traceback']}"
    line = install["stdout"]
    # The solutions pass every exercise: every part is the learner's.
    assert line.startswith("Value: yours (day 8)") and "pass day" not in line, line
    assert line.count(": yours (day") == len(PARTS), line
    theirs = lesson_cells_under_pyodide[Path(day.lesson).stem]
    # A cell marked my_engine="..." on its page shows the engine's own numbers: it need
    # only run (tools/my_engine.py); round-off below 1e-12 counts as 0 there too.
    notes = [note for _, note in cells_and_notes(day)]
    report = compare(as_run(theirs), as_run(mine), notes)
    assert report["error"] is None
    assert report["cells"] == len(notes), "the page's cells, read twice, do not match"
    assert not report["differ"], "\n".join(
        f"cell {c}: course engine printed {a!r}\n        my engine printed   {b!r}"
        for c, a, b in report["differ"]
    )


def test_the_engine_wheel_the_site_ships_holds_my_engine(tmp_path):
    """The page's switch imports engine.mine from the engine wheel (hooks/site_build.py), and
    a notebook's says its line in Russian or Estonian from the words the wheel holds."""
    import zipfile

    from site_build import build_wheels

    wheel = next(w for w in build_wheels(ROOT, tmp_path) if w.name.startswith("engine-"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "engine/mine.py" in names and "engine/data/words.json" in names

"""Each translated lesson's cells print the English cells' numbers (run in CPython).

A translation may translate a cell's comments and printed labels, never its program
(test_translations.py); here both pages' cells run, each page in a fresh Python, started in
another process as soon as the tests are collected (tests/conftest.py, tests/lessons/ahead.py).
"""

import pytest

from tests.lessons.ahead import ahead
from tools import translation

LESSONS = sorted(
    str(p)
    for lang in translation.LANGUAGES
    for p in (translation.DOCS / "lessons").glob(f"*.{lang}.md")
)
RUNS = {path: ahead(translation.compare_cells, path) for path in LESSONS}


@pytest.mark.parametrize("path", LESSONS, ids=[p.rsplit("/", 1)[-1] for p in LESSONS])
def test_a_translated_lessons_cells_print_the_english_numbers(path):
    problems = RUNS[path]()
    assert not problems, "\n".join(problems)

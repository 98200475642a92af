"""Each translated lesson's cells print the English cells' numbers (run in CPython).

A translation may translate a cell's comments and printed labels, never its program
(test_translations.py). A page whose cells differ from the English ones only in the labels
they print (strings passed to print(), an f-string's words, docstrings), with the same numbers
in those labels, prints the same numbers by construction; every other translated page and its
English page run here, each in a fresh Python, started in another process as soon as the tests
are collected (tests/conftest.py, tests/lessons/ahead.py), each English page once for both
languages.
"""

from pathlib import Path

import pytest

from tests.lessons.ahead import ahead
from tools import translation

LESSONS = sorted(
    str(p)
    for lang in translation.LANGUAGES
    for p in (translation.DOCS / "lessons").glob(f"*.{lang}.md")
)
BY_CONSTRUCTION = {path for path in LESSONS if translation.cells_print_the_same_numbers(path)}
TO_RUN = [path for path in LESSONS if path not in BY_CONSTRUCTION]
RUNS = {path: ahead(translation.run_in_fresh_python, path) for path in TO_RUN}
ENGLISH_RUNS = {
    str(source): ahead(translation.run_in_fresh_python, str(source))
    for source in sorted({translation.source_of(Path(p)) for p in TO_RUN})
}


# Each test names its English page too: tests/conftest.py starts the runs its parameters name.
PAIRS = [(path, str(translation.source_of(Path(path)))) for path in LESSONS]


@pytest.mark.parametrize("path, english", PAIRS, ids=[p.rsplit("/", 1)[-1] for p in LESSONS])
def test_a_translated_lessons_cells_print_the_english_numbers(path, english):
    if path in BY_CONSTRUCTION:
        return  # the same program but for printed labels: the same numbers (test below)
    problems = translation.compare_runs(ENGLISH_RUNS[english](), RUNS[path]())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "english, translated, same",
    [
        ('print("loss:", f(2.0))', 'print("kadu:", f(2.0))', True),
        ('print(f"step {i}: {x:.4f}")', 'print(f"samm {i}: {x:.4f}")', True),
        (
            'def f():\n    """Twice x."""\n    return 2',
            'def f():\n    """Kaks korda x."""\n    return 2',
            True,
        ),
        # a translated label with another number in it
        ('print("after 3 steps", x)', 'print("после 4 шагов", x)', False),
        # a format spec is the program: it sets the digits printed
        ('print(f"{x:.4f}")', 'print(f"{x:.3f}")', False),
        # a string the program computes with (a text to tokenize, a key)
        ('ids = encode("emma")', 'ids = encode("эмма")', False),
        ('print(len("emma"))', 'print(len("эмма"))', False),
        ('label = "loss"\nprint(label, x)', 'label = "kadu"\nprint(label, x)', False),
    ],
)
def test_printed_labels_alone_may_differ(english, translated, same):
    assert translation.prints_the_same_numbers(english, translated) is same


@pytest.mark.parametrize(
    "printed",
    [
        "21.0 ms per step, 3.3x as fast",
        "21.0 мс на шаг, в 3.3 раза быстрее",
        "выучено за 4.2 с",
        "21.0 ms sammu kohta, 3.3 korda kiirem",
    ],
)
def test_times_and_their_ratios_are_not_compared_in_any_language(printed):
    assert translation.numbers_of_output(printed) == []


def test_a_count_before_the_russian_word_s_is_a_count():
    assert translation.numbers_of_output("T = 1: 47 с выбором из хвоста") == ["1", "47"]

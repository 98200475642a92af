"""grader.notebook: a notebook's check cell reports what the page's Check button shows."""

from pathlib import Path

from grader import notebook
from grader.public import run_public_checks

ROOT = Path(__file__).resolve().parents[2]
DAY = "day01_derivative.py"


def test_the_untouched_stub_fails_every_check_with_the_checks_own_messages():
    stub = (ROOT / "exercises" / DAY).read_text(encoding="utf-8")
    checks = run_public_checks(DAY, stub)
    text = notebook.report(checks)
    lines = text.splitlines()
    assert lines[0] == f"0 of {len(checks)} checks passed."
    for c in checks:
        assert f"✗ {c['name']}" in lines
    # The page turns "Read docs/lessons/X.md" into a pointer to the lesson and to Check again.
    assert "Read docs/lessons" not in text
    assert (
        "not written yet (line 19 of day01_derivative.py): Day 1: write forward_difference. "
        "See the exercise section of the lesson (day01_derivative), then run the check cell again."
    ) in text


def test_the_reference_passes_every_check():
    solution = (ROOT / "solutions" / DAY).read_text(encoding="utf-8")
    checks = run_public_checks(DAY, solution)
    lines = notebook.report(checks).splitlines()
    assert lines[0] == f"{len(checks)} of {len(checks)} checks passed."
    assert not any(line.startswith("✗") for line in lines)


def test_a_file_that_does_not_run_is_said_once():
    checks = run_public_checks(DAY, "def broken(:\n")
    text = notebook.report(checks)
    assert text.count("Your file did not run") == 1
    assert f"none of its {len(checks)} checks could run" in text
    assert "SyntaxError" in text or "syntax" in text.lower()
    assert text.count("✗") == len(checks)


def test_the_exercise_cell_is_the_latest_one_run_that_holds_the_file():
    marker = f"python -m grader --exercise {DAY}"
    first, edited = f'"""{marker}"""\nx = 1', f'"""{marker}"""\nx = 2'
    check_cell = f'from grader.notebook import check\ncheck("{DAY}")  # {marker}'
    history = ["", first, "print(1)", edited, check_cell]
    assert notebook.exercise_source(DAY, history) == edited
    assert notebook.exercise_source(DAY, ["print(1)"]) is None
    assert notebook.exercise_source("day02_chain_rule.py", history) is None


def test_outside_ipython_the_check_says_where_it_runs(capsys):
    notebook.check(DAY)
    out = capsys.readouterr().out
    assert "Jupyter" in out and f"python -m grader --exercise {DAY}" in out

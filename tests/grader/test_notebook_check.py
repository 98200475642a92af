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


def test_the_check_reads_the_file_the_exercise_cell_saved(tmp_path, capsys):
    notebook.check(DAY, tmp_path)
    assert f"run the exercise cell first (it starts with `%%writefile {DAY}`" in (
        capsys.readouterr().out
    )
    (tmp_path / DAY).write_text((ROOT / "solutions" / DAY).read_text(encoding="utf-8"))
    notebook.check(DAY, tmp_path)
    out = capsys.readouterr().out
    n = len(run_public_checks(DAY, (tmp_path / DAY).read_text()))
    assert out.startswith(f"{n} of {n} checks passed.\n")

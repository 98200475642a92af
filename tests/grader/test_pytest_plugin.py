"""The grader as a pytest suite: one item per case, the same verdicts as `python -m grader`."""

import subprocess
import sys
import time

from .helpers import ROOT


def pytest_grade(*args):
    argv = [sys.executable, "-m", "pytest", "-p", "grader.pytest_plugin", "grader/suite.py"]
    argv += ["-p", "no:cacheprovider", "-rf", *args]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_reference_passes_every_case():
    done = pytest_grade("--submission", "solutions", "-k", "day05_add_mul or day08_more_ops")
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_the_untouched_stub_fails_every_case_with_the_lesson_to_read():
    done = pytest_grade("--submission", "exercises", "-k", "day05_add_mul", "--grader-seed", "7")
    assert done.returncode == 1
    assert "passed" not in done.stdout.splitlines()[-1]
    # The stub's "Read docs/lessons/day05_add_mul.md", said as the site names the lesson.
    assert "on the course site (lessons/day05_add_mul/#exercise-day05_add_mul)" in done.stdout
    assert "docs/lessons/" not in done.stdout
    assert "grader: submission exercises, seed 7" in done.stdout


def test_a_refused_submission_fails_with_the_reason(tmp_path):
    (tmp_path / "day05_add_mul.py").write_bytes((ROOT / "solutions/day05_add_mul.py").read_bytes())
    (tmp_path / "conftest.py").write_text("import os\n")
    done = pytest_grade("--submission", str(tmp_path), "-k", "day05_add_mul")
    assert done.returncode == 1
    assert "conftest.py would change how Python or pytest runs" in done.stdout


def test_without_a_submission_it_says_what_to_pass():
    done = pytest_grade()
    assert done.returncode == 4
    assert "needs --submission PATH" in done.stderr


def test_a_submission_that_hangs_everywhere_stops_within_its_budget(tmp_path):
    # The same budget and skip-after-hangs rule as python -m grader: thirty endless loops
    # stop after the budget (8 s here), not after every case's own limit (842 s).
    for name in (ROOT / "exercises").glob("*.py"):
        (tmp_path / name.name).write_text("while True:\n    pass\n")
    started = time.monotonic()
    done = pytest_grade("--submission", str(tmp_path), "--grader-budget", "8", "-q")
    elapsed = time.monotonic() - started
    assert done.returncode == 1
    assert elapsed < 8 + 30, elapsed  # the budget, plus pytest's start and collection
    assert "longer than 8 s in total" in done.stdout
    assert "never finished" in done.stdout

"""An autograder zip for some days: `python -m grader.gradescope --days 1-7`."""

import json
import os
import random
import shutil
import subprocess
import sys
import zipfile

import pytest

from grader.checks import EXERCISES, check_module
from grader.gradescope import DaySpecError, parse_days

from .helpers import ROOT

GOOD = {
    "1-7": [e for e in EXERCISES if int(e[3:5]) <= 7],
    "5,6,8": ["day05_add_mul.py", "day06_backward.py", "day08_more_ops.py"],
    " 8 , 5-6,6 ": ["day05_add_mul.py", "day06_backward.py", "day08_more_ops.py"],
    "41": ["day41_pytorch.py"],
    "1-41": list(EXERCISES),
    "07": ["day07_accumulation.py"],
}
BAD = {
    "": "needs a list of days",
    "   ": "needs a list of days",
    "0": "day 0 has no exercise",
    "42": "day 42 has no exercise",
    "40-45": "day 42 has no exercise",
    "7-1": "runs backwards",
    "1,,2": "'' is not a day",
    "1-": "is not a day",
    "-3": "is not a day",
    "1--3": "is not a day",
    "1-3-5": "is not a day",
    "3 4": "is not a day",
    "a": "is not a day",
    "1.5": "is not a day",
    "1_0": "is not a day",
    "٣": "is not a day",  # a digit, but not an ASCII one
    "1-99999999999999": "is not a day",  # never expanded into a range
    "1," * 300: "characters long",
}


@pytest.mark.parametrize("spec", list(GOOD))
def test_a_day_spec_names_the_exercises_of_those_days(spec):
    assert parse_days(spec) == GOOD[spec]


@pytest.mark.parametrize("spec", list(BAD))
def test_a_bad_day_spec_says_what_is_wrong(spec):
    with pytest.raises(DaySpecError, match=BAD[spec]):
        parse_days(spec)


def _run(*args, cwd=ROOT, env=None, timeout=120):
    return subprocess.run(
        [*map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_command_refuses_a_bad_spec_in_one_line(tmp_path):
    out = tmp_path / "autograder.zip"
    run = _run(sys.executable, "-m", "grader.gradescope", "--out", out, "--days", "9-3")
    assert run.returncode == 2 and not out.exists()
    assert "--days '9-3': the range '9-3' runs backwards; write 3-9" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_assignment_of_two_days_is_graded_out_of_those_days(tmp_path):
    out = tmp_path / "autograder.zip"
    build = _run(sys.executable, "-m", "grader.gradescope", "--out", out, "--days", "5,6")
    assert build.returncode == 0, build.stderr
    assert "grading 2 exercise(s): day05_add_mul.py, day06_backward.py" in build.stdout
    home = tmp_path / "autograder"
    with zipfile.ZipFile(out) as archive:
        assert json.loads(archive.read("assignment.json")) == {
            "exercises": ["day05_add_mul.py", "day06_backward.py"]
        }
        archive.extractall(home / "source")
    script = home / "run_autograder"
    shutil.copy(home / "source" / "run_autograder", script)
    script.chmod(0o755)
    # The whole course's files, as the site's download holds them: two days are graded.
    shutil.copytree(ROOT / "solutions", home / "submission", ignore=shutil.ignore_patterns("__*"))
    env = dict(os.environ, AUTOGRADER_ROOT=str(home), AUTOGRADER_PYTHON=sys.executable)
    run = _run(script, env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads((home / "results" / "results.json").read_text())
    hidden = sum(
        len(check_module(e).hidden_cases(random.Random(0)))
        for e in ("day05_add_mul.py", "day06_backward.py")
    )
    assert data["max_score"] == hidden == data["score"]
    assert set(data["extra_data"]["exercises"]) == {"day05_add_mul.py", "day06_backward.py"}


def test_without_days_the_zip_grades_every_exercise(tmp_path):
    from grader.gradescope import build

    with zipfile.ZipFile(build(tmp_path / "autograder.zip")) as archive:
        assert "assignment.json" not in archive.namelist()


@pytest.mark.parametrize(
    "content, refusal",
    [
        ("{", "not a readable JSON file"),
        ('{"exercises": []}', "not empty"),
        ('{"exercises": ["day99_x.py"]}', "'day99_x.py' is not an exercise"),
        ('{"exercises": ["../../etc/passwd"]}', "is not an exercise"),
        ('["day05_add_mul.py"]', "must be"),
    ],
)
def test_a_broken_assignment_file_is_refused(tmp_path, content, refusal):
    path = tmp_path / "assignment.json"
    path.write_text(content)
    run = _run(sys.executable, "-m", "grader", ROOT / "solutions", "--assignment", path)
    assert run.returncode == 2 and refusal in run.stderr, run.stderr

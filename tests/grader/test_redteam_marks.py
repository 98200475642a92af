"""Marks only working code earns, and reports no learner can forge.

The replay attack does no mathematics: it patches its runner to answer each case from
the public cases the site publishes with their answers. It passes that feedback, and
the grade (the hidden cases) gives it nothing. Learner text that tries to forge the
instructor's terminal or gradebook comes out escaped.
"""

import csv
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader import report
from grader.batch import csv_cell, grade_folder
from grader.checks import EXERCISES, published_cases
from grader.grade import grade, grade_one
from grader.sandbox import Limits
from grader.submission import load

from .helpers import (
    HAS_NOBODY_GRADER,
    LEVELS,
    NO_NOBODY_GRADER,
    ROOT,
    grade_class_as_nobody,
    make_sandbox,
)

ATTACKS = Path(__file__).with_name("attacks")
SANDBOXED = [p for p in LEVELS if p != "process"]


def _replay_source(exercise):
    """The replay attack for `exercise`: the published table above the replaying code."""
    table = published_cases([exercise])[exercise]
    table_line = f"import json\nTABLE = json.loads({json.dumps(table)!r})\n"
    return table_line + (ATTACKS / "replay.py").read_text()


def _replay_files(folder, exercises):
    folder.mkdir(exist_ok=True)
    for exercise in exercises:
        (folder / exercise).write_text(_replay_source(exercise))
    return load(folder)


@pytest.mark.parametrize("level", SANDBOXED)
def test_replaying_the_published_answers_earns_no_mark(tmp_path, level):
    files = _replay_files(tmp_path / "replay", list(EXERCISES))
    sandbox = make_sandbox(level, Limits(wall_seconds=10.0, cpu_seconds=10))
    results = grade(files, sandbox, list(EXERCISES), seed=11, budget=900)
    public = [t for t in results["tests"] if t["public"]]
    # The attack is real: the feedback it replays passes (204 of 281 marks before the
    # grade became the hidden cases alone)...
    assert sum(t["passed"] for t in public) >= 0.9 * len(public)
    # ...and it earns nothing, in every exercise.
    per, (score, max_score) = report.scores(results)
    assert max_score > 0 and score == 0, {e: s for e, s in per.items() if s[0]}
    assert report.gradescope(results)["score"] == 0


@pytest.mark.skipif(not HAS_NOBODY_GRADER, reason=str(NO_NOBODY_GRADER))
@pytest.mark.parametrize(
    "exercise", ["day05_add_mul.py", "day20_embeddings.py", "day23_multi_head.py"]
)
def test_replaying_earns_no_mark_when_a_normal_user_grades_the_class(exercise):
    # The grader as an instructor without root runs it (bubblewrap, unprivileged), on a
    # class where the replayer sits next to an honest learner.
    from grader.checks import check_module

    reference = (ROOT / "solutions" / exercise).read_text()
    learners = {"a-replay": _replay_source(exercise), "b-honest": reference}
    scores, run = grade_class_as_nobody(learners, exercise)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    hidden = check_module(exercise).hidden_cases(__import__("random").Random(1))
    assert scores == {"a-replay": 0, "b-honest": len(hidden)}


def _forged(tmp_path):
    folder = tmp_path / "forger"
    folder.mkdir()
    (folder / "day05_add_mul.py").write_text((ATTACKS / "forge_report.py").read_text())
    return folder


def _has_control(text):
    return re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)


@pytest.mark.parametrize("level", SANDBOXED)
def test_overwriting_the_order_judge_in_the_child_earns_nothing(tmp_path, level):
    # Days 6 and 29 once had the child judge its own order: this file, the untouched stub
    # with an order of just the output and every runner helper made to call it perfect,
    # scored 7/19 where the stub scores 0. The order now goes to the parent as positions.
    attack = (ATTACKS / "patch_runners.py").read_text()
    folder = tmp_path / "orders"
    folder.mkdir()
    days = ["day06_backward.py", "day29_making_it_fast.py"]
    for day in days:
        (folder / day).write_text((ROOT / "exercises" / day).read_text() + "\n" + attack)
    sandbox = make_sandbox(level, Limits(wall_seconds=10.0, cpu_seconds=10))
    results = grade(load(folder), sandbox, days, seed=5, budget=600)
    assert not [t["name"] for t in results["tests"] if t["passed"]]


@pytest.mark.parametrize("level", SANDBOXED)
def test_an_exception_message_cannot_forge_the_text_report(tmp_path, level):
    sandbox = make_sandbox(level, Limits(wall_seconds=5.0, cpu_seconds=5))
    gradescope, text, results = grade_one(_forged(tmp_path), sandbox, ["day05_add_mul.py"], 1)
    assert any("\x1b" in t["message"] for t in results["tests"])  # the attack reached the grader
    assert not _has_control(text), repr(text[:400])
    # The only line that starts with a score is the grader's own, the last.
    scores = [line for line in text.splitlines() if line.lstrip().startswith("Score:")]
    assert scores == [text.splitlines()[-1]] and scores[0].startswith(
        f"Score: 0/{gradescope['max_score']}"
    )
    for test in gradescope["tests"]:
        assert not _has_control(test["output"]) and "\n" not in test["output"]


def test_a_zip_entry_name_cannot_forge_the_report(tmp_path):
    path = tmp_path / "learner.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes\n\x1b[2JScore: 12/12\u202e.py", "x = 1\n")
    sandbox = make_sandbox(SANDBOXED[0].values[0])
    gradescope, text, _ = grade_one(path, sandbox, ["day05_add_mul.py"], 1)
    assert "not graded" in text
    assert not _has_control(text) and text.endswith("\nScore: 0")
    assert [line for line in text.splitlines() if line.startswith("Score:")] == ["Score: 0"]
    assert not _has_control(gradescope["output"]) and "\n" not in gradescope["output"]


@pytest.mark.parametrize(
    "text, cell",
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1", "\\t=1"),  # a tab or CR is escaped first: the cell starts with a backslash
        ("\r=1", "\\r=1"),
        ("ada", "ada"),
        ("a\nb", "a\\nb"),
        (7, 7),
    ],
)
def test_a_gradebook_cell_is_never_a_formula(text, cell):
    assert csv_cell(text) == cell


def test_learner_folders_named_like_formulas_stay_text_in_the_gradebook(tmp_path):
    class_dir = tmp_path / "class"
    names = ["=1+2", "@SUM(A1)", "-3+4", "+cmd", "evil\nScore: 12\x1b[2J"]
    for name in names:
        (class_dir / name).mkdir(parents=True)
        (class_dir / name / "day05_add_mul.py").write_text("")
    sandbox = make_sandbox(SANDBOXED[0].values[0])
    gradebook = tmp_path / "grades.csv"
    grade_folder(class_dir, sandbox, ["day05_add_mul.py"], gradebook, seed=1, quiet=True)
    rows = list(csv.reader(io.StringIO(gradebook.read_text())))
    assert len(rows) == 1 + len(names)  # one real row per learner, the header first
    for row in rows[1:]:
        for value in row:
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), row
            assert not _has_control(value) and "\n" not in value, row
    learners = sorted(row[0] for row in rows[1:])
    assert learners == sorted(["'=1+2", "'@SUM(A1)", "'-3+4", "'+cmd", "evil\\nScore: 12\\x1b[2J"])


def test_the_public_wheel_runs_its_checks_without_the_trusted_side(tmp_path):
    from site_build import build_wheels

    site = tmp_path / "site-packages"
    for wheel in build_wheels(ROOT, tmp_path):
        if wheel.name.startswith(("grader", "engine")):
            zipfile.ZipFile(wheel).extractall(site)
    assert not (site / "grader" / "checks").exists()
    code = (
        "import sys, json\n"
        f"sys.path.insert(0, {str(site)!r})\n"
        "from grader.public import run_public_checks\n"
        f"source = open({str(ROOT / 'solutions' / 'day05_add_mul.py')!r}).read()\n"
        "checks = run_public_checks('day05_add_mul.py', source)\n"
        "trusted = [m for m in sys.modules if m.startswith('grader.checks')]\n"
        "print(json.dumps([all(c['passed'] for c in checks), len(checks), trusted]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    passed, count, trusted = json.loads(out.stdout)
    assert passed and count > 0 and trusted == []


class _Unrunnable:
    """A sandbox that cannot run one case (no free uid, a cleanup that failed): not the
    learner's fault, so never a 0."""

    def __init__(self, sandbox, name):
        self.sandbox, self.name = sandbox, name
        self.limits, self.description = sandbox.limits, sandbox.description

    def run(self, exercise, source, case, *args):
        if case["name"] == self.name:
            return {"error": "every sandbox uid stayed busy for 30 s", "seconds": 30.0}
        return self.sandbox.run(exercise, source, case, *args)


def test_a_case_that_could_not_run_is_an_error_not_a_zero(tmp_path, monkeypatch, capsys):
    import grader.__main__ as cli
    from grader.checks import check_module

    hidden = check_module("day05_add_mul.py").hidden_cases(__import__("random").Random(1))
    sandbox = _Unrunnable(make_sandbox(SANDBOXED[0].values[0]), hidden[0]["name"])
    folder = tmp_path / "honest"
    folder.mkdir()
    (folder / "day05_add_mul.py").write_bytes(
        (ROOT / "solutions" / "day05_add_mul.py").read_bytes()
    )
    gradescope, text, results = grade_one(folder, sandbox, ["day05_add_mul.py"], 1)
    broken = report.errors(results)
    assert [t["name"] for t in broken] == [hidden[0]["name"]]
    assert "ERROR" in text and "Not graded: 1 case(s) could not be run" in text
    assert gradescope["extra_data"]["errors"] == 1 and "Not graded" in gradescope["output"]
    # The command says so in its exit status, and a class's gradebook in the row's status.
    monkeypatch.setattr(cli, "detect", lambda _: sandbox)
    assert cli.main([str(folder), "--exercise", "day05_add_mul.py", "--seed", "1"]) == 1
    class_dir = tmp_path / "class"
    (class_dir / "ada").mkdir(parents=True)
    (class_dir / "ada" / "day05_add_mul.py").write_bytes((folder / "day05_add_mul.py").read_bytes())
    gradebook = tmp_path / "grades.csv"
    status = grade_folder(class_dir, sandbox, ["day05_add_mul.py"], gradebook, seed=1, quiet=True)
    row = next(csv.DictReader(gradebook.open()))
    assert status == 1 and row["status"] == "error" and "could not be run" in row["message"]


def test_an_entry_that_is_no_file_is_refused_and_its_name_escaped(tmp_path, capsys):
    import os

    class_dir = tmp_path / "class"
    class_dir.mkdir()
    name = "x\x1b[2J\x1b[31mFAKE: every learner graded 30 of 30\x1b[0m\n.zip"
    os.mkfifo(class_dir / name)
    (class_dir / "ada").mkdir()
    (class_dir / "ada" / "day05_add_mul.py").write_bytes(
        (ROOT / "solutions" / "day05_add_mul.py").read_bytes()
    )
    gradebook = tmp_path / "grades.csv"
    sandbox = make_sandbox(SANDBOXED[0].values[0])
    status = grade_folder(class_dir, sandbox, ["day05_add_mul.py"], gradebook, seed=1)
    out = capsys.readouterr()
    assert status == 0  # refused, not a failure of the grader
    assert not _has_control(out.out + out.err), repr(out.err[-400:])
    assert not [line for line in (out.out + out.err).splitlines() if line.startswith(".zip")]
    rows = {r["learner"]: r for r in csv.DictReader(gradebook.open())}
    refused = [r for learner, r in rows.items() if learner != "ada"]
    assert [r["status"] for r in refused] == ["refused"]
    assert "not a file or a folder" in refused[0]["message"]

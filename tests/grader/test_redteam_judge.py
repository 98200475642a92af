"""The judge stays out of reach: learner code in the child, or in the page, can run the
learner's side of a check and nothing else.

The oracle attack is one file, the same under every exercise's name: it looks for the
trusted checks wherever the child can import them from, computes what the case expects,
and writes the result line itself through the harness's pipe. It must score what the
untouched stub scores (0); its control shows it scores full marks the moment the trusted
checks are staged beside it, as they were before the split.
"""

import json
import textwrap
import zipfile

import pytest

from grader import sandbox as sandbox_module
from grader.checks import EXERCISES, check_module
from grader.sandbox import Limits, staged_files

from .helpers import HAS_BWRAP, LEVELS, ROOT, make_sandbox, score

ORACLE = textwrap.dedent(
    """
    import importlib, json, os, sys

    def expected_values(case, stem):
        for name in (f"checks.{stem}", f"grader.checks.{stem}"):
            try:
                check = importlib.import_module(name)
            except Exception:
                continue
            if not hasattr(check, "expect"):
                continue
            values = {}
            for want in check.expect(case).wants:
                if hasattr(want, "items") and hasattr(want, "name"):  # a list
                    values[f"len({want.name})"] = float(len(want.items))
                    for i, item in enumerate(want.items):
                        values[f"{want.name}[{i}]"] = float(item)
                else:
                    values[want.key] = float(want.value)
            return values
        return None

    frame = sys._getframe()
    while frame is not None and "nonce" not in frame.f_locals:
        frame = frame.f_back
    if frame is None:
        raise NotImplementedError("Day 1: no harness here")
    request = frame.f_locals["request"]
    values = expected_values(request["case"], request["exercise"][:-3])
    if values is None:
        raise NotImplementedError("Day 1: the oracle found no judge")
    line = {"nonce": frame.f_locals["nonce"], "outcome": {"values": values, "invalid": {}}}
    os.write(frame.f_locals["fd"], json.dumps(line).encode() + b"\\n")
    os._exit(0)
    """
)


def _grade_everywhere(tmp_path, level, exercises):
    from grader.grade import grade
    from grader.submission import load

    folder = tmp_path / "oracle"
    folder.mkdir(exist_ok=True)
    for name in exercises:
        (folder / name).write_text(ORACLE)
    limits = Limits(wall_seconds=10.0, cpu_seconds=10)
    return grade(load(folder), make_sandbox(level, limits), exercises, seed=7, budget=600)


@pytest.mark.parametrize("level", [p for p in LEVELS if p != "process"])
def test_the_oracle_scores_what_the_stub_scores_under_every_exercise(tmp_path, level):
    results = _grade_everywhere(tmp_path, level, list(EXERCISES))
    assert len(results["tests"]) > 200
    assert score(results) == 0, [t["name"] for t in results["tests"] if t["passed"]]


@pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")
def test_the_oracle_wins_once_the_judge_is_staged(tmp_path, monkeypatch):
    # The control: stage the trusted checks beside the runners, as before the split, and
    # the same file scores full marks without doing any mathematics.
    def staged_with_judge(exercise, source, needs_engine, case=None):
        files = staged_files(exercise, source, needs_engine, case)
        for folder in ("grader", "grader/checks", "grader/runners"):
            for path in sorted((ROOT / folder).glob("*.py")):
                files[f"{folder}/{path.name}"] = path.read_bytes()
        return files

    monkeypatch.setattr(sandbox_module, "staged_files", staged_with_judge)
    exercises = ["day05_add_mul.py", "day16_tokens.py", "day25_microgpt.py"]
    results = _grade_everywhere(tmp_path, "bwrap", exercises)
    assert score(results) == len(results["tests"]), [
        t["message"] for t in results["tests"] if not t["passed"]
    ]


# What only a judge has: what a case expects, how cases are drawn, numerical references.
JUDGE_MARKS = (
    "def expect(",
    "def hidden_cases(",
    "def judge(",
    "def central_difference(",
    "import lm",
)
CHILD_MARKS = JUDGE_MARKS + ("Want(", "Expectation(", "from grader", "import grader")


def _holds_a_judge(data, marks=JUDGE_MARKS):
    text = data.decode("utf-8", "replace")
    return [mark for mark in marks if mark in text]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_no_file_staged_into_the_child_holds_a_judge(exercise):
    check = check_module(exercise)
    for case in check.public_cases() + check.hidden_cases(__import__("random").Random(0)):
        files = staged_files(exercise, b"", check.NEEDS_ENGINE, case)
        for path, data in files.items():
            assert (
                path == "child.py" or path == exercise or path.startswith(("runners/", "engine/"))
            ), path
            if path.startswith("runners/") or path == "child.py":
                assert not _holds_a_judge(data, CHILD_MARKS), (path, _holds_a_judge(data))


def test_the_sites_grader_wheel_holds_no_judge_and_no_hidden_cases(tmp_path):
    from site_build import build_wheels

    wheels = {w.name.split("-")[0]: w for w in build_wheels(ROOT, tmp_path)}
    with zipfile.ZipFile(wheels["grader"]) as wheel:
        names = wheel.namelist()
        assert not [n for n in names if n.startswith("grader/checks/")], names
        for name in names:
            if name.endswith(".py"):
                assert not _holds_a_judge(wheel.read(name)), (
                    name,
                    _holds_a_judge(wheel.read(name)),
                )
        shipped = json.loads(wheel.read("grader/public_cases.json"))
    assert sorted(shipped) == sorted(EXERCISES)
    for exercise, items in shipped.items():
        assert items and all(item["case"]["public"] for item in items), exercise
        assert len(items) == len(check_module(exercise).public_cases())

"""The public checks, as the page's Check button runs them: runners plus precomputed verdicts.

The site's wheel holds `grader/runners/`, `grader/verdict.py`, this module and
`grader/public_cases.json`: the public cases of every exercise with what each expects,
written by the site build (`write_public_cases`) from the trusted checks. It holds no
hidden case, no case generator and no reference that answers an arbitrary input.

    from grader.public import run_public_checks
    run_public_checks("day05_add_mul.py", source)
    # -> [{"name": "...", "passed": True, "message": "passed"}, ...]

In a checkout (no JSON file beside this one) the same data is computed from
`grader.checks` on first use.
"""

import functools
import json
import types
from pathlib import Path

from grader.runners import describe_error, execute, runner_module
from grader.verdict import error_message, from_json, judge_outcome, to_json

__all__ = ["public_cases", "write_public_cases", "run_public_checks"]

CASES_FILE = Path(__file__).with_name("public_cases.json")


def public_cases(exercises=None):
    """{exercise: [{"case": case, "expect": expectation as JSON}, ...]} (default: all)."""
    from grader.checks import EXERCISES, check_module  # trusted: only in a checkout

    out = {}
    for exercise in exercises or EXERCISES:
        check = check_module(exercise)
        out[exercise] = [
            {"case": c, "expect": to_json(check.expect(c))} for c in check.public_cases()
        ]
    return out


def write_public_cases(path):
    """Write the public cases with their expectations (the site build calls this)."""
    Path(path).write_text(json.dumps(public_cases(), sort_keys=True), encoding="utf-8")
    return Path(path)


@functools.cache
def _shipped():
    return json.loads(CASES_FILE.read_text(encoding="utf-8"))


@functools.cache
def _items(exercise_id):
    """The public cases of one exercise with their expectations, as JSON data."""
    if CASES_FILE.is_file():
        shipped = _shipped()
        known = sorted(shipped)
    else:
        from grader.checks import EXERCISES

        shipped, known = {}, EXERCISES
        if exercise_id in EXERCISES:  # the same round trip as the file
            shipped = json.loads(json.dumps(public_cases([exercise_id])))
    if exercise_id not in shipped:
        raise ValueError(
            f"no exercise called {exercise_id!r}; the exercises are: {', '.join(known)}"
        )
    return shipped[exercise_id]


def run_public_checks(exercise_id, source):
    """Run the public cases of one exercise on `source` (the learner's file), in process.

    For the browser: the learner's own code in the learner's own tab. Graded
    submissions go through `python -m grader`, which runs every case in a sandbox.
    """
    items = _items(exercise_id)
    runner = runner_module(exercise_id)
    module = types.ModuleType(exercise_id[:-3])
    module.__file__ = exercise_id
    try:
        exec(compile(source, exercise_id, "exec"), module.__dict__)
    except (Exception, SystemExit) as exc:
        message = "your file did not run: " + error_message(
            describe_error(exc, exercise_id), exercise_id
        )
        return [
            {"name": item["case"]["name"], "passed": False, "message": message} for item in items
        ]
    results = []
    for item in items:
        case = item["case"]
        outcome = execute(runner, module, case, exercise_id)
        passed, message = judge_outcome(from_json(item["expect"]), outcome, exercise_id)
        results.append({"name": case["name"], "passed": passed, "message": message})
    return results

"""The public checks, as the page's Check button runs them: runners plus precomputed verdicts.

The site's wheel holds what `PUBLIC_GRADER` in hooks/site_build.py lists
(`grader/__init__.py`, `grader/runners/`, `grader/verdict.py`, `grader/messages.py`, this
module and `grader/notebook.py`), the compiled catalogs (`grader/locales/`, for the
messages in the page's language) and `grader/public_cases.json`: the public cases of every exercise
with what each expects, which the site build computes from the trusted checks when it
writes the wheel (hooks/site_build.py's `public_cases_json` calls
`grader.checks.published_cases`; no file of the repository holds them). It holds no
hidden case, no case generator and no reference that answers an arbitrary input, and
this module imports nothing of the trusted side: it runs where learners can read it.

    from grader.public import run_public_checks
    run_public_checks("day05_add_mul.py", source, lang="ru")
    # -> [{"name": "...", "passed": True, "message": "passed"}, ...], messages in Russian
"""

import contextlib
import functools
import json
import sys
import types
from pathlib import Path

from grader.messages import msg, render
from grader.runners import describe_error, execute, runner_module
from grader.verdict import error_message, from_json, judge_outcome

__all__ = ["CASES_FILE", "prepare", "run_public_checks", "file_error"]

# Every check's message when the learner's file itself does not run (a syntax error...).
FILE_DID_NOT_RUN = msg("your file did not run: {error}", error="")

CASES_FILE = Path(__file__).with_name("public_cases.json")


@functools.cache
def _shipped(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path} is missing: the public checks ship in the course site's grader wheel "
            "(build the site with `nox -s docs`); to grade a file here, use `python -m grader`"
        ) from None


def _items(exercise_id):
    """The public cases of one exercise with their expectations, as JSON data."""
    shipped = _shipped(str(CASES_FILE))
    if exercise_id not in shipped:
        raise ValueError(
            f"no exercise called {exercise_id!r}; the exercises are: {', '.join(sorted(shipped))}"
        )
    return shipped[exercise_id]


def prepare(exercise_id):
    """Load what the checks of one exercise need (the shipped cases, its runner), so that
    a run's time limit and the page's Stop count from the learner's code, not from this."""
    _items(exercise_id)
    runner_module(exercise_id)


def file_error(message, lang="en"):
    """Why the file did not run, if `message` (in `lang`) says that it did not, else None."""
    prefix = render(FILE_DID_NOT_RUN, lang)
    return message[len(prefix) :] if message.startswith(prefix) else None


def run_public_checks(exercise_id, source, lang="en"):
    """Run the public cases of one exercise on `source` (the learner's file), in process;
    the messages in `lang` ("en", "ru", "et").

    For the browser: the learner's own code in the learner's own tab. Graded
    submissions go through `python -m grader`, which runs every case in a sandbox.
    With "my engine" on for the cells (engine/mine.py), the checks still run on the course
    engine: the page's Check and a notebook's check cell grade what the grader grades.
    """
    mine = sys.modules.get("engine.mine")
    with mine.course_engine() if mine is not None else contextlib.nullcontext():
        return _run_public_checks(exercise_id, source, lang)


def _run_public_checks(exercise_id, source, lang):
    items = _items(exercise_id)
    runner = runner_module(exercise_id)
    module = types.ModuleType(exercise_id[:-3])
    module.__file__ = exercise_id
    try:
        exec(compile(source, exercise_id, "exec"), module.__dict__)
    except (Exception, SystemExit) as exc:
        error = error_message(describe_error(exc, exercise_id), exercise_id, lang)
        message = render(msg("your file did not run: {error}", error=error), lang)
        return [
            {"name": item["case"]["name"], "passed": False, "message": message} for item in items
        ]
    results = []
    for item in items:
        case = item["case"]
        outcome = execute(runner, module, case, exercise_id)
        passed, message = judge_outcome(from_json(item["expect"]), outcome, exercise_id, lang)
        results.append({"name": case["name"], "passed": passed, "message": message})
    return results

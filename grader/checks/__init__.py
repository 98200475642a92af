"""The trusted side of every exercise's checks: its cases and what each case expects.

This package never reaches learner code: it is not staged into the sandboxed child and
not shipped in the site's wheel (the page gets the public cases' expectations
precomputed, `grader/public.py`). The child side, which calls learner code and sends
back plain numbers, is `grader/runners/`; `grader/verdict.py` compares the two.

One module per exercise, named like the exercise file (see grader/README.md), with the
interface `Check` below; the modules present are the exercises (EXERCISES).
"""

import importlib
import json
import pkgutil
import re
from typing import Protocol

from grader.lessons import site_wording
from grader.runners import runner_module
from grader.verdict import Expectation, judge_outcome, to_json

__all__ = ["EXERCISES", "Check", "check_module", "runner_module", "judge_case", "published_cases"]

# One module per exercise, found rather than listed: grader/checks/dayNN_slug.py makes
# "dayNN_slug.py" an exercise, in day order. Found here, not read from the lessons: the
# grader also runs from a Gradescope zip that has no docs/ (tests/grader/test_exercises.py
# holds this equal to the course manifest's exercises, course.EXERCISES).
_EXERCISE_MODULE = re.compile(r"day[0-9]{2}_[a-z0-9_]+")
EXERCISES = tuple(
    sorted(
        f"{m.name}.py" for m in pkgutil.iter_modules(__path__) if _EXERCISE_MODULE.fullmatch(m.name)
    )
)


class Check(Protocol):
    """What the trusted side knows of one exercise (`grader/checks/dayNN_slug.py`).

    TITLE         "Day N: ..." as the report shows it (a message, grader/messages.py, or text)
    ENGINE        {engine module: names hidden from it}, the part of the engine the
                  child gets (grader/engine_view.py); {} for none

    Derived by `check_module` from the module's name and ENGINE, the same for every day
    (a check module does not write them):

    EXERCISE      the exercise file's name, "dayNN_slug.py"
    LESSON        the lesson's path in the repository, "docs/lessons/dayNN_slug.md"
                  (grader/lessons.py names it for learners as the site does)
    NEEDS_ENGINE  whether the child gets a part of `engine/`: bool(ENGINE)
    ENGINE_BY_KIND  {case kind: another ENGINE} for the kinds that need less ({} if none)
    HIDDEN_SPACE  how wide each hidden case's inputs are, for grader/README.md's table

    `public_cases()` and `hidden_cases(rng)` make the cases (hidden ones drawn afresh
    from `rng` on every grading run); `expect(case)` says what a right answer gives,
    from the case alone (mathematics, never `solutions/`), as an `Expectation`.
    """

    EXERCISE: str
    TITLE: object  # Message or str
    LESSON: str
    NEEDS_ENGINE: bool
    ENGINE: dict
    ENGINE_BY_KIND: dict
    HIDDEN_SPACE: str

    def public_cases(self) -> list: ...

    def hidden_cases(self, rng) -> list: ...

    def expect(self, case) -> Expectation: ...


def check_module(exercise_id) -> Check:
    """The checks of `exercise_id` ("day05_add_mul.py"); ValueError names the known ones."""
    if exercise_id not in EXERCISES:
        known = ", ".join(EXERCISES)
        raise ValueError(f"no exercise called {exercise_id!r}; the exercises are: {known}")
    module = importlib.import_module(f"{__name__}.{exercise_id[:-3]}")
    derive(module, exercise_id)
    return module


DERIVED = ("EXERCISE", "LESSON", "NEEDS_ENGINE")


def derive(module, exercise_id):
    """Set what every check module would write the same way (Check's DERIVED names)."""
    module.EXERCISE = exercise_id
    module.LESSON = f"docs/lessons/{exercise_id[:-3]}.md"
    module.NEEDS_ENGINE = bool(module.ENGINE)


def judge_case(check, case, outcome, filename, lang="en"):
    """(passed, message in `lang`) for what came back from running `case`: numbers or an error.

    The message names a lesson as the course site does, never by its path in the
    repository (grader/lessons.py): the stubs' "Read docs/lessons/...md" included.
    """
    passed, message = judge_outcome(check.expect(case), outcome, filename, lang)
    return passed, site_wording(message, lang)


def published_cases(exercises=None):
    """{exercise: [{"case": case, "expect": expectation as JSON}, ...]}: the public cases
    with their answers, as the site build ships them for the page (grader/public.py)."""
    out = {}
    for exercise in exercises or EXERCISES:
        check = check_module(exercise)
        out[exercise] = [
            {"case": c, "expect": to_json(check.expect(c))} for c in check.public_cases()
        ]
    return json.loads(json.dumps(out))  # exactly what the shipped file gives back

"""Run every case of an exercise on a planted-bug copy of its reference, in process.

The mutation tests (here, and for the language-model days in tests/gpt) use it: the
mutant is the course's own reference with one line changed, so no sandbox is needed.
"""

import random
import types
from pathlib import Path

from grader.checks import check_module, judge_case, runner_module
from grader.runners import execute

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def run_all(exercise, source, seeds=(0, 1)):
    """[(passed, message), ...] for the public cases and the hidden ones of each seed."""
    check = check_module(exercise)
    module = types.ModuleType(exercise[:-3])
    exec(compile(source, exercise, "exec"), module.__dict__)
    results = []
    for seed in seeds:
        for case in check.public_cases() + check.hidden_cases(random.Random(seed)):
            outcome = execute(runner_module(exercise), module, case, exercise)
            results.append(judge_case(check, case, outcome, exercise))
    return results


def mutant_failures(exercise, old, new):
    """The failure messages for the reference with its first `old` replaced by `new`."""
    source = (SOLUTIONS / exercise).read_text()
    assert old in source, f"the mutation {old!r} no longer applies to solutions/{exercise}"
    return [
        message for passed, message in run_all(exercise, source.replace(old, new, 1)) if not passed
    ]


def reference_failures(exercise):
    """The failure messages for the unchanged reference (none, when the checks are right)."""
    source = (SOLUTIONS / exercise).read_text()
    return [message for passed, message in run_all(exercise, source) if not passed]

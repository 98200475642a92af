"""Run every case of an exercise on a planted-bug copy of its reference, in process.

The mutation tests (here, and for the language-model days in tests/gpt) use it: the
mutant is the course's own reference with one line changed, so no sandbox is needed.
"""

import random
import types

from grader.checks import check_module, judge_outcome
from grader.checks._kit import execute


def run_all(exercise, source, seeds=(0, 1)):
    """[(passed, message), ...] for the public cases and the hidden ones of each seed."""
    check = check_module(exercise)
    module = types.ModuleType(exercise[:-3])
    exec(compile(source, exercise, "exec"), module.__dict__)
    results = []
    for seed in seeds:
        for case in check.public_cases() + check.hidden_cases(random.Random(seed)):
            outcome = execute(check, module, case, exercise)
            results.append(judge_outcome(check, case, outcome, exercise))
    return results

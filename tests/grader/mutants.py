"""Run every case of an exercise on a planted-bug copy of its reference, in process.

The mutation tests (here, and for the language-model days in tests/gpt) use it: the
mutant is the course's own reference with one line changed, so no sandbox is needed.
"""

import functools
import random
import types
from pathlib import Path

from grader.checks import check_module, judge_case, runner_module
from grader.runners import execute

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
SEEDS = (0, 1, 2)  # the hidden cases of each must catch every planted bug on their own


def load_source(exercise, source):
    """`source` as the module `exercise` names, run in process (our own files only)."""
    module = types.ModuleType(exercise[:-3])
    exec(compile(source, exercise, "exec"), module.__dict__)
    return module


def judge_cases(exercise, module, cases):
    """[(passed, message), ...] for `cases` run on `module`."""
    check, runner = check_module(exercise), runner_module(exercise)
    return [
        judge_case(check, case, execute(runner, module, case, exercise), exercise) for case in cases
    ]


def run_all(exercise, source, seeds=(0, 1)):
    """[(passed, message), ...] for the public cases and the hidden ones of each seed."""
    check, module = check_module(exercise), load_source(exercise, source)
    results = []
    for seed in seeds:
        cases = check.public_cases() + check.hidden_cases(random.Random(seed))
        results += judge_cases(exercise, module, cases)
    return results


def mutant_source(exercise, old, new):
    """The reference with its first `old` replaced by `new`."""
    source = (SOLUTIONS / exercise).read_text()
    assert old in source, f"the mutation {old!r} no longer applies to solutions/{exercise}"
    return source.replace(old, new, 1)


@functools.cache
def _mutant_failures(exercise, old, new):
    results = run_all(exercise, mutant_source(exercise, old, new))
    return tuple(message for passed, message in results if not passed)


def mutant_failures(exercise, old, new):
    """The failure messages for the reference with its first `old` replaced by `new`
    (run once per session: the mutation tests and the premise tests read the same)."""
    return list(_mutant_failures(exercise, old, new))


def hidden_failures(exercise, source, seed):
    """The failure messages of the hidden cases of `seed` alone: what the grade counts."""
    cases = check_module(exercise).hidden_cases(random.Random(seed))
    results = judge_cases(exercise, load_source(exercise, source), cases)
    return [message for passed, message in results if not passed]


def reference_failures(exercise, seeds=(0, 1)):
    """The failure messages for the unchanged reference (none, when the checks are right)."""
    source = (SOLUTIONS / exercise).read_text()
    return [message for passed, message in run_all(exercise, source, seeds) if not passed]

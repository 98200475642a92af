"""The hidden cases carry the grade, so each exercise's hidden cases must be drawn from
input spaces no table of recorded outputs covers, and must cover what its public ones do.

For every exercise: 300 seeds never draw the same inputs twice for one hidden case nor
a public case's inputs; every kind of public case has a hidden one; there are at least
three hidden cases, with names of their own; the reference passes them; and a file that
writes over the child-side helpers (tests/grader/attacks/) gains nothing from it.
"""

import json
import random
import sys
from pathlib import Path

import pytest

from grader.checks import EXERCISES, check_module

from .mutants import SEEDS, judge_cases, load_source, reference_failures

ROOT = Path(__file__).resolve().parents[2]
DRAWS = 300
MIN_HIDDEN = 3


def _inputs(case):
    return json.dumps(case["inputs"], sort_keys=True)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_hidden_cases_never_repeat_nor_copy_a_public_case(exercise):
    check = check_module(exercise)
    public = {_inputs(c) for c in check.public_cases()}
    seen = {}
    for seed in range(DRAWS):
        cases = check.hidden_cases(random.Random(seed))
        names = [c["name"] for c in cases]
        assert len(set(names)) == len(names), f"seed {seed}: two hidden cases share a name"
        for case in cases:
            assert case["public"] is False, case["name"]
            drawn = _inputs(case)
            assert drawn not in public, f"seed {seed}: {case['name']!r} is a public case"
            earlier = seen.setdefault(case["name"], {}).setdefault(drawn, seed)
            assert earlier == seed, f"{case['name']!r}: seeds {earlier} and {seed} drew the same"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_hidden_cases_cover_every_kind_of_public_case(exercise):
    check = check_module(exercise)
    hidden = check.hidden_cases(random.Random(0))
    assert len(hidden) >= MIN_HIDDEN, f"{len(hidden)} hidden cases"
    kinds = {c["kind"] for c in hidden}
    assert {c["kind"] for c in check.public_cases()} <= kinds, "a kind of case is only public"
    assert isinstance(check.HIDDEN_SPACE, str) and check.HIDDEN_SPACE.strip()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_reference_passes_the_hidden_cases(exercise):
    assert not reference_failures(exercise, SEEDS), exercise


# -- a file that writes over the child side's helpers ---------------------------------------

ATTACKED = ("day06_backward.py", "day29_making_it_fast.py")


@pytest.fixture
def restored_runners():
    """Put back every `runners` module's names after the attack wrote over them."""
    modules = {n: m for n, m in sys.modules.items() if n.startswith("grader.runners")}
    saved = {n: dict(vars(m)) for n, m in modules.items()}
    yield
    for name, module in modules.items():
        vars(module).clear()
        vars(module).update(saved[name])


@pytest.mark.parametrize("exercise", ATTACKED)
def test_overwriting_the_runners_helpers_gains_nothing(exercise, restored_runners):
    # The untouched stub, a one-line order (just the output) and every helper it can
    # reach in the runners package replaced by one calling that order perfect.
    attack = (ROOT / "tests" / "grader" / "attacks" / "patch_runners.py").read_text()
    source = (ROOT / "exercises" / exercise).read_text() + "\n" + attack
    module = load_source(exercise, source)
    check = check_module(exercise)
    for seed in SEEDS:
        cases = check.public_cases() + check.hidden_cases(random.Random(seed))
        results = judge_cases(exercise, module, cases)
        assert not [message for passed, message in results if passed], seed


# -- the order, judged on the trusted side ---------------------------------------------------


def _order_message(program, order):
    from grader.checks.programs import expect_order
    from grader.runners.lists import pack_positions
    from grader.verdict import verdict

    values = {k: float(v) for k, v in pack_positions("order", order, 10**6).items()}
    return verdict(expect_order(program, "the graph"), values)


@pytest.mark.parametrize(
    "order, phrase",
    [
        ([0, 1, 4, 2, 3], None),  # a, b, a * b, 0.5, (a * b) + 0.5
        ([1, 0, 2, 4, 3], None),  # another valid order
        ([3], "only the output"),
        ([0, 2, 4, 3], "missing"),
        ([0, 1, 2, 4, -1, 3], "does not depend on"),
        ([0, 1, 2, 2, 4, 3], "listed once"),
        ([0, 2, 1, 4, 3], "before one of their children"),
        ([0, 1, 2, 3, 4], "before one of their children"),
        ([0, 1, 4, 3, 2], "before one of their children"),
    ],
)
def test_the_trusted_side_judges_an_order(order, phrase):
    # a * b + 0.5: nodes a, b, a * b, the + and (4) the Value the + made of 0.5
    program = {"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1], ["+c", 2, 0.5]]}
    passed, message = _order_message(program, order)
    assert passed == (phrase is None), message
    assert phrase is None or phrase in message, message


def test_the_readme_table_says_what_the_checks_draw():
    readme = (ROOT / "grader" / "README.md").read_text()
    public = hidden = 0
    for exercise in EXERCISES:
        check = check_module(exercise)
        cases = check.hidden_cases(random.Random(0))
        public, hidden = public + len(check.public_cases()), hidden + len(cases)
        row = f"| `{exercise[:-3]}` | {len(cases)} | {check.HIDDEN_SPACE} |"
        assert row in readme, row
    assert f"{public} public and {hidden} hidden cases in all ({public + hidden})" in readme


@pytest.mark.parametrize("exercise", ["day10_neuron.py", "day12_loss.py", "day23_multi_head.py"])
def test_claiming_to_have_raised_earns_no_hidden_mark(exercise, restored_runners):
    # A refusal is only the child's word: the hidden refusal case also checks a valid call
    # made in the same child (grader/runners/refusal.py), which this file cannot answer.
    attack = (ROOT / "tests" / "grader" / "attacks" / "claim_refusal.py").read_text()
    module = load_source(exercise, (ROOT / "exercises" / exercise).read_text() + "\n" + attack)
    check = check_module(exercise)
    for seed in SEEDS:
        hidden = check.hidden_cases(random.Random(seed))
        assert not [m for passed, m in judge_cases(exercise, module, hidden) if passed], seed
    # The control: on the public cases, which ask for the refusal alone, the claim passes.
    public = judge_cases(exercise, module, check.public_cases())
    assert any(passed for passed, _ in public)


# Answers that need none of the exercise: the answer of a degenerate case (one position,
# a step that leaves everything alone, sensitivities too small to tell from 0).
TRIVIAL = sorted((ROOT / "tests" / "grader" / "attacks" / "trivial").glob("day*.py"))


@pytest.mark.parametrize("path", TRIVIAL, ids=[p.stem for p in TRIVIAL])
def test_a_file_that_does_none_of_the_exercise_earns_no_hidden_mark(path):
    exercise = path.name
    module = load_source(exercise, path.read_text())
    check = check_module(exercise)
    for seed in range(200):
        hidden = check.hidden_cases(random.Random(seed))
        assert not [m for passed, m in judge_cases(exercise, module, hidden) if passed], seed

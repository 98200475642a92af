"""Day 18: the likelihood of `ava`, the reference losses, and the dataset scores the page states.

Probabilities are recomputed here with exact fractions and plain counting of the names file.
"""

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from engine import Value

from .pages import ROOT, assert_states, lesson

PAGE = lesson("day18_likelihood")
NAMES = (ROOT / "engine" / "data" / "names.txt").read_text(encoding="utf-8").split()
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def pairs(name):
    seq = "." + name + "."
    return list(zip(seq, seq[1:]))


def counts(names):
    c = Counter()
    for n in names:
        c.update(pairs(n))
    return c


def nll(names, c, alpha):
    totals = Counter()
    for (a, _), n in c.items():
        totals[a] += n
    loss, m = 0.0, 0
    for name in names:
        for a, b in pairs(name):
            p = (c[(a, b)] + alpha) / (totals[a] + 27 * alpha)
            loss -= math.log(p) if p > 0 else -math.inf
            m += 1
    return loss / m


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_uniform_reference():
    assert_states(PAGE, math.log(27), "3.2958")
    assert_states(PAGE, math.log(27), "3.295837")


def test_ava_worked_example():
    c = counts(["emma", "ava", "anna"])
    totals = Counter()
    for (a, _), n in c.items():
        totals[a] += n
    probs = [Fraction(c[p], totals[p[0]]) for p in pairs("ava")]
    assert probs == [Fraction(2, 3), Fraction(1, 5), 1, Fraction(3, 5)]
    likelihood = math.prod(probs)
    assert likelihood == Fraction(2, 25) and "= 0.08$" in PAGE.text
    for p, shown in zip(probs, ("0.405465", "1.609438", None, "0.510826")):
        if shown:
            assert_states(PAGE, -math.log(p), shown)
    assert_states(PAGE, math.log(likelihood), "-2.525729")
    assert_states(PAGE, -math.log(likelihood) / 4, "0.631432")
    assert "2.525729 / 4 = 0.631432" in PAGE.text


def test_slope_of_minus_log():
    for p, shown in ((0.2, "-5"), (0.6, "-1.666667")):
        v = Value(p)
        (-v.log()).backward()
        assert_states(PAGE, v.grad, shown)


def test_cell_values(namespace):
    ps = namespace["ps"]
    assert [p.grad for p in ps] == pytest.approx([-1 / (4 * p.data) for p in ps])


def test_underflow_and_dataset_scores(namespace):
    c = counts(NAMES)
    all_pairs = [p for n in NAMES for p in pairs(n)]
    assert_states(PAGE, len(all_pairs), "36,122")
    assert 100 < namespace["step"] < 1000  # "a few hundred"
    score = nll(NAMES, c, 0)
    assert_states(PAGE, score, "2.3346")
    assert_states(PAGE, math.exp(score), "10.32")
    assert_states(PAGE, len(NAMES), "5,163")


def test_held_out_numbers():
    shuffled = list(NAMES)
    random.Random(0).shuffle(shuffled)  # the split engine.data.split_names documents
    cut = round(len(shuffled) * 0.9)
    train, test = shuffled[:cut], shuffled[cut:]
    c = counts(train)
    unseen = sorted(n for n in test if any(c[p] == 0 for p in pairs(n)))
    assert unseen == ["avril", "roxy"]
    # The pair of each that the training part never saw, as the page names them.
    new = [next(p for p in pairs(n) if c[p] == 0) for n in unseen]
    assert "`avril` and `roxy`" in PAGE.text
    assert f"`{new[0][1]}` after `{new[0][0]}`, and `{new[1][1]}` after `{new[1][0]}`" in PAGE.text
    assert nll(test, c, 0) == math.inf
    assert_states(PAGE, nll(test, c, 1), "2.3474")
    assert nll(train, c, 1) < nll(test, c, 1)  # "a little above the training NLL"


def test_cells_agree(namespace):
    assert namespace["unseen"] == ["avril", "roxy"]
    smooth, test = namespace["smooth"], namespace["test"]
    assert namespace["nll"](smooth, test) == pytest.approx(2.3474, abs=5e-5)

"""Day 12: the three losses of the worked example, their gradients, and the cells' claims."""

import math

from .pages import assert_states, lesson

PAGE = lesson("day12_loss")
SCORES = (0.8, -0.2, 0.5)
LABELS = (1.0, -1.0, 1.0)
N = 3


def sigmoid(t):
    return 1.0 / (1.0 + math.exp(-t))


def test_squared():
    terms = [(s - y) ** 2 for s, y in zip(SCORES, LABELS)]
    for t, shown in zip(terms, ("0.04", "0.64", "0.25")):
        assert_states(PAGE, t, shown)
    assert_states(PAGE, sum(terms), "0.93")
    assert_states(PAGE, sum(terms) / N, "0.31")
    for s, y, shown in zip(SCORES, LABELS, ("-0.133333", "0.533333", "-0.333333")):
        assert_states(PAGE, 2 * (s - y) / N, shown)


def test_hinge():
    terms = [max(0.0, 1 - y * s) for s, y in zip(SCORES, LABELS)]
    assert [round(t, 12) for t in terms] == [0.2, 0.8, 0.5]
    assert_states(PAGE, sum(terms) / N, "0.5")
    for s, y in zip(SCORES, LABELS):
        assert_states(PAGE, -y / N if y * s < 1 else 0.0, f"{-y / N:.6f}")


def test_logistic():
    terms = [math.log1p(math.exp(-y * s)) for s, y in zip(SCORES, LABELS)]
    for t, shown in zip(terms, ("0.371101", "0.598139", "0.474077")):
        assert_states(PAGE, t, shown)
    assert_states(PAGE, sum(terms) / N, "0.481106")
    for s, y, shown in zip(SCORES, LABELS, ("-0.103342", "0.150055", "-0.125847")):
        assert_states(PAGE, -y * sigmoid(-y * s) / N, shown)


def test_cells_compute_the_table():
    ns = PAGE.run_cells()
    assert ns["nonzero"] < len(ns["model"].parameters()) == 41
    assert ns["nonzero"] > 0


def test_try_this_claims():
    # A very right score: squared loss fines it 4, hinge 0, logistic less than at 0.8.
    assert (3.0 - 1.0) ** 2 == 4
    assert max(0.0, 1 - 3.0) == 0.0
    assert math.log1p(math.exp(-3.0)) < math.log1p(math.exp(-0.8))
    assert "$(3 - 1)^2 = 4$" in PAGE.text

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


def test_the_tip_on_zero_gradients():
    # The tip: with the logistic loss one more gradient is not zero, the output bias, because
    # every margin is below 1 and the hinge's -y/4 cancel over the labels (1, -1, -1, 1).
    import random

    from engine.nn import MLP

    cell = next(c for c in PAGE.cells if "random.seed(12)" in c)
    ns = PAGE.run_cells()
    nonzero = {}
    for name in ("hinge", "logistic"):
        random.seed(12)
        model = MLP(3, [4, 4, 1])
        loss = ns["mean"](ns[name](model(x), y) for x, y in zip(ns["xs"], ns["ys"]))
        model.zero_grad()
        loss.backward()
        assert all(model(x).data * y < 1 for x, y in zip(ns["xs"], ns["ys"]))
        nonzero[name] = [p.grad != 0.0 for p in model.parameters()]
    differ = [i for i, (h, lg) in enumerate(zip(nonzero["hinge"], nonzero["logistic"])) if h != lg]
    assert differ == [40] and model.parameters()[40] is model.layers[-1].neurons[0].b
    assert nonzero["logistic"][40] and sum(nonzero["logistic"]) == sum(nonzero["hinge"]) + 1
    assert sum(-y / 4 for y in ns["ys"]) == 0.0
    assert "random.seed(12)\nmodel = MLP(3, [4, 4, 1])" in cell
    assert "$(-1 + 1 + 1 - 1)/4 = 0$" in PAGE.text

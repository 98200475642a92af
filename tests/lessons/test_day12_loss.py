"""Day 12: the three losses of the worked example, their gradients, and the cells' claims."""

import math

import pytest

from explorer import explore

from .explorer_embed import block_html, explorer_blocks
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


# -- the explorer: one example's squared loss ---------------------------------------------


def _squared(s, y):
    """Loss, grad of s and grad of y of (s - y)**2, from the math: d/ds = 2(s - y) = -d/dy."""
    return (s - y) ** 2, 2 * (s - y), -2 * (s - y)


def test_the_explorer_starts_at_the_first_example():
    assert explorer_blocks(PAGE) == [("(s - y) ** 2", {"s": 0.8, "y": 1})]
    assert 'data-expression="(s - y) ** 2"' in block_html(PAGE)
    assert (SCORES[0], LABELS[0]) == (0.8, 1.0)
    text = " ".join(PAGE.text.split())
    assert "at the worked example's first example, $s = 0.8$ and $y = 1$" in text


def test_the_explorer_paragraph_states_the_squared_losss_gradients():
    loss, ds, _ = _squared(0.8, 1.0)
    assert_states(PAGE, ds, "-0.4")
    assert ds == pytest.approx(3 * -0.133333, abs=1e-5)  # three times the table's
    assert _squared(1.0, 1.0) == (0.0, 0.0, -0.0)
    assert _squared(3.0, 1.0)[:2] == (4.0, 4.0)
    text = " ".join(PAGE.text.split())
    assert "`s` gets $2(s - y) = -0.4$: negative, so descent raises $s$ towards $y$" in text
    assert "That is three times the table's $-0.133333$" in text and "$N = 3$ examples" in text
    assert "The loss is 0 at $s = y = 1$" in text
    assert "at $s = 3$ the loss is 4 and the grad is 4" in text
    # The engine, through the explorer, agrees with the math at every point the text names.
    for s in (0.8, 1.0, 3.0):
        result = explore("(s - y) ** 2", {"s": s, "y": 1})
        nodes = {n["label"]: n for n in result["trace"]["nodes"]}
        loss, ds, dy = _squared(s, 1.0)
        assert nodes["(s-y)**2"]["data"] == pytest.approx(loss, abs=1e-12)
        assert (nodes["s"]["grad"], nodes["y"]["grad"]) == pytest.approx((ds, dy), abs=1e-12)

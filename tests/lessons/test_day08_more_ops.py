"""Day 8: the four new primitives, division and subtraction for free, the dead ReLU."""

import math

import pytest

from course import TOTAL_DAYS
from engine import Value
from engine.gradcheck import numerical_grad
from explorer import explore

from .explorer_embed import block_html, explorer_blocks
from .pages import assert_states, lesson

PAGE = lesson("day08_more_ops")


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 8 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_local_derivative_table_from_closed_forms():
    # Closed forms, computed here without the engine.
    assert 3.0**2 == 9 and 2 * 3.0 == 6
    assert "$x = 3$, $k = 2$: output 9, ratio 6" in PAGE.text
    assert_states(PAGE, math.e, "2.718282")
    t = math.tanh(0.5)
    assert_states(PAGE, t, "0.462117")
    assert_states(PAGE, 1 - t * t, "0.786448")
    assert "$x = 2$: ratio 1; $x = -1$: ratio 0" in PAGE.text


def test_cells_match_closed_forms(cells):
    assert cells["g_pow"] == 6.0
    assert cells["g_exp"] == pytest.approx(math.e, rel=1e-15)
    assert cells["g_tanh"] == pytest.approx(1 - math.tanh(0.5) ** 2, rel=1e-15)
    assert (cells["g_relu_on"], cells["g_relu_off"]) == (1.0, 0.0)


def test_division_worked_example(cells):
    assert 6.0 / 3.0 == 2.0
    assert_states(PAGE, 1 / 3, "0.333333")
    assert_states(PAGE, -6 / 9, "-0.666667")
    assert numerical_grad(lambda v: v[0] / v[1], [6.0, 3.0]) == pytest.approx(
        [1 / 3, -6 / 9], abs=1e-6
    )
    a, b, q = cells["a"], cells["b"], cells["q"]
    assert q.data == 2.0
    assert a.grad == pytest.approx(1 / 3) and b.grad == pytest.approx(-2 / 3)
    ops = [v._op for v in q.topological_order()]
    assert "/" not in ops and "*" in ops and "**-1" in ops


def test_subtraction_worked_example(cells):
    assert (cells["diff"].data, cells["a2"].grad, cells["b2"].grad) == (3.0, 1.0, -1.0)
    assert "$a - b = 3$, with gradients 1 and −1" in PAGE.text
    assert "-" not in [v._op for v in cells["diff"].topological_order()]


def test_dead_relu(cells):
    assert (cells["w"].grad, cells["bias"].grad) == (0.0, 0.0)
    assert cells["total"].data == 0.0


def test_try_this_claims():
    a = Value(3.0)
    one = a * a**-1
    one.backward()
    assert one.data == pytest.approx(1.0) and a.grad == pytest.approx(0.0, abs=1e-12)
    w, bias = Value(1.0), Value(-1.5)
    total = sum((w * x + bias).relu() for x in (0.0, 1.0, 2.0, 3.0))
    total.backward()
    assert (w.grad, bias.grad) == (5.0, 2.0)  # two live inputs, 2 and 3
    # tanh saturates: the local derivative at 3 and 5 is small.
    assert 1 - math.tanh(3.0) ** 2 < 0.01 and 1 - math.tanh(5.0) ** 2 < 2e-4


def test_kink_trap_numbers():
    h = 1e-6
    assert (max(h, 0) - max(-h, 0)) / (2 * h) == pytest.approx(0.5)
    assert "reports 0.5" in PAGE.text


# -- the explorer: the dead neuron for one input ------------------------------------------


def _grads(result):
    return {n["label"]: n["grad"] for n in result["trace"]["nodes"]}


def test_the_explorer_starts_at_the_dead_neurons_values(cells):
    assert explorer_blocks(PAGE) == [("relu(w*x + b)", {"w": 1, "x": 3, "b": -5})]
    assert 'data-expression="relu(w*x + b)"' in block_html(PAGE)
    # The cell's w = 1 and bias = -5, with its largest input: w x + b = 3 - 5 = -2.
    assert 1 * 3 - 5 == -2
    text = " ".join(PAGE.text.split())
    assert (
        "at the cell's `w = 1` and `bias = -5` (called `b` here), with its largest input, $x = 3$"
        in text
    )
    assert "the ReLU's input is $w x + b = -2$" in text
    assert (cells["w"].data, cells["bias"].data, max(cells["inputs"])) == (1.0, -5.0, 3.0)


def test_the_explorer_shows_where_the_grads_come_back():
    start = explore("relu(w*x + b)", {"w": 1, "x": 3, "b": -5})
    assert start["ok"]
    nodes = {n["label"]: n for n in start["trace"]["nodes"]}
    assert (nodes["w*x+b"]["data"], nodes["relu(w*x+b)"]["data"]) == (-2.0, 0.0)
    assert {k: _grads(start)[k] for k in "wxb"} == {"w": 0.0, "x": 0.0, "b": 0.0}
    # b = -3: the ReLU's input is exactly 0, where its slope is taken as 0.
    kink = _grads(explore("relu(w*x + b)", {"w": 1, "x": 3, "b": -3}))
    assert {k: kink[k] for k in "wxb"} == {"w": 0.0, "x": 0.0, "b": 0.0}
    # One slider step past it, b = -2.9: w gets its input 3, x its weight 1, b the slope 1.
    alive = _grads(explore("relu(w*x + b)", {"w": 1, "x": 3, "b": -2.9}))
    assert {k: alive[k] for k in "wxb"} == {"w": 3.0, "x": 1.0, "b": 1.0}
    text = " ".join(PAGE.text.split())
    assert "which of `w`, `x` and `b` will get a grad of 0?" in text
    assert "All three get 0: the ReLU passes back 0" in text
    assert "only once $w x + b > 0$, here for $b > -3$; at $b = -3$ exactly" in text

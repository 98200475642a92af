"""Day 4: the hand backward pass of L = (a*b + c)*f and the step that gives -7.286496."""

from fractions import Fraction

import pytest

from course import TOTAL_DAYS
from engine import Value
from engine.gradcheck import numerical_grad

from .pages import assert_states, lesson

PAGE = lesson("day04_manual_backward")
POINT = (2.0, -3.0, 10.0, -2.0)


def L_of(a, b, c, f):
    return (a * b + c) * f


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 4 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_gradients_from_the_engine_and_from_nudging():
    a, b, c, f = (Value(x) for x in POINT)
    e = a * b
    d = e + c
    L = d * f
    L.backward()
    assert L.data == -8.0
    assert (a.grad, b.grad, c.grad, f.grad, e.grad, d.grad) == (6.0, -4.0, -2.0, 4.0, -2.0, -2.0)
    numeric = numerical_grad(lambda v: (v[0] * v[1] + v[2]) * v[3], list(POINT))
    assert numeric == pytest.approx([6.0, -4.0, -2.0, 4.0], abs=1e-6)
    assert "**a: 6, b: −4, c: −2, f: 4**" in PAGE.text
    for row in (
        "$\\frac{\\partial L}{\\partial d} = -2$",
        "$\\frac{\\partial L}{\\partial f} = 4$",
        "$\\frac{\\partial L}{\\partial e} = -2$",
        "$\\frac{\\partial L}{\\partial c} = -2$",
        "$\\frac{\\partial L}{\\partial a} = 6$",
        "$\\frac{\\partial L}{\\partial b} = -4$",
    ):
        assert row in PAGE.text


def test_one_step_gives_the_seed_number():
    # Exact arithmetic: the page's digits are the true ones, not a rounding accident.
    a, b, c, f = (Fraction(x).limit_denominator() for x in POINT)
    grads = (6, -4, -2, 4)
    step = Fraction(1, 100)
    a, b, c, f = (x + step * g for x, g in zip((a, b, c, f), grads))
    assert (a, b, c, f) == (
        Fraction("2.06"),
        Fraction("-3.04"),
        Fraction("9.98"),
        Fraction("-1.96"),
    )
    for text, value in (("2.06", a), ("−3.04", b), ("9.98", c), ("−1.96", f)):
        assert_states(PAGE, float(value), text)
    e = a * b
    d = e + c
    L = d * f
    assert (e, d, L) == (Fraction("-6.2624"), Fraction("3.7176"), Fraction("-7.286496"))
    assert_states(PAGE, float(e), "-6.2624")
    assert_states(PAGE, float(d), "3.7176")
    assert_states(PAGE, float(L), "-7.286496")
    # The same with the engine, as the lesson's cell does it.
    leaves = [Value(x) for x in POINT]
    out = L_of(*leaves)
    out.backward()
    for x in leaves:
        x.data += 0.01 * x.grad
    assert round(L_of(*leaves).data, 6) == -7.286496


def test_first_order_prediction():
    predicted = -8 + Fraction(1, 100) * (6**2 + 4**2 + 2**2 + 4**2)
    assert predicted == Fraction("-7.28")
    assert_states(PAGE, 0.72, "0.72")
    assert_states(PAGE, float(predicted), "-7.28")
    assert "(6^2 + 4^2 + 2^2 + 4^2) = 0.01 \\cdot 72 = 0.72" in PAGE.text


def test_cells_fill_in_the_same_gradients(cells):
    grads = {name: cells[name].grad for name in "abcfed"}
    assert grads == {"a": 6.0, "b": -4.0, "c": -2.0, "f": 4.0, "e": -2.0, "d": -2.0}
    assert round(cells["L_after"].data, 6) == -7.286496
    assert cells["predicted"] == pytest.approx(-7.28)


def test_try_this_changed_c_only_moves_dL_df():
    a, b, c, f = Value(2.0), Value(-3.0), Value(4.0), Value(-2.0)
    d = a * b + c
    L = d * f
    L.backward()
    assert (d.data, L.data) == (-2.0, 4.0)
    assert (a.grad, b.grad, c.grad, f.grad) == (6.0, -4.0, -2.0, -2.0)


def test_swapped_product_trap():
    # Giving a its own value instead of b's: -2 * a = -4, as the trap says.
    assert -2 * 2 == -4
    assert "$\\partial L/\\partial a = -4$" in PAGE.text


def test_prediction_follows_the_try_this_with_c_4():
    # The page's Try this: c = 4.0 in the first cell, then every cell again. The prediction is
    # computed from the leaves, so it stays right: 4 + 0.01 * (36 + 16 + 4 + 4) = 4.6.
    first = PAGE.cells[0]
    assert 'c = Value(10.0, label="c")' in first
    ns = {"__name__": "__lesson__"}
    for source in [first.replace("Value(10.0", "Value(4.0"), *PAGE.cells[1:]]:
        exec(source, ns)
    assert ns["L_before"].data == 4.0
    assert {x: ns[x].grad for x in "abcf"} == {"a": 6.0, "b": -4.0, "c": -2.0, "f": -2.0}
    assert ns["predicted"] == pytest.approx(4.6)
    assert round(ns["L_after"].data, 6) == 4.610448  # close to the prediction, not exact
    assert "-8.0 +" not in PAGE.text  # nothing hard-codes the old L

"""Day 5: the distributor and the swapper on (a + b)*c with a + b = -1, c = 10."""

from fractions import Fraction

import pytest

from course import TOTAL_DAYS
from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day05_add_mul")


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 5 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_worked_example_product_then_sum():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    s = a + b
    L = s * c
    L.backward()
    assert (s.data, L.data) == (-1.0, -10.0)
    assert (s.grad, c.grad, a.grad, b.grad) == (10.0, -1.0, 10.0, 10.0)
    # The seed's sentence, as the page writes it.
    assert "sends $1 \\times c = 10$ to $(a + b)$" in PAGE.text
    assert "$1 \\times (a + b) = -1$ to $c$" in PAGE.text
    assert (
        "$\\frac{\\partial L}{\\partial a} = 10$, $\\frac{\\partial L}{\\partial b} = 10$"
        in PAGE.text
    )
    assert "$a + b = -1$, and $L = (a + b) \\cdot c = -10$" in PAGE.text


def test_nudge_check():
    a, b, c = Fraction("2.001"), Fraction(-3), Fraction(10)
    L = (a + b) * c
    assert_states(PAGE, float(a + b), "-0.999")
    assert_states(PAGE, float(L), "-9.99")
    assert (L - (-10)) / Fraction("0.001") == 10


def test_cells_send_the_same_gradients(cells):
    assert cells["s"]._local_grads == (1.0, 1.0)
    assert cells["L"]._local_grads == (10.0, -1.0)
    assert (cells["a"].grad, cells["b"].grad, cells["c"].grad, cells["s"].grad) == (
        10.0,
        10.0,
        -1.0,
        10.0,
    )
    assert (cells["u"].grad, cells["v"].grad) == (2.5, 2.5)


def test_try_this_reuse_needs_plus_equals(cells):
    Tiny = cells["Tiny"]
    u = Tiny(2.0)
    w = u + u
    w.grad = 1.0
    w._backward()
    assert u.grad == 2.0


def test_swapped_trap_number():
    # self.data instead of other.data sends (a + b) * 1 = -1 to (a + b), not 10.
    assert (2.0 + -3.0) * 1.0 == -1.0
    assert "send $(a + b) \\cdot 1 = -1$ to $(a + b)$ instead of 10" in PAGE.text


def test_exercise_names_the_day5_stub():
    (block,) = PAGE.exercises
    assert block["file"] == "day05_add_mul.py"
    assert len(block["hints"]) == 3

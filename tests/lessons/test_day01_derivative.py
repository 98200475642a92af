"""Day 1: every number the page states about f(x) = 3x^2 - 4x + 5 and d = a*b + c."""

import math
from fractions import Fraction

import pytest

from course import TOTAL_DAYS
from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day01_derivative")


def f(x):
    return 3 * x**2 - 4 * x + 5


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_front_matter_and_badge():
    assert PAGE.meta["day"] == 1 and PAGE.meta["phase"] == 1
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 1 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_worked_example_values_are_exact():
    # Exact rational arithmetic: no rounding can flatter the page.
    x, h = Fraction(3), Fraction(1, 1000)
    assert_states(PAGE, float(f(x)), "20")
    assert_states(PAGE, float(f(x + h)), "20.014003")
    assert_states(PAGE, float(f(x - h)), "19.986003")
    forward = (f(x + h) - f(x)) / h
    central = (f(x + h) - f(x - h)) / (2 * h)
    assert forward == Fraction(14003, 1000)
    assert_states(PAGE, float(forward), "14.003")
    assert central == 14 == 6 * x - 4
    # The forward error of a parabola is exactly 3h, as the page says.
    assert forward - 14 == 3 * h
    assert_states(PAGE, float(3 * h), "0.003")


def test_cells_compute_the_estimates_the_page_states(cells):
    assert cells["forward"] == pytest.approx(14.003, abs=1e-9)
    assert cells["central"] == pytest.approx(14.0, abs=1e-9)
    assert cells["rise_over_run"](f, 3.0, 3.0 + 0.001, 0.001) == pytest.approx(14.003, abs=1e-9)


@pytest.mark.parametrize(
    ("h", "forward_text", "central_text"),
    [
        (0.1, "1.41e-01", "4.53e-03"),
        (0.01, "1.36e-02", "4.53e-05"),
        (0.001, "1.36e-03", "4.53e-07"),
    ],
)
def test_error_table_for_exp(h, forward_text, central_text):
    forward_error = (math.exp(1 + h) - math.e) / h - math.e
    central_error = (math.exp(1 + h) - math.exp(1 - h)) / (2 * h) - math.e
    assert f"{forward_error:.2e}" == forward_text
    assert f"{central_error:.2e}" == central_text
    assert forward_text in PAGE.text and central_text in PAGE.text


def test_error_orders_forward_h_central_h_squared():
    # Ten times smaller h: forward error about ten times smaller, central about a hundred.
    def errors(h):
        fwd = (math.exp(1 + h) - math.e) / h - math.e
        ctr = (math.exp(1 + h) - math.exp(1 - h)) / (2 * h) - math.e
        return fwd, ctr

    (f1, c1), (f2, c2) = errors(0.01), errors(0.001)
    assert f1 / f2 == pytest.approx(10, rel=0.02)
    assert c1 / c2 == pytest.approx(100, rel=0.02)


def test_too_small_h_trap():
    ctr = lambda h: (f(3.0 + h) - f(3.0 - h)) / (2 * h)  # noqa: E731
    assert_states(PAGE, ctr(1e-12), "14.0012")
    assert_states(PAGE, ctr(1e-14), "14.21")
    assert abs(ctr(1e-12) - 14) > abs(ctr(1e-3) - 14)


def test_big_turn_trap():
    assert f(4) == 37 and f(3) + 14 * 1 == 34
    assert "from 20 to 37, not to 20 + 14 = 34" in PAGE.text


def test_several_dials_table(cells):
    a, b, c, h = Fraction(2), Fraction(-3), Fraction(10), Fraction(1, 10000)
    d = a * b + c
    assert d == 4
    assert_states(PAGE, float((a + h) * b + c), "3.9997")
    assert_states(PAGE, float(a * (b + h) + c), "4.0002")
    assert_states(PAGE, float(a * b + c + h), "4.0001")
    assert cells["d"] == 4.0
    assert cells["slope_a"] == pytest.approx(-3.0, abs=1e-6)
    assert cells["slope_b"] == pytest.approx(2.0, abs=1e-6)
    assert cells["slope_c"] == pytest.approx(1.0, abs=1e-6)
    # The engine agrees with the partial derivatives the table gives.
    va, vb, vc = Value(2.0), Value(-3.0), Value(10.0)
    (va * vb + vc).backward()
    assert (va.grad, vb.grad, vc.grad) == (-3.0, 2.0, 1.0)


def test_engine_peek_gives_the_exact_slope(cells):
    assert cells["y"].data == 20.0
    assert cells["x"].grad == 14.0


def test_exercise_block_has_progressive_hints():
    (block,) = PAGE.exercises
    assert block["file"] == "day01_derivative.py"
    assert 2 <= len(block["hints"]) <= 3

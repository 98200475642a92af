"""Day 2: the four-gear chain x -> y = x^2 -> z = 3y + 1 -> w = -2z at x = 2."""

import re
from fractions import Fraction

import pytest

from course import TOTAL_DAYS
from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day02_chain_rule")


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 2 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_forward_values_and_local_ratios():
    x = Fraction(2)
    y = x**2
    z = 3 * y + 1
    w = -2 * z
    assert "y = x² = 4" in PAGE.text and y == 4  # figure label
    assert (y, z, w) == (4, 13, -26)
    assert_states(PAGE, float(w), "−26")
    assert_states(PAGE, float(z), "13")
    assert "2x = 4" in PAGE.text and 2 * x == 4


def test_backward_sweep_table():
    # Independently: differentiate each intermediate's closed form in x... and by engine.
    x = Value(2.0)
    y = x**2
    z = 3 * y + 1
    w = -2 * z
    w.backward()
    assert (z.grad, y.grad, x.grad) == (-2.0, -6.0, -24.0)
    assert "| $z$ | $1 \\times (-2)$ | −2 |" in PAGE.text
    assert "| $y$ | $-2 \\times 3$ | −6 |" in PAGE.text
    assert "| $x$ | $-6 \\times 4$ | −24 |" in PAGE.text
    # Closed form dw/dx = -12x.
    assert -12 * 2 == x.grad


def test_nudge_check_numbers():
    z = lambda t: 3 * t**2 + 1  # noqa: E731
    h = Fraction(1, 1000)
    assert_states(PAGE, float(z(2 + h)), "13.012003")
    assert_states(PAGE, float(z(2 - h)), "12.988003")
    assert (z(2 + h) - z(2 - h)) / (2 * h) == 12


def test_cells_agree_with_the_page(cells):
    assert (cells["x"], cells["y"], cells["z"], cells["w"]) == (2.0, 4.0, 13.0, -26.0)
    assert cells["dy_dx"] == pytest.approx(4.0, abs=1e-6)
    assert cells["dz_dy"] == pytest.approx(3.0, abs=1e-6)
    assert cells["dw_dz"] == pytest.approx(-2.0, abs=1e-6)
    assert cells["sensitivity"] == {"w": 1.0, "z": -2.0, "y": -6.0, "x": -24.0}
    assert (cells["zv"].grad, cells["yv"].grad, cells["xv"].grad) == (-2.0, -6.0, -24.0)


def test_try_this_fifth_gear_halves_every_sensitivity(cells):
    # The "Try this" claim, run the way the learner would edit the cell.
    ns = dict(cells)
    source = PAGE.cells[1].replace(
        "ratios = [2 * x, 3.0, -2.0]", "ratios = [2 * x, 3.0, -2.0, 0.5]"
    )
    source = source.replace('names = ["x", "y", "z", "w"]', 'names = ["x", "y", "z", "w", "v"]')
    assert source != PAGE.cells[1]
    exec(source, ns)
    halved = {k: v * 0.5 for k, v in cells["sensitivity"].items()}
    assert {k: v for k, v in ns["sensitivity"].items() if k != "v"} == halved


def test_the_figure_has_four_gears_and_says_so():
    svg = re.search(r"<svg\b.*?</svg>", PAGE.text, re.S)[0]
    gears = re.findall(r"<polygon ", svg)
    labels = re.findall(r'font-weight="bold">([xyzw]) ', svg)
    assert len(gears) == 4 and labels == ["x", "y", "z", "w"]
    assert 'aria-label="Four gears: x drives y' in svg
    assert "Three gears" not in PAGE.text

"""Day 9: ascent and descent from L = -8, the descent loop on (x - 3)^2, the sign table."""

import re
from fractions import Fraction

import pytest

from course import TOTAL_DAYS
from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day09_gradient_descent")
POINT = ("2", "-3", "10", "-2")
GRADS = (6, -4, -2, 4)


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def exact_step(sign):
    a, b, c, f = (Fraction(x) + sign * Fraction(1, 100) * g for x, g in zip(POINT, GRADS))
    e = a * b
    d = e + c
    return (a, b, c, f), e, d, d * f


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 9 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_gradients_used_are_the_engines():
    leaves = [Value(float(x)) for x in POINT]
    a, b, c, f = leaves
    L = (a * b + c) * f
    L.backward()
    assert L.data == -8.0
    assert tuple(x.grad for x in leaves) == GRADS
    assert "the gradients are a 6, b −4, c −2, f 4" in PAGE.text


def test_ascent_gives_the_seed_number():
    leaves, e, d, L = exact_step(+1)
    assert L == Fraction("-7.286496")
    for text, value in zip(("2.06", "−3.04", "9.98", "−1.96"), leaves):
        assert_states(PAGE, float(value), text)
    assert_states(PAGE, float(e), "-6.2624")
    assert_states(PAGE, float(d), "3.7176")
    assert_states(PAGE, float(L), "-7.286496")
    assert_states(PAGE, float(L + 8), "+0.713504")


def test_descent_numbers():
    leaves, e, d, L = exact_step(-1)
    for text, value in zip(("1.94", "−2.96", "10.02", "−2.04"), leaves):
        assert_states(PAGE, float(value), text)
    assert_states(PAGE, float(e), "-5.7424")
    assert_states(PAGE, float(d), "4.2776")
    assert_states(PAGE, float(L), "-8.726304")
    assert_states(PAGE, float(L + 8), "-0.726304")
    assert "\\pm 0.01 \\cdot (36 + 16 + 4 + 16) = \\pm 0.72" in PAGE.text


def test_cells_agree_with_exact_steps(cells):
    assert round(cells["L_up"], 6) == -7.286496
    assert round(cells["L_down"], 6) == -8.726304


def test_try_this_big_step_ascent_goes_down(cells):
    assert cells["one_step"](+1, 1.0) < -8.0


def test_descent_loop():
    # Closed form: x_k = 3 - 3 * 0.8**k.
    x = 3 - 3 * 0.8**25
    assert_states(PAGE, x, "2.9887")
    assert_states(PAGE, 3 * 0.8**25, "0.0113")
    assert "$1 - 2\\eta = 0.8$" in PAGE.text


def test_cells_descent_loop(cells):
    assert cells["x"].data == pytest.approx(3 - 3 * 0.8**25, rel=1e-12)


@pytest.mark.parametrize(
    ("rate", "behaviour"), [(0.5, "exact"), (0.9, "converges"), (1.0, "bounces"), (1.1, "diverges")]
)
def test_learning_rate_claims(rate, behaviour):
    x = 0.0
    path = []
    for _ in range(40):
        x -= rate * 2 * (x - 3)
        path.append(x)
    if behaviour == "exact":
        assert path[0] == 3.0
    elif behaviour == "converges":
        assert abs(path[-1] - 3) < 1e-2 and (path[0] - 3) * (path[1] - 3) < 0
    elif behaviour == "bounces":
        assert set(path) == {0.0, 6.0}
    else:
        assert abs(path[-1]) > 1e3


def test_sign_table(cells):
    text = PAGE.text
    assert "| positive | $L$ rises as $p$ rises | **decrease** the parameter |" in text
    assert "| negative | $L$ falls as $p$ rises | **increase** the parameter |" in text
    assert "| zero | $L$ does not respond to $p$ here | **leave** it |" in text
    assert cells["p_pos"].data < 1.0 < cells["p_neg"].data
    assert cells["p_zero"].data == 1.0


def _figure_points(colour):
    """The (x, loss) of each dot of one colour in the figure, read back from pixels."""
    svg = re.search(r"<svg.*?</svg>", PAGE.text, re.S)[0]
    dots = re.findall(rf'<circle cx="([\d.]+)" cy="([\d.]+)" r="3.5" fill="{colour}"/>', svg)
    # The axis puts x = 0 at 78.571 and x = 6 at 541.429; loss 0 at y = 220 and 9 at 56.4.
    return [((float(cx) - 78.571) / 77.143, (220 - float(cy)) / (163.6 / 9)) for cx, cy in dots]


@pytest.mark.parametrize(
    ("rate", "colour", "factor"), [(0.1, "#2f9e44", "0.8"), (0.9, "#e8590c", "−0.8")]
)
def test_figure_steps_shrink_by_the_factor(rate, colour, factor):
    # x_k - 3 = -3 * (1 - 2 * rate)**k: the same distance for 0.1 and 0.9, on alternating sides.
    assert_states(PAGE, 1 - 2 * rate, factor)
    caption = re.search(r"<figcaption>(.*?)</figcaption>", PAGE.text, re.S)[1]
    assert f"the factor is {factor}" in " ".join(caption.split())
    points = _figure_points(colour)
    assert len(points) >= 5
    for k, (x, loss) in enumerate(points):
        expected = 3 - 3 * (1 - 2 * rate) ** k
        assert x == pytest.approx(expected, abs=0.01)
        assert loss == pytest.approx((expected - 3) ** 2, abs=0.05)


def test_figure_fast_rate_is_not_slower():
    caption = " ".join(re.search(r"<figcaption>(.*?)</figcaption>", PAGE.text, re.S)[1].split())
    assert "slowly" not in caption and "converges just as fast, only alternating sides" in caption
    slow, fast = _figure_points("#2f9e44"), _figure_points("#e8590c")
    # Every second orange point lands on a green one: (-0.8)**2k == 0.8**2k.
    for k in range(0, len(fast), 2):
        assert fast[k] == pytest.approx(slow[k], abs=0.01)

"""Day 24: RMSNorm's worked example from the closed form, the residual chain, the cells' claims."""

import math
import random

import pytest

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day24_rmsnorm_residual")
X = [1.0, 2.0, 3.0, 4.0]
EPS = 1e-5


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_forward_numbers_stated():
    mean_square = sum(v * v for v in X) / len(X)
    assert mean_square == 7.5
    r = math.sqrt(mean_square + EPS)
    assert_states(PAGE, r, "2.738615")
    y = [v / r for v in X]
    stated = "[0.365148,\\ 0.730296,\\ 1.095444,\\ 1.460593]"
    assert stated in PAGE.text
    for yi, text in zip(y, ["0.365148", "0.730296", "1.095444", "1.460593"]):
        assert_states(PAGE, yi, text)


def test_backward_numbers_stated_from_closed_form():
    r = math.sqrt(sum(v * v for v in X) / len(X) + EPS)
    y = [v / r for v in X]
    # d y_1 / d x_j = (delta_1j - y_1 y_j / d) / r
    grad = [((1.0 if j == 0 else 0.0) - y[0] * y[j] / len(X)) / r for j in range(len(X))]
    for g, text in zip(grad, ["0.352977", "-0.024343", "-0.036515", "-0.048686"]):
        assert_states(PAGE, g, text)
    assert sum(x * g for x, g in zip(X, grad)) == pytest.approx(0.0, abs=1e-6)


def chain(residual, layers=8, w=0.5):
    """The derivative of the eight-block chain by the chain rule on floats, no engine."""
    h, grad = 1.0, 1.0
    for _ in range(layers):
        t = math.tanh(w * h)
        local = w * (1 - t * t)
        grad *= (1 + local) if residual else local
        h = h + t if residual else t
    return grad


def test_residual_numbers_stated():
    assert_states(PAGE, chain(False), "0.002864")
    assert_states(PAGE, chain(True), "2.573035")


def test_rmsnorm_cell_matches_closed_form(namespace):
    x = [Value(v) for v in X]
    y = namespace["rmsnorm"](x)
    y[2].backward()
    r = math.sqrt(7.5 + EPS)
    expected = [((1.0 if j == 2 else 0.0) - (X[2] / r) * (X[j] / r) / 4) / r for j in range(4)]
    assert [v.grad for v in x] == pytest.approx(expected, rel=1e-9)


def test_rmsnorm_is_scale_invariant(namespace):
    rmsnorm = namespace["rmsnorm"]
    small = [v.data for v in rmsnorm([Value(v) for v in X])]
    large = [v.data for v in rmsnorm([Value(10 * v) for v in X])]
    assert large == pytest.approx(small, rel=1e-6)
    # "The output barely changes (only through epsilon, in the sixth decimal)"
    assert [round(v, 6) for v in large] != [round(v, 6) for v in small]
    assert max(abs(a - b) for a, b in zip(large, small)) < 5e-6
    assert "only through $\\epsilon$, in the sixth decimal" in " ".join(PAGE.text.split())


def test_volume_knob_cell_claims(namespace):
    rms = namespace["rms"]
    assert rms(namespace["plain"]) > 50  # the plain vector exploded
    assert 0.5 < rms(namespace["normed"]) < 4  # the normalised one stayed near its size


def test_pre_norm_block_is_near_identity(namespace):
    assert abs(namespace["z"][3].data - namespace["x"][3].data) < 0.2
    assert namespace["x"][3].grad == pytest.approx(1.0, abs=0.2)


def test_pre_norm_block_gradient_is_near_but_not_exactly_1(namespace):
    # The question pre-norm-block-gradient: close to 1 (the road), not exactly 1 (the branch).
    grad = namespace["x"][3].grad
    assert abs(grad - 1.0) < 0.2 and abs(grad - 1.0) > 1e-6
    text = PAGE.text
    assert text.index("id: pre-norm-block-gradient") < text.index('print("dz[3]/dx[3] ="')


def test_a_gain_in_front_of_a_matrix_can_be_folded_into_it():
    # "W (g ⊙ y) is the same as W' y where W' is W with column i multiplied by g_i";
    # with every g_i = 1 (the start) the gain changes nothing.
    rng = random.Random(24)
    y = [rng.gauss(0, 1) for _ in range(4)]
    g = [rng.uniform(0.5, 2) for _ in range(4)]
    W = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(3)]
    with_gain = [sum(w * gi * yi for w, gi, yi in zip(row, g, y)) for row in W]
    folded = [[w * gi for w, gi in zip(row, g)] for row in W]
    assert [sum(w * yi for w, yi in zip(row, y)) for row in folded] == pytest.approx(with_gain)
    assert "with every $g_i$ starting at 1" in PAGE.text
    assert "microGPT leaves the\ngain out" in PAGE.text or "microGPT leaves it out" in PAGE.text

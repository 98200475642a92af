"""The building blocks of microGPT against hand-computed numbers, the same math composed
from Value's primitive operations, and central differences (engine.gradcheck)."""

import math

import pytest

from engine import Value
from engine.gpt import (
    attention,
    attention_head,
    cross_entropy,
    dot,
    linear,
    mean,
    rmsnorm,
    softmax,
)
from engine.gradcheck import assert_gradients

# Composed references: the textbook definitions, one Value per operation.


def composed_softmax(z):
    top = max(v.data for v in z)
    e = [(v - top).exp() for v in z]
    total = sum(e[1:], e[0])
    return [ei / total for ei in e]


def composed_rmsnorm(x, eps=1e-5):
    ms = sum((v * v for v in x[1:]), x[0] * x[0]) / len(x)
    s = (ms + eps) ** -0.5
    return [v * s for v in x]


def weighted_sum(outputs, weights):
    """A scalar that depends on every output, with distinct weights so no symmetry hides bugs."""
    return sum((w * o for w, o in zip(weights, outputs)), Value(0.0))


WEIGHTS = [0.3, -1.1, 0.7, 2.0, -0.4, 1.3, 0.9, -0.8]


def grads_of(make_scalar, xs):
    vs = [Value(x) for x in xs]
    make_scalar(vs).backward()
    return [v.grad for v in vs]


# -- dot and linear ----------------------------------------------------------------------


def test_dot_value_and_gradients_by_hand():
    a, b = [Value(1.0), Value(2.0)], [Value(3.0), Value(-4.0)]
    d = dot(a, b)
    assert d.data == 1 * 3 + 2 * -4
    d.backward()
    assert [v.grad for v in a] == [3.0, -4.0]  # d/da_i = b_i
    assert [v.grad for v in b] == [1.0, 2.0]  # d/db_i = a_i


def test_dot_with_scale_and_repeated_argument():
    x = [Value(0.5), Value(-2.0), Value(1.5)]
    d = dot(x, x, scale=0.5)  # half the squared length: its gradient is x itself
    assert d.data == pytest.approx(0.5 * (0.25 + 4 + 2.25))
    d.backward()
    assert [v.grad for v in x] == pytest.approx([0.5, -2.0, 1.5])


def test_dot_rejects_vectors_of_different_lengths():
    with pytest.raises(ValueError, match="one length"):
        dot([Value(1.0)], [Value(1.0), Value(2.0)])


def test_linear_matches_sum_of_products_and_central_differences():
    xs = [0.4, -1.2, 2.0, 0.3, -0.7, 1.1]  # w is 2x3 (first 6 numbers), x the last 3
    xs = xs + [0.5, -0.25, 1.5]

    def f(vs):
        w = [vs[0:3], vs[3:6]]
        return weighted_sum(linear(vs[6:9], w), WEIGHTS)

    def composed(vs):
        w, x = [vs[0:3], vs[3:6]], vs[6:9]
        out = [sum((wi * xi for wi, xi in zip(row, x)), Value(0.0)) for row in w]
        return weighted_sum(out, WEIGHTS)

    assert f([Value(x) for x in xs]).data == pytest.approx(composed([Value(x) for x in xs]).data)
    assert grads_of(f, xs) == pytest.approx(grads_of(composed, xs))
    assert_gradients(f, xs)


def test_linear_rejects_a_mismatched_matrix():
    with pytest.raises(ValueError, match="cannot multiply"):
        linear([Value(1.0)] * 3, [[Value(1.0)] * 2])


# -- softmax and cross-entropy ------------------------------------------------------------


def test_softmax_hand_computed():
    p = softmax([Value(1.0), Value(2.0), Value(3.0)])
    total = math.e + math.e**2 + math.e**3
    assert [v.data for v in p] == pytest.approx(
        [math.e / total, math.e**2 / total, math.e**3 / total]
    )
    assert [v.data for v in p] == pytest.approx([0.09003057, 0.24472847, 0.66524096], abs=1e-8)


def test_softmax_subtracts_the_max_so_large_logits_do_not_overflow():
    p = softmax([Value(1000.0), Value(1001.0)])  # exp(1000) alone overflows a float
    assert [v.data for v in p] == pytest.approx([1 / (1 + math.e), math.e / (1 + math.e)])


def test_softmax_gradient_is_p_times_delta_minus_p():
    z = [0.2, -1.0, 0.5, 2.0]
    p = softmax([Value(x) for x in z])
    for i, pi in enumerate(p):
        assert pi._local_grads == pytest.approx(
            [pi.data * ((i == j) - pj.data) for j, pj in enumerate(p)]
        )


@pytest.mark.parametrize(
    "z", [[0.2, -1.0, 0.5, 2.0], [3.0, 3.0, 3.0], [-40.0, 10.0, 0.0, 5.5, 1.0]]
)
def test_softmax_against_composed_and_central_differences(z):
    def f(vs):
        return weighted_sum(softmax(vs), WEIGHTS)

    def g(vs):
        return weighted_sum(composed_softmax(vs), WEIGHTS)

    assert f([Value(x) for x in z]).data == pytest.approx(g([Value(x) for x in z]).data)
    assert grads_of(f, z) == pytest.approx(grads_of(g, z), abs=1e-12)
    assert_gradients(f, z)


def test_softmax_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="at least one"):
        softmax([])


@pytest.mark.parametrize("target", [0, 2, 4])
def test_cross_entropy_is_minus_log_softmax_with_gradient_p_minus_onehot(target):
    z = [0.5, -1.5, 2.0, 0.0, 1.0]
    total = sum(math.exp(x) for x in z)
    loss = cross_entropy([Value(x) for x in z], target)
    assert loss.data == pytest.approx(-math.log(math.exp(z[target]) / total))
    expected = [math.exp(x) / total - (j == target) for j, x in enumerate(z)]
    assert grads_of(lambda vs: cross_entropy(vs, target), z) == pytest.approx(expected)
    assert_gradients(lambda vs: cross_entropy(vs, target), z)


def test_cross_entropy_of_uniform_logits_is_log_of_the_vocabulary():
    assert cross_entropy([Value(0.0)] * 27, 5).data == pytest.approx(math.log(27))


def test_cross_entropy_is_stable_for_large_logits():
    loss = cross_entropy([Value(1000.0), Value(0.0)], 1)
    assert loss.data == pytest.approx(1000.0)


def test_cross_entropy_rejects_a_bad_target():
    with pytest.raises(ValueError, match="not an index"):
        cross_entropy([Value(0.0)] * 3, 3)


def test_mean_value_and_gradient():
    xs = [Value(1.0), Value(2.0), Value(6.0)]
    m = mean(xs)
    m.backward()
    assert m.data == 3.0
    assert [v.grad for v in xs] == pytest.approx([1 / 3] * 3)


# -- rmsnorm -----------------------------------------------------------------------------------


def test_rmsnorm_hand_computed():
    y = rmsnorm([Value(3.0), Value(4.0)], eps=0.0)  # mean of squares 12.5
    assert [v.data for v in y] == pytest.approx([3 / math.sqrt(12.5), 4 / math.sqrt(12.5)])
    assert math.sqrt(sum(v.data**2 for v in y) / 2) == pytest.approx(1.0)


@pytest.mark.parametrize("x", [[3.0, 4.0], [0.5, -1.2, 2.0, 0.1], [1e-3, -2e-3, 5e-4]])
def test_rmsnorm_against_composed_and_central_differences(x):
    def f(vs):
        return weighted_sum(rmsnorm(vs), WEIGHTS)

    def g(vs):
        return weighted_sum(composed_rmsnorm(vs), WEIGHTS)

    assert f([Value(v) for v in x]).data == pytest.approx(g([Value(v) for v in x]).data)
    assert grads_of(f, x) == pytest.approx(grads_of(g, x))
    assert_gradients(f, x, h=1e-7, rtol=1e-4)


# -- attention -----------------------------------------------------------------------------------


def test_attention_head_hand_computed():
    q = [Value(1.0), Value(0.0)]
    keys = [[Value(1.0), Value(0.0)], [Value(0.0), Value(1.0)]]
    values = [[Value(1.0), Value(2.0)], [Value(3.0), Value(4.0)]]
    # scores 1/sqrt(2) and 0, so weights e^(1/sqrt 2) / (e^(1/sqrt 2) + 1) and the rest
    w0 = math.exp(1 / math.sqrt(2)) / (math.exp(1 / math.sqrt(2)) + 1)
    out = attention_head(q, keys, values)
    assert [v.data for v in out] == pytest.approx([w0 * 1 + (1 - w0) * 3, w0 * 2 + (1 - w0) * 4])


def test_attention_head_over_one_position_returns_its_value():
    v = [Value(0.3), Value(-0.9), Value(2.0)]
    out = attention_head([Value(5.0), Value(1.0), Value(-2.0)], [[Value(1.0)] * 3], [v])
    assert [o.data for o in out] == pytest.approx([0.3, -0.9, 2.0])


def unpack(vs, d, t):
    """q (d numbers), then t keys, then t values, each d numbers."""
    q = vs[:d]
    keys = [vs[d + i * d : d + (i + 1) * d] for i in range(t)]
    values = [vs[d + (t + i) * d : d + (t + i + 1) * d] for i in range(t)]
    return q, keys, values


def composed_head(q, keys, values):
    d = len(q)
    scores = [sum((qi * ki for qi, ki in zip(q, k)), Value(0.0)) / math.sqrt(d) for k in keys]
    w = composed_softmax(scores)
    return [sum((wt * v[j] for wt, v in zip(w, values)), Value(0.0)) for j in range(d)]


def test_attention_head_against_composed_and_central_differences():
    d, t = 3, 3
    xs = [0.3, -0.5, 0.8, 1.0, 0.2, -0.4, -0.7, 0.9, 0.1, 0.5, 0.5, -1.0]
    xs += [0.2, 1.4, -0.3, -0.6, 0.0, 0.7, 1.1, -0.2, 0.4]

    def f(vs):
        return weighted_sum(attention_head(*unpack(vs, d, t)), WEIGHTS)

    def g(vs):
        return weighted_sum(composed_head(*unpack(vs, d, t)), WEIGHTS)

    assert f([Value(x) for x in xs]).data == pytest.approx(g([Value(x) for x in xs]).data)
    assert grads_of(f, xs) == pytest.approx(grads_of(g, xs))
    assert_gradients(f, xs)


def test_multi_head_attention_is_heads_on_slices_side_by_side():
    d, t, heads = 4, 2, 2
    xs = [0.1 * ((7 * i) % 11 - 5) for i in range(d + 2 * t * d)]
    q, keys, values = unpack([Value(x) for x in xs], d, t)
    out = [v.data for v in attention(q, keys, values, heads)]
    first = attention_head(q[:2], [k[:2] for k in keys], [v[:2] for v in values])
    second = attention_head(q[2:], [k[2:] for k in keys], [v[2:] for v in values])
    assert out == pytest.approx([v.data for v in first + second])

"""Days 37 and 38 in the engine: AdamW, dropout, and the training diagnostics."""

import math
import random
import statistics

import pytest

from engine.batched import Adam, AdamW
from engine.diagnostics import copy_data, histogram, mean, saturation, std, update_ratio
from engine.regularize import dropout
from engine.tensor import Tensor

# -- AdamW -----------------------------------------------------------------------------------


def test_adamw_is_adam_plus_lr_times_decay_on_matrices_only():
    rng = random.Random(0)
    W = Tensor([[rng.uniform(-1, 1) for _ in range(3)] for _ in range(2)])
    b = Tensor([rng.uniform(-1, 1) for _ in range(3)])
    lr, wd, b1, b2, eps = 0.05, 0.3, 0.9, 0.999, 1e-8
    optimizer = AdamW([W, b], lr=lr, weight_decay=wd)
    expected = {id(W): list(W.data), id(b): list(b.data)}
    m = {id(W): [0.0] * 6, id(b): [0.0] * 3}
    v = {id(W): [0.0] * 6, id(b): [0.0] * 3}
    for t in range(1, 4):
        for p in (W, b):
            p.grad = [rng.uniform(-2, 2) for _ in p.data]
            decay = wd if p.ndim >= 2 else 0.0
            e, mp, vp = expected[id(p)], m[id(p)], v[id(p)]
            for i, g in enumerate(p.grad):
                mp[i] = b1 * mp[i] + (1 - b1) * g
                vp[i] = b2 * vp[i] + (1 - b2) * g * g
                ratio = (mp[i] / (1 - b1**t)) / (math.sqrt(vp[i] / (1 - b2**t)) + eps)
                e[i] -= lr * (ratio + decay * e[i])
        optimizer.step()
        assert W.data == pytest.approx(expected[id(W)], rel=1e-12, abs=1e-15)
        assert b.data == pytest.approx(expected[id(b)], rel=1e-12, abs=1e-15)


def test_adamw_without_decay_is_adam_and_decays_vectors_when_told():
    a, b = Tensor([1.0, -2.0]), Tensor([1.0, -2.0])
    plain, zero = Adam([a], lr=0.1), AdamW([b], lr=0.1, weight_decay=0.0)
    for grads in ([0.5, 0.1], [-0.2, 0.3]):
        a.grad, b.grad = list(grads), list(grads)
        plain.step()
        zero.step()
    assert a.data == b.data
    c = Tensor([1.0])
    optimizer = AdamW([c], lr=0.1, weight_decay=0.5, decay_vectors=True)
    c.grad = [0.0]
    optimizer.step()
    assert c.data == [pytest.approx(1.0 - 0.1 * 0.5)]
    assert AdamW([Tensor([1.0])]).weight_decay == 0.01  # PyTorch's default
    with pytest.raises(ValueError, match="weight_decay"):
        AdamW([c], weight_decay=-0.1)


# -- dropout ---------------------------------------------------------------------------------


class Draws:
    def __init__(self, us):
        self.us = iter(us)

    def random(self):
        return next(self.us)


def test_dropout_forward_backward_through_the_same_mask():
    h = Tensor([[0.5, -0.2], [0.9, 0.4]])
    out = dropout(h, 0.5, Draws([0.3, 0.8, 0.5, 0.1]))  # 0.5 is not below p: kept
    assert out.shape == (2, 2) and out.data == [0.0, -0.4, 1.8, 0.0]
    (out * Tensor([[0.2, -1.0], [0.5, 0.3]])).sum().backward()
    assert h.grad == [0.0, -2.0, 1.0, 0.0]


def test_dropout_keeps_the_mean_and_is_the_identity_at_evaluation():
    x = Tensor([1.0] * 20_000)
    rng = random.Random(1)
    kept = dropout(x, 0.3, rng).data
    assert statistics.fmean(kept) == pytest.approx(1.0, abs=0.02)
    assert set(kept) == {0.0, 1 / (1 - 0.3)}
    assert dropout(x, 0.3, rng, training=False) is x
    assert dropout(x, 0.0, None) is x


@pytest.mark.parametrize(
    "args, error, words",
    [
        (([1.0, 2.0], 0.5, random.Random(0)), TypeError, "Tensor"),
        ((Tensor([1.0]), 1.0, random.Random(0)), ValueError, r"\[0, 1\)"),
        ((Tensor([1.0]), -0.1, random.Random(0)), ValueError, "probability"),
        ((Tensor([1.0]), 0.5, None), TypeError, "random.Random"),
    ],
)
def test_dropout_refuses_bad_input_clearly(args, error, words):
    with pytest.raises(error, match=words):
        dropout(*args)


# -- diagnostics -----------------------------------------------------------------------------


def test_mean_and_std_are_the_population_ones():
    xs = [random.Random(2).uniform(-3, 3) for _ in range(17)]
    assert mean(xs) == pytest.approx(statistics.fmean(xs))
    assert std(xs) == pytest.approx(statistics.pstdev(xs))
    assert std(Tensor(xs)) == std(xs)


def test_saturation_counts_both_sides_strictly_above():
    assert saturation([0.99, -0.5, 0.97, -0.98, 0.1, 0.2]) == pytest.approx(2 / 6)
    assert saturation(Tensor([0.5, -0.95]), threshold=0.9) == 0.5


def test_update_ratio_and_copy_data():
    W = Tensor([1.0, -1.0, 2.0, -2.0])
    (before,) = copy_data([W])
    W.data[:] = [1.01, -1.01, 2.02, -1.99]
    assert before == [1.0, -1.0, 2.0, -2.0]
    expected = math.log10(statistics.pstdev([0.01, -0.01, 0.02, 0.01]) / math.sqrt(2.5))
    assert update_ratio(before, W) == pytest.approx(expected)
    assert update_ratio(before, before) == float("-inf")
    with pytest.raises(ValueError, match="undefined"):
        update_ratio([0.0, 0.0], [0.1, 0.2])
    with pytest.raises(ValueError, match="same tensor"):
        update_ratio([1.0, 2.0], [1.0])


def test_histogram_shares():
    centres, shares = histogram([-1.0, -0.5, 0.0, 0.5, 1.0, 3.0], bins=4, lo=-1.0, hi=1.0)
    assert centres == [-0.75, -0.25, 0.25, 0.75]
    assert shares == pytest.approx([1 / 6, 1 / 6, 1 / 6, 2 / 6])  # 3.0 is outside
    with pytest.raises(ValueError, match="hi > lo"):
        histogram([1.0, 1.0])
    with pytest.raises(ValueError, match="empty"):
        mean([])
    with pytest.raises(TypeError, match="list of numbers"):
        std(3.0)

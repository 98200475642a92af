"""Day 19: the worked example of softmax and cross-entropy, computed here with plain floats,
and the claims of the cells (same gradient three ways, no overflow, the training curve)."""

import math

import pytest

from engine import Value, gpt

from .pages import assert_states, lesson

PAGE = lesson("day19_softmax")


def softmax(z):
    e = [math.exp(x) for x in z]
    return [x / sum(e) for x in e]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_forward_numbers():
    for x, shown in ((2, "7.389056"), (1, "2.718282")):
        assert_states(PAGE, math.exp(x), shown)
    assert_states(PAGE, sum(math.exp(x) for x in (2, 1, 0)), "11.107338")
    p = softmax([2, 1, 0])
    assert "[0.665241,\\ 0.244728,\\ 0.090031]" in PAGE.text
    for pi, shown in zip(p, ("0.665241", "0.244728", "0.090031")):
        assert_states(PAGE, pi, shown)
    assert_states(PAGE, -math.log(p[0]), "0.407606")
    assert_states(PAGE, math.exp(-1), "0.367879")
    assert_states(PAGE, math.exp(-2), "0.135335")
    assert softmax([0, -1, -2]) == pytest.approx(p, abs=1e-15)


def test_backward_numbers():
    # central differences of -log softmax(z)[0], independent of any gradient formula
    def loss(z):
        return -math.log(softmax(z)[0])

    z, h = [2.0, 1.0, 0.0], 1e-6
    grads = []
    for i in range(3):
        up, down = list(z), list(z)
        up[i] += h
        down[i] -= h
        grads.append((loss(up) - loss(down)) / (2 * h))
    assert "[-0.334759,\\ 0.244728,\\ 0.090031]" in PAGE.text
    for g, shown in zip(grads, ("-0.334759", "0.244728", "0.090031")):
        assert_states(PAGE, g, shown)
    assert sum(grads) == pytest.approx(0, abs=1e-8)


def test_cells_agree_with_the_formula(namespace):
    z = namespace["z"]  # the last cell's logits, after engine.gpt's backward
    expected = [pi - (i == 0) for i, pi in enumerate(softmax([2, 1, 0]))]
    assert [zi.grad for zi in z] == pytest.approx(expected, abs=1e-12)
    assert namespace["loss"].data == pytest.approx(0.4076059644443803)
    assert [round(p.data, 6) for p in namespace["softmax"](namespace["big"])] == [
        0.665241,
        0.244728,
        0.090031,
    ]
    assert len(namespace["fast"].topological_order()) < len(namespace["loss"].topological_order())


def test_try_this_claims(namespace):
    extreme = [Value(1000.0), Value(-1000.0)]
    assert [p.data for p in gpt.softmax(extreme)] == [1.0, 0.0]
    assert [p.data for p in namespace["softmax"](extreme)] == [1.0, 0.0]
    with pytest.raises(OverflowError):
        Value(1000.0).exp()


def test_training_curve(namespace):
    losses = namespace["losses"]
    assert losses[0] == pytest.approx(math.log(27))
    assert_states(PAGE, math.log(27), "3.2958")
    # it approaches the counting model's 2.3346 from above, never below
    assert 2.3346 < losses[-1] < 2.35
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))
    assert "2.3346" in PAGE.text
    assert_states(PAGE, namespace["M"], "36,122")

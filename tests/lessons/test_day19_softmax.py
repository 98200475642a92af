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
    assert [round(p, 6) for p in namespace["probabilities"](namespace["big"])] == [
        0.665241,
        0.244728,
        0.090031,
    ]
    assert len(namespace["fast"].topological_order()) < len(namespace["loss"].topological_order())


def test_try_this_claims(namespace):
    extreme = [Value(1000.0), Value(-1000.0)]
    assert [p.data for p in gpt.softmax(extreme)] == [1.0, 0.0]
    assert namespace["probabilities"]([1000.0, -1000.0]) == [1.0, 0.0]
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


def _train(N, learning_rate, steps=500):
    """The page's training loop, with every step's loss and the logit of the pair (BOS, BOS)."""
    V, M, bos = len(N), sum(map(sum, N)), len(N) - 1
    W = [[0.0] * V for _ in range(V)]
    losses, bos_bos = [], []
    for _ in range(steps):
        total = 0.0
        for i in range(V):
            top = max(W[i])
            e = [math.exp(x - top) for x in W[i]]
            p, n_i = [x / sum(e) for x in e], sum(N[i])
            total -= sum(N[i][j] * math.log(p[j]) for j in range(V) if N[i][j])
            for j in range(V):
                W[i][j] -= learning_rate * (n_i * p[j] - N[i][j]) / M
        losses.append(total / M)
        bos_bos.append(W[bos][bos])
    return W, losses, bos_bos


def test_why_a_learning_rate_of_50(namespace):
    N, M, V, bos = namespace["N"], namespace["M"], namespace["V"], namespace["tok"].bos
    assert bos == V - 1
    shares = [sum(row) / M for row in N]
    # |n_i p_ij - N_ij| <= n_i: no gradient entry of row i exceeds its share n_i / M.
    assert max(range(V), key=shares.__getitem__) == bos
    assert_states(PAGE, max(shares), "0.1429")
    assert sum(s < 0.01 for s in shares) == 7 and "7 of the 27 rows" in PAGE.text
    first = [abs(sum(N[i]) / V - N[i][j]) / M for i in range(V) for j in range(V)]
    assert_states(PAGE, max(first), "0.0439")
    assert all(first[i * V + j] <= shares[i] for i in range(V) for j in range(V))
    assert round(50 * max(first), 1) == 2.2 and "no logit moves by more than about 2.2" in (
        " ".join(PAGE.text.split())
    )
    slow = _train(N, 0.1)[1]
    assert_states(PAGE, slow[-1], "3.0147")
    assert_states(PAGE, namespace["losses"][-1], "2.3392")
    assert "learning_rate, losses = 50.0, []" in PAGE.text
    # Too large a step: at 200 the loss already rises at the second step (what follows is
    # chaotic, so only the start is asserted).
    wild = _train(N, 200.0, steps=3)[1]
    assert wild[1] < wild[0] < wild[2]


def test_try_this_logits_are_log_counts(namespace):
    N, W, V, bos = namespace["N"], namespace["W"], namespace["V"], namespace["tok"].bos
    shift = [W[bos][j] - math.log(N[bos][j]) for j in range(V) if N[bos][j]]
    assert len(shift) == 26 and max(shift) - min(shift) < 0.01
    assert N[bos][bos] == 0
    with pytest.raises(ValueError):
        math.log(N[bos][bos])
    W50, _, bos_bos = _train(N, 50.0)
    assert W50 == W  # the same run as the page's cell
    assert all(b < a for a, b in zip([0.0] + bos_bos, bos_bos))  # it only keeps falling
    text = " ".join(PAGE.text.split())
    assert "they differ by less than 0.01" in text
    assert "`math.log(0)` raises `ValueError`" in text

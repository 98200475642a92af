"""Day 14: the learning-rate table, two steps of each optimizer, and the valley race."""

import math

from engine import Value
from engine.optim import SGD, Adam

from .pages import assert_states, lesson

PAGE = lesson("day14_optimizers")


def test_learning_rate_factors():
    for lr, factor, path in (
        (0.1, "0.8", "$1, 0.8, 0.64, \\dots$"),
        (0.9, "−0.8", "$1, -0.8, 0.64, \\dots$"),
        (1.1, "−1.2", "$1, -1.2, 1.44, \\dots$"),
    ):
        assert_states(PAGE, 1 - 2 * lr, factor)
        assert path in PAGE.text


def _two_steps(make):
    w = Value(1.0)
    opt = make([w])
    out = []
    for _ in range(2):
        opt.zero_grad()
        (w * w).backward()
        opt.step()
        out.append(w.data)
    return out


def test_sgd_and_momentum():
    assert [round(v, 12) for v in _two_steps(lambda p: SGD(p, lr=0.1))] == [0.8, 0.64]
    assert [round(v, 12) for v in _two_steps(lambda p: SGD(p, lr=0.1, momentum=0.9))] == [0.8, 0.46]
    assert_states(PAGE, 0.9 * 2 + 1.6, "3.4")


def test_adam_by_hand():
    # The formulas of the page, written out, against engine.optim.Adam.
    b1, b2, lr = 0.9, 0.999, 0.1
    m = 0.1 * 2
    v = 0.001 * 4
    w1 = 1 - lr * (m / (1 - b1)) / math.sqrt(v / (1 - b2))
    assert_states(PAGE, w1, "0.9")
    g = 2 * w1
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    assert_states(PAGE, m, "0.36")
    assert_states(PAGE, v, "0.007236")
    m_hat, v_hat = m / (1 - b1**2), v / (1 - b2**2)
    assert_states(PAGE, m_hat, "1.894737")
    assert_states(PAGE, v_hat, "3.619810")
    assert_states(PAGE, math.sqrt(v_hat), "1.902580")
    assert_states(PAGE, lr * m_hat / math.sqrt(v_hat), "0.099588")
    w2 = w1 - lr * m_hat / math.sqrt(v_hat)
    assert_states(PAGE, w2, "0.800412")
    engine_path = _two_steps(lambda p: Adam(p, lr=lr))
    assert abs(engine_path[0] - w1) < 1e-8 and abs(engine_path[1] - w2) < 1e-8


def test_valley_race():
    ns = PAGE.run_cells()
    steps = ns["steps"]
    for name, shown in (
        ("SGD lr=0.1", "333"),
        ("SGD lr=0.18", "185"),
        ("momentum 0.9, lr=0.1", "62"),
        ("Adam lr=0.1", "64"),
    ):
        assert_states(PAGE, steps[name], shown)
    assert "SGD 333 (or 185) steps, momentum 62, Adam 64" in PAGE.text


def test_sgd_above_the_ceiling_diverges():
    y = Value(1.0)
    opt = SGD([y], lr=0.21)
    sizes = []
    for _ in range(20):
        opt.zero_grad()
        (5.0 * y * y).backward()
        opt.step()
        sizes.append(abs(y.data))
    assert all(b > a for a, b in zip(sizes, sizes[1:]))

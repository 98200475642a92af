"""Day 13: the with/without zero_grad table, computed step by step, and the line fit."""

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day13_training_loop")


def _run(forget, steps=5, lr=0.05):
    w, rows = Value(1.0), []
    for _ in range(steps):
        if forget:
            w.grad = 0.0
        loss = (w * 2.0 - 6.0) ** 2
        loss.backward()
        rows.append((w.data, loss.data, w.grad))
        w.data -= lr * w.grad
    return rows, w.data


def test_table_with_zero_grad():
    rows, _ = _run(True)
    shown = [
        ("1", "16", "-16"),
        ("1.8", "5.76", "-9.6"),
        ("2.28", "2.0736", "-5.76"),
        ("2.568", "0.746496", "-3.456"),
        ("2.7408", "0.268739", "-2.0736"),
    ]
    for (w, loss, grad), texts in zip(rows, shown):
        for number, text in zip((w, loss, grad), texts):
            assert_states(PAGE, number, text)
    # The distance to 3 shrinks by 0.6 each step: 2, 1.2, 0.72, 0.432.
    gaps = [3 - w for w, _, _ in rows]
    assert all(abs(b / a - 0.6) < 1e-12 for a, b in zip(gaps, gaps[1:]))
    for gap, text in zip(gaps, ("2", "1.2", "0.72", "0.432")):
        assert_states(PAGE, gap, text)
    assert "$2, 1.2, 0.72, 0.432, \\dots$, times $0.6$ each time" in PAGE.text


def test_table_without_zero_grad():
    rows, _ = _run(False)
    shown = [
        ("1", "16", "-16"),
        ("1.8", "5.76", "-25.6"),
        ("3.08", "0.0256", "-24.96"),
        ("4.328", "7.054336", "-14.336"),
        ("5.0448", "16.724828", "2.0224"),
    ]
    for (w, loss, grad), texts in zip(rows, shown):
        for number, text in zip((w, loss, grad), texts):
            assert_states(PAGE, number, text)
    # Step 2's own gradient is +0.64: the accumulated one is -25.6 + 0.64.
    assert_states(PAGE, 8 * 3.08 - 24, "0.64")


def test_line_fit_cells():
    ns = PAGE.run_cells()
    losses, stale = ns["losses"], ns["stale_losses"]
    assert losses[0] == stale[0] == 21.0
    assert losses[-1] < 1e-8
    assert abs(ns["model"].w[0].data - 2) < 1e-3 and abs(ns["model"].b.data - 1) < 1e-3
    assert stale[-1] > 20
    assert "$10^{-8}$" in PAGE.text


def test_learning_rate_claims():
    import math

    # MSE on x = 0..3 has curvatures the eigenvalues of [[7, 3], [3, 2]]: ceiling 2 / 8.405.
    top = (9 + math.sqrt(61)) / 2
    assert 0.2 < 2 / top < 0.3

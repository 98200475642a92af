"""Day 10: every number of the worked example, and the claims of the cells."""

import math

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day10_neuron")


def _neuron(act):
    x = [Value(1.0), Value(-2.0)]
    w = [Value(0.5), Value(0.25)]
    b = Value(0.5)
    z = w[0] * x[0] + w[1] * x[1] + b
    out = getattr(z, act)()
    out.backward()
    return z, out, w, b, x


def test_relu_worked_example():
    z, out, w, b, x = _neuron("relu")
    assert_states(PAGE, z.data, "0.5")
    assert (out.data, w[0].grad, w[1].grad, b.grad, x[0].grad, x[1].grad) == (
        0.5,
        1.0,
        -2.0,
        1.0,
        0.5,
        0.25,
    )
    for shown in (
        "$x_1 \\cdot 1 = 1$",
        "$x_2 \\cdot 1 = -2$",
        "$w_1 \\cdot 1 = 0.5$",
        "$w_2 \\cdot 1 = 0.25$",
    ):
        assert shown in PAGE.text


def test_tanh_worked_example():
    _, out, w, b, _ = _neuron("tanh")
    assert_states(PAGE, out.data, "0.462117")
    assert_states(PAGE, 1 - math.tanh(0.5) ** 2, "0.786448")
    assert_states(PAGE, w[0].grad, "0.786448")
    assert_states(PAGE, w[1].grad, "-1.572895")
    assert_states(PAGE, b.grad, "0.786448")


def test_cells_agree_with_the_table_and_ascent_raises_the_output():
    ns = PAGE.run_cells()
    assert [ns[k].grad for k in ("w1", "w2", "b", "x1", "x2")] == [1.0, -2.0, 1.0, 0.5, 0.25]
    assert ns["after"].data > ns["before"].data


def test_dead_relu_claim():
    x1, x2 = Value(-1.0), Value(-2.0)
    w1, w2, b = Value(0.5), Value(0.25), Value(0.5)
    z = w1 * x1 + w2 * x2 + b
    assert_states(PAGE, z.data, "-0.5")
    z.relu().backward()
    assert all(v.grad == 0.0 for v in (w1, w2, b, x1, x2))


def test_and_gate_claim():
    outs = [max(0.0, 1.0 * a + 1.0 * c - 1.5) for a, c in ((0, 0), (0, 1), (1, 0), (1, 1))]
    assert outs[:3] == [0.0, 0.0, 0.0] and outs[3] > 0

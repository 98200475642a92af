"""Day 11: the hand-set network's forward and backward, and parameter counts."""

import random

import pytest

from engine import Value
from engine.nn import MLP

from .pages import assert_states, lesson

PAGE = lesson("day11_mlp")


def _hand_network(x):
    # Written out with Values, independently of engine.nn.
    x = [Value(v) for v in x]
    hidden = [
        ([Value(1.0), Value(-1.0)], Value(0.5)),
        ([Value(0.5), Value(0.5)], Value(0.0)),
    ]
    zs = [w[0] * x[0] + w[1] * x[1] + b for w, b in hidden]
    hs = [z.relu() for z in zs]
    v, c = [Value(2.0), Value(-1.0)], Value(1.0)
    y = v[0] * hs[0] + v[1] * hs[1] + c
    y.backward()
    grads = [p.grad for w, b in hidden for p in (*w, b)] + [p.grad for p in (*v, c)]
    return zs, hs, y, grads


def test_worked_example():
    zs, hs, y, grads = _hand_network([1.0, 2.0])
    assert_states(PAGE, zs[0].data, "-0.5")
    assert_states(PAGE, zs[1].data, "1.5")
    assert hs[0].data == 0.0
    assert_states(PAGE, y.data, "-0.5")
    assert grads == [0.0, 0.0, 0.0, -1.0, -2.0, -1.0, 0.0, 1.5, 1.0]
    assert "$0, 0, 0$ for hidden 1; $-1, -2, -1$ for hidden 2; $0, 1.5, 1$" in PAGE.text


def test_try_this_input_brings_hidden_one_alive():
    zs, _, y, _ = _hand_network([3.0, 2.0])
    assert zs[0].data == 1.5
    assert "$y$ becomes $1.5$" in PAGE.text and y.data == 1.5


def test_parameter_counts():
    assert_states(PAGE, 16 * 3 + 16 * 17 + 17, "337")
    assert len(MLP(2, [16, 16, 1]).parameters()) == 337
    assert "48 + 272 + 17 = 337" in PAGE.text


def test_cells():
    random.seed(0)
    ns = PAGE.run_cells()
    assert ns["y"].data == -0.5
    assert [p.grad for p in ns["model"].parameters()] == [
        0.0,
        0.0,
        0.0,
        -1.0,
        -2.0,
        -1.0,
        0.0,
        1.5,
        1.0,
    ]
    assert ns["count"](2, [16, 16, 1]) == 337
    # The backward gradient agrees with the central difference, and is not a trivial zero.
    numeric = (ns["up"] - ns["down"]) / 2e-6
    assert ns["w"].grad != 0.0
    assert abs(ns["w"].grad - numeric) < 1e-6


def test_try_this_zero_bias_gradients():
    ns = PAGE.run_cells()
    net, x = ns["net"], ns["x"]
    assert len(net.layers) == 3 and [len(layer.neurons) for layer in net.layers] == [4, 4, 1]
    assert not net.layers[2].neurons[0].nonlin  # the output neuron is linear
    h1 = net.layers[0](x)
    h2 = net.layers[1](h1)
    v = [w.data for w in net.layers[2].neurons[0].w]
    grads = [[n.b.grad for n in layer.neurons] for layer in net.layers]
    # layers[1] feeds only the output neuron: its bias gradient is (ReLU slope) * v_j.
    for j, n in enumerate(net.layers[1].neurons):
        slope = 1.0 if h2[j].data > 0 else 0.0
        assert n.b.grad == pytest.approx(slope * v[j])
        assert v[j] != 0.0
        assert (n.b.grad == 0.0) == (h2[j].data == 0.0)
    # In this run some biases of both hidden layers get exactly 0, each from its own ReLU.
    assert 0.0 in grads[0] and 0.0 in grads[1]
    for j, n in enumerate(net.layers[0].neurons):
        if n.b.grad == 0.0:
            assert h1[j].data == 0.0
    text = " ".join(PAGE.text.split())
    assert "or does it feed a dead neuron" not in text
    assert "sends its output only to the output neuron, which is linear" in text

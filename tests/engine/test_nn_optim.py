"""engine.nn and engine.optim: micrograd's semantics, and real training to >= 95 %."""

import math
import random

import pytest

from engine import Value
from engine.nn import MLP, Layer, Neuron
from engine.optim import SGD, Adam


def half_moons(n, noise, rng):
    """Two interleaved half-circles, labels -1 and +1."""
    points = []
    for i in range(n):
        t = math.pi * rng.random()
        if i % 2 == 0:
            x, y, label = math.cos(t), math.sin(t), -1.0
        else:
            x, y, label = 1.0 - math.cos(t), 0.5 - math.sin(t), 1.0
        points.append(([x + rng.gauss(0, noise), y + rng.gauss(0, noise)], label))
    return points


def hinge_loss(model, data):
    scores = [model(x) for x, _ in data]
    losses = [(1.0 - label * s).relu() for (_, label), s in zip(data, scores)]
    params = model.parameters()
    l2 = 1e-4 * sum(p * p for p in params)
    loss = sum(losses) * (1.0 / len(data)) + l2
    accuracy = sum((s.data > 0) == (label > 0) for (_, label), s in zip(data, scores)) / len(data)
    return loss, accuracy


def train(optimizer_factory, steps):
    random.seed(1)
    data = half_moons(60, 0.1, random.Random(0))
    model = MLP(2, [8, 8, 1])
    optimizer = optimizer_factory(model.parameters())
    for _ in range(steps):
        loss, accuracy = hinge_loss(model, data)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return hinge_loss(model, data)[1]


@pytest.mark.slow
def test_mlp_with_sgd_momentum_separates_half_moons():
    assert train(lambda p: SGD(p, lr=0.1, momentum=0.9), steps=80) >= 0.95


@pytest.mark.slow
def test_mlp_with_adam_separates_half_moons():
    assert train(lambda p: Adam(p, lr=0.05), steps=80) >= 0.95


def test_neuron_computes_w_dot_x_plus_b():
    n = Neuron(2, nonlin=False)
    n.w[0].data, n.w[1].data, n.b.data = 2.0, -1.0, 0.5
    assert n([3.0, 4.0]).data == 2.5
    n.act = "relu"
    n.b.data = -10.0
    assert n([3.0, 4.0]).data == 0.0


def test_neuron_input_count_is_checked():
    with pytest.raises(ValueError, match="takes 3 inputs, got 2"):
        Neuron(3)([1.0, 2.0])


def test_unknown_activation():
    with pytest.raises(ValueError, match="act must be one of"):
        Neuron(2, act="gelu")


def test_parameter_counts_and_reprs():
    model = MLP(3, [4, 4, 1])
    assert len(model.parameters()) == (3 + 1) * 4 + (4 + 1) * 4 + (4 + 1) * 1
    assert repr(Neuron(3)) == "ReLUNeuron(3)"
    assert repr(Neuron(3, nonlin=False)) == "LinearNeuron(3)"
    assert repr(Neuron(3, act="tanh")) == "TanhNeuron(3)"
    assert repr(Layer(2, 2)) == "Layer of [ReLUNeuron(2), ReLUNeuron(2)]"
    assert repr(model).startswith("MLP of [Layer of [ReLUNeuron(3)")
    assert repr(model).endswith("Layer of [LinearNeuron(4)]]")
    assert isinstance(model([1.0, 2.0, 3.0]), Value)
    assert len(MLP(3, [4, 2])([1.0, 2.0, 3.0])) == 2


def test_module_zero_grad():
    model = MLP(2, [3, 1])
    model([1.0, -1.0]).backward()
    assert any(p.grad != 0.0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_sgd_step_follows_the_formula():
    p = Value(1.0)
    opt = SGD([p], lr=0.1, momentum=0.5)
    p.grad = 2.0
    opt.step()  # v = 2, p = 1 - 0.2
    assert p.data == pytest.approx(0.8)
    opt.step()  # v = 0.5 * 2 + 2 = 3, p = 0.8 - 0.3
    assert p.data == pytest.approx(0.5)
    opt.zero_grad()
    assert p.grad == 0.0


def test_adam_first_step_moves_by_lr_whatever_the_gradient_scale():
    # With bias correction, the first step is lr * g / |g| (up to eps).
    for g in (1e-3, 1.0, 1e3):
        p = Value(0.0)
        opt = Adam([p], lr=0.01)
        p.grad = g
        opt.step()
        assert p.data == pytest.approx(-0.01, rel=1e-4)


def test_adam_matches_the_published_update_for_several_steps():
    p = Value(0.5)
    opt = Adam([p], lr=0.1, betas=(0.9, 0.999), eps=1e-8)
    m = v = 0.0
    x = 0.5
    for t in range(1, 6):
        g = 2 * x  # gradient of x**2
        p.grad = 2 * p.data
        opt.step()
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        x -= 0.1 * (m / (1 - 0.9**t)) / (math.sqrt(v / (1 - 0.999**t)) + 1e-8)
        assert p.data == pytest.approx(x)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: SGD([], lr=0.1), "no parameters"),
        (lambda: SGD([Value(1.0)], lr=0.0), "learning rate must be positive"),
        (lambda: SGD([Value(1.0)], momentum=1.5), "momentum"),
        (lambda: Adam([Value(1.0)], betas=(1.2, 0.9)), "betas"),
    ],
)
def test_optimizer_arguments_are_checked(make, message):
    with pytest.raises(ValueError, match=message):
        make()

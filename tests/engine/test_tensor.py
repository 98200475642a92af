"""engine.tensor: every operation's numbers and gradients agree with the scalar engine
(the same computation spelled out in Values) and with central differences."""

import math
import random

import pytest

from engine import Value
from engine.batched import Adam, examples, init_mlp_lm
from engine.gpt import cross_entropy as value_cross_entropy
from engine.gpt import softmax as value_softmax
from engine.tensor import Tensor, broadcast_shape, cross_entropy, softmax


def _values(t):
    """The tensor's numbers as nested lists of fresh leaf Values."""

    def nest(flat, shape):
        if not shape:
            return flat[0]
        step = len(flat) // shape[0]
        return [nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]

    return nest([Value(x) for x in t.data], t.shape)


def _flat(nested):
    if isinstance(nested, list):
        return [x for item in nested for x in _flat(item)]
    return [nested]


def _central(f, tensors, eps=1e-6):
    """d f() / d every number of every tensor, by central differences."""
    out = []
    for t in tensors:
        grads = []
        for i in range(len(t.data)):
            old = t.data[i]
            t.data[i] = old + eps
            up = f().item()
            t.data[i] = old - eps
            down = f().item()
            t.data[i] = old
            grads.append((up - down) / (2 * eps))
        out.append(grads)
    return out


def _check(f, tensors):
    for t in tensors:
        t.zero_grad()
    f().backward()
    for t, numeric in zip(tensors, _central(f, tensors)):
        assert t.grad == pytest.approx(numeric, rel=1e-5, abs=1e-6)


RNG = random.Random(31)


def _rand(*shape, low=-2.0, high=2.0):
    n = math.prod(shape)
    return Tensor([RNG.uniform(low, high) for _ in range(n)], shape)


def test_a_tensor_is_flat_numbers_and_a_shape():
    x = Tensor([[1, 2, 3], [4, 5, 6]])
    assert x.shape == (2, 3) and x.data == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert x.transpose().tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert x.reshape(3, -1).tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


@pytest.mark.parametrize(
    "a, b, out",
    [
        ((2, 3), (3,), (2, 3)),
        ((4, 1), (1, 5), (4, 5)),
        ((2, 1, 3), (4, 1), (2, 4, 3)),
        ((), (2,), (2,)),
    ],
)
def test_broadcast_shapes_line_up_from_the_right(a, b, out):
    assert broadcast_shape(a, b) == out == broadcast_shape(b, a)


def test_shapes_that_cannot_broadcast_say_which_axis():
    with pytest.raises(ValueError, match=r"axis -1 has sizes 3 and 2"):
        Tensor([[1.0, 2.0, 3.0]]) + Tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="last axis of the left"):
        _rand(2, 3) @ _rand(2, 3)
    with pytest.raises(ValueError, match="one number"):
        _rand(2, 2).backward()
    with pytest.raises(ValueError, match="one shape"):
        Tensor([[1.0, 2.0], [3.0]])


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_broadcast_arithmetic_is_the_scalar_engine_element_by_element(op):
    a, b = _rand(2, 3), _rand(3, low=0.5, high=2.0)
    out = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
    av, bv = _values(a), _values(b)
    f = {"+": Value.__add__, "-": Value.__sub__, "*": Value.__mul__, "/": Value.__truediv__}[op]
    expected = [[f(av[i][j], bv[j]) for j in range(3)] for i in range(2)]
    assert out.data == pytest.approx([v.data for v in _flat(expected)])
    # the gradient of the sum: b, broadcast over two rows, gets both rows' gradients
    out.sum().backward()
    sum(_flat(expected)).backward()
    assert a.grad == pytest.approx([v.grad for v in _flat(av)])
    assert b.grad == pytest.approx([v.grad for v in _flat(bv)])


def test_matmul_is_the_scalar_engine_and_its_backward_the_transposes():
    a, b = _rand(3, 4), _rand(4, 2)
    out = a @ b
    av, bv = _values(a), _values(b)
    expected = [[sum(av[i][k] * bv[k][j] for k in range(4)) for j in range(2)] for i in range(3)]
    assert out.data == pytest.approx([v.data for v in _flat(expected)])
    weights = _rand(3, 2)
    (out * weights).sum().backward()
    sum(w * v for w, v in zip(weights.data, _flat(expected))).backward()
    assert a.grad == pytest.approx([v.grad for v in _flat(av)])
    assert b.grad == pytest.approx([v.grad for v in _flat(bv)])


@pytest.mark.parametrize(
    "name, make",
    [
        ("batched matmul", lambda a, b: (a @ b).tanh().sum()),
        ("sum over an axis", lambda a, b: (a.sum(axis=1, keepdims=True) * a).mean()),
        ("mean over axis 0", lambda a, b: (a.mean(axis=0) ** 2).sum()),
        ("softmax", lambda a, b: (softmax(a, axis=-1) * a).sum()),
        ("exp, log, relu", lambda a, b: ((a.exp() + 1).log() * a.relu()).sum()),
        ("permute", lambda a, b: (a.permute(2, 0, 1) * a.permute(2, 0, 1).tanh()).sum()),
        ("masked fill", lambda a, b: softmax(a.masked_fill([[False, True, True]] * 4, -1e9)).sum()),
    ],
)
def test_every_operation_matches_central_differences(name, make):
    a, b = _rand(2, 4, 3), _rand(2, 3, 5)
    _check(lambda: make(a, b), [a, b] if "batched" in name else [a])


def test_rows_gathers_embeddings_and_adds_gradients_of_repeated_rows():
    table = _rand(5, 2)
    picked = table.rows([[1, 1], [4, 0]])
    assert picked.shape == (2, 2, 2)
    assert picked.tolist()[0][1] == table.tolist()[1]
    picked.sum().backward()
    assert table.grad == [1.0, 1.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]
    with pytest.raises(IndexError, match="row 5"):
        table.rows([5])


def test_cross_entropy_is_the_scalar_engines_mean():
    logits, targets = _rand(4, 6), [0, 5, 2, 2]
    loss = cross_entropy(logits, targets)
    values = _values(logits)
    scalar = sum(value_cross_entropy(row, t) for row, t in zip(values, targets)) * 0.25
    assert loss.item() == pytest.approx(scalar.data)
    loss.backward()
    scalar.backward()
    assert logits.grad == pytest.approx([v.grad for v in _flat(values)])
    p = softmax(logits).tolist()[1]
    assert p == pytest.approx([v.data for v in value_softmax(values[1])])


def test_the_batched_mlp_is_day_21s_model_on_the_same_weights():
    model = init_mlp_lm(vocab_size=7, block_size=3, n_embd=2, n_hidden=5, seed=3)
    X, Y = examples([[6, 1, 2, 3, 6], [6, 4, 6]], 3, 6)
    assert X[:2] == [[6, 6, 6], [6, 6, 1]] and Y == [1, 2, 3, 6, 4, 6]
    C, W1, b1, W2, b2 = (_values(p) for p in model.parameters())

    def scalar_logits(context):
        x = [v for token in context for v in C[token]]
        h = [(sum(w * xi for w, xi in zip(row, x)) + b).tanh() for row, b in zip(W1, b1)]
        return [sum(w * hi for w, hi in zip(row, h)) + b for row, b in zip(W2, b2)]

    scalar = sum(value_cross_entropy(scalar_logits(x), y) for x, y in zip(X, Y)) * (1 / len(X))
    loss = model.loss(X, Y)
    assert loss.item() == pytest.approx(scalar.data)
    loss.backward()
    scalar.backward()
    for tensor, values in zip(model.parameters(), (C, W1, b1, W2, b2)):
        assert tensor.grad == pytest.approx([v.grad for v in _flat(values)], abs=1e-12)


def test_adam_on_tensors_lowers_the_loss():
    model = init_mlp_lm(vocab_size=5, block_size=2, n_embd=2, n_hidden=4, seed=1)
    X, Y = examples([[4, 0, 1, 2, 4], [4, 3, 4]], 2, 4)
    optimizer = Adam(model.parameters(), lr=0.05)
    first = model.loss(X, Y).item()
    for _ in range(30):
        optimizer.zero_grad()
        model.loss(X, Y).backward()
        optimizer.step()
    assert model.loss(X, Y).item() < first - 0.5

"""Every operation against central differences, and the cases where that is not enough."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Value
from engine.gradcheck import gradcheck

reals = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)
positives = st.floats(min_value=0.1, max_value=5.0)
away_from_zero = reals.filter(lambda x: abs(x) > 0.05)

UNARY = {
    "neg": (lambda x: -x, reals),
    "exp": (lambda x: x.exp(), reals),
    "log": (lambda x: x.log(), positives),
    "tanh": (lambda x: x.tanh(), reals),
    "relu": (lambda x: x.relu(), away_from_zero),
    "square": (lambda x: x**2, reals),
    "cube": (lambda x: x**3, reals),
    "reciprocal": (lambda x: x**-1, away_from_zero),
    "rsqrt": (lambda x: x**-0.5, positives),
    "sqrt": (lambda x: x**0.5, positives),
}

BINARY = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y,
    "radd": lambda x, y: 2.5 + x * y,
    "rsub": lambda x, y: 2.5 - x * y,
    "rmul": lambda x, y: 2.5 * (x + y),
    "rdiv": lambda x, y: 2.5 / y + x,
}


@pytest.mark.parametrize("name", UNARY)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_unary_matches_central_differences(name, data):
    f, strategy = UNARY[name]
    x = data.draw(strategy)
    result = gradcheck(lambda v: f(v[0]), [x])
    assert result.ok, f"{name} at x={x}\n{result}"


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=40, deadline=None)
@given(x=reals, y=away_from_zero)
def test_binary_matches_central_differences(name, x, y):
    result = gradcheck(lambda v: BINARY[name](v[0], v[1]), [x, y])
    assert result.ok, f"{name} at x={x}, y={y}\n{result}"


@pytest.mark.parametrize(
    "name, f, x, expected_data",
    [
        ("exp", lambda v: v.exp(), 1.0, math.e),
        ("log", lambda v: v.log(), math.e, 1.0),
        ("tanh", lambda v: v.tanh(), 0.0, 0.0),
        ("relu", lambda v: v.relu(), -2.0, 0.0),
        ("pow", lambda v: v**3, 2.0, 8.0),
    ],
)
def test_forward_values(name, f, x, expected_data):
    assert f(Value(x)).data == pytest.approx(expected_data)


def test_relu_at_zero_passes_no_gradient():
    x = Value(0.0)
    y = x.relu()
    y.backward()
    assert y.data == 0.0
    assert x.grad == 0.0


def test_reuse_x_plus_x_and_x_times_x():
    x = Value(3.0)
    (x + x).backward()
    assert x.grad == 2.0
    y = Value(3.0)
    (y * y).backward()
    assert y.grad == 6.0


def test_diamond():
    # x feeds two branches that merge again: both paths must add up.
    x = Value(1.5)
    left, right = x * 2.0, x.exp()
    out = left * right
    out.backward()
    expected = 2.0 * math.exp(1.5) + 2.0 * 1.5 * math.exp(1.5)
    assert x.grad == pytest.approx(expected)


def test_upstream_gradient_other_than_one_is_multiplied_in():
    # y = 3 * (a * b): the product sees an upstream gradient of 3.
    a, b = Value(2.0), Value(-4.0)
    y = 3.0 * (a * b)
    y.backward()
    assert (a.grad, b.grad) == (-12.0, 6.0)


def test_sum_of_values():
    xs = [Value(float(i)) for i in range(5)]
    total = sum(xs)
    total.backward()
    assert total.data == 10.0
    assert [x.grad for x in xs] == [1.0] * 5


def test_children_are_an_ordered_tuple():
    a, b = Value(1.0), Value(2.0)
    c = a * b
    assert c._children == (a, b)
    assert c._op == "*"
    d = b * a
    assert d._children == (b, a)


def test_label_shows_in_repr():
    assert repr(Value(2.0, label="a")) == "Value(a: data=2.0, grad=0.0)"
    assert repr(Value(2.0)) == "Value(data=2.0, grad=0.0)"


def test_integers_are_accepted_as_data():
    v = Value(2) * 3
    assert v.data == 6.0
    assert isinstance(v.data, float)

"""engine.graph.trace and engine.gradcheck."""

import json

from engine import Value
from engine.gradcheck import assert_gradients, gradcheck, numerical_grad
from engine.graph import trace


def test_trace_of_a_plus_b_times_c():
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    s = a + b
    L = s * c
    L.backward()
    g = trace(L)
    json.dumps(g)  # plain data only
    nodes = g["nodes"]
    assert [n["id"] for n in nodes] == list(range(5))
    assert nodes[g["root"]]["data"] == -10.0 and g["root"] == 4
    by_label = {n["label"]: n for n in nodes if n["label"]}
    assert by_label["c"]["grad"] == -1.0 and by_label["a"]["grad"] == 10.0
    position = {n["id"]: i for i, n in enumerate(nodes)}
    for e in g["edges"]:
        assert position[e["source"]] < position[e["target"]]
    into_root = {
        nodes[e["source"]]["op"] or nodes[e["source"]]["label"]: e["local_grad"]
        for e in g["edges"]
        if e["target"] == g["root"]
    }
    assert into_root == {"+": 10.0, "c": -1.0}  # d(s*c)/ds = c, d(s*c)/dc = s


def test_trace_counts_a_reused_input_once():
    a = Value(3.0, label="a")
    g = trace(a * a)
    assert len(g["nodes"]) == 2
    assert len(g["edges"]) == 2


def test_gradcheck_passes_a_correct_function_and_reports():
    result = gradcheck(lambda v: (v[0] * v[1]).tanh() + v[0].exp(), [0.3, -0.7])
    assert result.ok
    assert "gradients agree" in str(result)


def test_gradcheck_catches_a_wrong_gradient():
    def wrong(v):
        x = v[0]
        out = x * x
        out._local_grads = (0.5 * x.data, 0.5 * x.data)  # d(x*x)/dx should total 2x, not x
        return out

    result = gradcheck(wrong, [1.5])
    assert not result.ok
    assert "DIFFER" in str(result)
    try:
        assert_gradients(wrong, [1.5])
    except AssertionError as error:
        assert "differs" in str(error)
    else:
        raise AssertionError("assert_gradients accepted a wrong gradient")


def test_numerical_grad_of_a_square():
    (g,) = numerical_grad(lambda v: v[0] ** 2, [3.0])
    assert abs(g - 6.0) < 1e-6

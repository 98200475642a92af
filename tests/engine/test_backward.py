"""The backward pass: order, depth, accumulation across calls, and zero_grad."""

import sys

from engine import Value, zero_grad


def test_deep_chain_needs_no_recursion():
    assert sys.getrecursionlimit() <= 10_000
    x = Value(1.0)
    y = x
    for _ in range(100_000):  # two nodes per step: 200,000 nodes
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad == 1.0


def test_topological_order_puts_children_first_and_root_last():
    a, b = Value(1.0), Value(2.0)
    c = a * b
    d = c + a
    e = d * c
    order = e.topological_order()
    assert order[-1] is e
    position = {id(v): i for i, v in enumerate(order)}
    for v in order:
        for child in v._children:
            assert position[id(child)] < position[id(v)]
    assert len(order) == len({id(v) for v in order}) == 5


def test_topological_order_is_deterministic():
    def build():
        a, b, c = Value(1.0), Value(2.0), Value(3.0)
        return (a * b + c) * (a + b)

    def ops(root):
        return [(v._op, v.data) for v in root.topological_order()]

    assert ops(build()) == ops(build())


def test_leaf_gradients_accumulate_across_calls():
    a, b = Value(2.0), Value(3.0)
    L = a * b + a
    L.backward()
    L.backward()
    assert (a.grad, b.grad) == (8.0, 4.0)


def test_intermediate_gradients_show_the_latest_pass():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    L = c + a
    L.backward()
    L.backward()
    assert c.grad == 1.0
    assert L.grad == 1.0


def test_zero_grad_resets_leaves():
    a, b = Value(2.0), Value(3.0)
    (a * b).backward()
    zero_grad([a, b])
    assert (a.grad, b.grad) == (0.0, 0.0)
    (a * b).backward()
    assert (a.grad, b.grad) == (3.0, 2.0)


def test_backward_on_a_leaf():
    a = Value(5.0)
    a.backward()
    assert a.grad == 1.0


def test_graph_has_no_reference_cycles():
    import gc

    gc.collect()
    gc.disable()
    try:
        a = Value(1.0)
        y = a
        for _ in range(1000):
            y = (y * 1.0001).tanh() + a
        y.backward()
        del y, a
        assert gc.collect() == 0, "the graph left objects only the cycle collector could free"
    finally:
        gc.enable()

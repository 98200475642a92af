"""Day 6: topological order and backward() on L = d*e, d = e + c, e = a*b."""

import pytest

from engine import Value

from .pages import lesson

PAGE = lesson("day06_backward")


@pytest.fixture
def cells():
    # Function scope: some tests rerun the backward pass in other orders.
    return PAGE.run_cells()


def build():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    e = a * b
    d = e + c
    L = d * e
    return a, b, c, e, d, L


def recursive_order(root):
    order, seen = [], set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            for child in v._children:
                visit(child)
            order.append(v)

    visit(root)
    return order


def test_badge():
    assert "Phase 1 · Foundations · Day 6 of 30" in PAGE.text


def test_worked_example_forward_and_gradients():
    a, b, c, e, d, L = build()
    assert (e.data, d.data, L.data) == (-6.0, 4.0, -24.0)
    L.backward()
    assert (a.grad, b.grad, c.grad, e.grad, d.grad) == (6.0, -4.0, -6.0, -2.0, -6.0)
    assert "$L = d \\cdot e = -24$" in PAGE.text
    text = PAGE.text
    assert "$d$ gets $e = -6$; $e$ gets $d = 4$" in text
    assert "now $4 + (-6) = -2$; $c$ gets $-6$" in text
    assert "$a$ gets $-2 \\cdot (-3) = 6$; $b$ gets $-2 \\cdot 2 = -4$" in text
    # Closed form the page quotes: dL/da = b(2ab + c).
    assert -3 * (2 * 2 * -3 + 10) == 6
    assert "$\\frac{\\partial L}{\\partial a} = b(2ab + c) = -3 \\cdot (-2) = 6$" in text


def test_depth_first_order_is_the_one_the_page_lists():
    a, b, c, e, d, L = build()
    names = {id(a): "a", id(b): "b", id(c): "c", id(e): "e", id(d): "d", id(L): "L"}
    order = [names[id(v)] for v in recursive_order(L)]
    assert order == ["a", "b", "e", "c", "d", "L"]
    assert "places\n$a, b, e, c, d, L$" in PAGE.text or "places $a, b, e, c, d, L$" in PAGE.text
    assert "runs $L, d, c, e, b, a$" in PAGE.text


def test_wrong_order_numbers(cells):
    # e before d: e passes on only d's value 4.
    assert 4 * -3 == -12 and 4 * 2 == 8
    assert "$a$ gets $4 \\cdot (-3) = -12$ and $b$ gets $4 \\cdot 2 = 8$" in PAGE.text
    run_backward, L, e, d, a, b, c = (
        cells[k] for k in ("run_backward", "L", "e", "d", "a", "b", "c")
    )
    run_backward(L, [L, e, d, c, b, a])
    assert (a.grad, b.grad) == (-12.0, 8.0)


def test_cells_right_order_and_backward_agree(cells):
    order = cells["order"]
    position = {id(v): i for i, v in enumerate(order)}
    assert all(position[id(ch)] < position[id(v)] for v in order for ch in v._children)
    a, b, c = cells["a"], cells["b"], cells["c"]
    assert (a.grad, b.grad, c.grad) == (6.0, -4.0, -6.0)  # after the last cell's L.backward()


def test_try_this_orders(cells):
    run_backward, L, e, d, a, b, c = (
        cells[k] for k in ("run_backward", "L", "e", "d", "a", "b", "c")
    )
    run_backward(L, [L, d, e, c, b, a])
    assert (a.grad, b.grad, c.grad) == (6.0, -4.0, -6.0)
    run_backward(L, [d, L, e, c, b, a])
    assert (a.grad, b.grad, c.grad) != (6.0, -4.0, -6.0)


def _chain(n_ops):
    x = Value(0.3)
    for i in range(n_ops):  # as the grader's chain: * 0.9, + 0.1, * 0.9, ...
        x = x * 0.9 if i % 2 == 0 else x + 0.1
    return x


def test_recursion_hint_is_true():
    import random
    import sys

    from grader.checks import day06_backward as checks

    hint = next(h for h in PAGE.exercises[0]["hints"] if "RecursionError" in h)
    assert "its deepest check is a chain of 400 operations" in hint
    assert "about 1,000 nested calls" in hint and "day 29" in hint
    # The grader's deepest program, public or hidden, has 400 operations.
    cases = checks.public_cases() + checks.hidden_cases(random.Random(0))
    programs = [c["inputs"]["program"] for c in cases if c["kind"] == "program"]
    assert max(len(p["ops"]) for p in programs) == 400
    assert sys.getrecursionlimit() == 1000
    # A recursive sort handles 400 operations and fails at a few thousand.
    assert len(recursive_order(_chain(400))) > 400
    with pytest.raises(RecursionError):
        recursive_order(_chain(3000))

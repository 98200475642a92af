"""Day 29: the worked example's tuples and gradients, and every claim the race cells make."""

import gc
import weakref

import pytest

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day29_making_it_fast")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_worked_example_stated():
    a, b = Value(2.0), Value(3.0)
    p = a * b
    d = p + a
    assert p._local_grads == (3.0, 2.0) and d._local_grads == (1.0, 1.0)
    assert_states(PAGE, p.data, "6")
    assert_states(PAGE, d.data, "8")
    d.backward()
    assert_states(PAGE, a.grad, "4")
    assert_states(PAGE, b.grad, "2")
    assert "| $p = a \\cdot b$ | 6 | $(a, b)$ | $(3, 2)$ |" in PAGE.text
    assert "| $d = p + a$ | 8 | $(p, a)$ | $(1, 1)$ |" in PAGE.text


def test_hand_written_loop_matches_backward(namespace):
    assert namespace["a"].grad == 4.0 and namespace["b"].grad == 2.0  # the textbook class agrees


def test_both_classes_give_the_same_gradients(namespace):
    closure = namespace["ClosureValue"]
    for V in (Value, closure):
        x, y = V(0.7), V(-1.3)
        z = (x * y + x).tanh() * y
        z.backward()
        if V is Value:
            expected = (x.grad, y.grad)
        else:
            assert (x.grad, y.grad) == pytest.approx(expected)


def test_the_engine_wins_the_race(namespace):
    # the page says the engine comes out ahead (its margin, about 2x here, varies by machine)
    assert namespace["speedup"] > 1.0
    assert len(namespace["network"](Value).topological_order()) > 6000  # "about 7,000 nodes"


def test_slots_are_smaller(namespace):
    assert namespace["slot_bytes"] < namespace["dict_bytes"]


def test_recursive_sort_fails_where_the_iterative_one_works(namespace):
    assert namespace["recursion_failed"]
    x, total = namespace["deep_chain"](Value)
    total.backward()
    assert x.grad == pytest.approx(1 + 0.001 * namespace["depth"])


def test_only_closure_graphs_need_the_cycle_collector(namespace):
    assert namespace["engine_left"] == 0
    assert namespace["closure_left"] > 7000  # at least every node of the graph


def test_fused_nodes_are_fewer_and_agree(namespace):
    results, grads, x = namespace["results"], namespace["grads"], namespace["x"]
    assert results["fused"][1] < results["composed"][1] / 2
    assert results["fused"][0] < results["composed"][0]  # "wins ... by a wide margin"
    assert grads["composed"] == pytest.approx(x[4].data) == grads["fused"]


def test_in_a_textbook_graph_the_operation_nodes_are_in_loops_and_the_leaves_are_not(namespace):
    root = namespace["network"](namespace["ClosureValue"])
    nodes, stack, seen = [], [root], set()
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen.add(id(v))
            nodes.append(v)
            stack.extend(v._prev)

    def refers_back(v):
        cells = v._backward.__closure__ or ()
        return any(cell.cell_contents is v for cell in cells)

    leaves = [v for v in nodes if not v._prev]
    made = [v for v in nodes if v._prev]
    assert leaves and made
    assert all(refers_back(v) for v in made)  # out -> _backward -> out
    assert not any(refers_back(v) for v in leaves)  # a leaf's _backward holds nothing
    # The leaves still wait for the collector: dropping the graph does not free them.
    alive = [weakref.ref(v) for v in leaves]
    gc.disable()  # no automatic collection between the two looks
    try:
        del root, nodes, stack, leaves, made, v
        assert all(r() is not None for r in alive)
        gc.collect()
        assert all(r() is None for r in alive)
    finally:
        gc.enable()
    text = " ".join(PAGE.text.split())
    assert (
        "The leaves are in no loop; in this benchmark, which makes fresh leaves on each call, only those loops refer to them"
        in text
    )
    assert "leave every node in a loop" not in text

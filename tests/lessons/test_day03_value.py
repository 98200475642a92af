"""Day 3: the remembering Value and the forward pass of L = (a*b + c)*f."""

import pytest

from course import TOTAL_DAYS
from engine import Value
from engine.graph import trace

from .pages import assert_states, lesson

PAGE = lesson("day03_value")


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 3 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_forward_table_matches_engine():
    a, b, c, f = Value(2.0), Value(-3.0), Value(10.0), Value(-2.0)
    e = a * b
    d = e + c
    L = d * f
    assert (e.data, d.data, L.data) == (-6.0, 4.0, -8.0)
    assert "$2 \\cdot (-3) = -6$" in PAGE.text
    assert "$-6 + 10 = 4$" in PAGE.text
    assert "$4 \\cdot (-2) = -8$" in PAGE.text
    assert_states(PAGE, L.data, "−8")
    # The figure draws every node with its value.
    for name, value in (("e", "−6"), ("d", "4"), ("L", "−8"), ("c", "10")):
        assert f'<tspan font-weight="bold">{name}</tspan> = {value}</text>' in PAGE.text


def test_local_grads_the_page_quotes():
    a, b, c, f = Value(2.0), Value(-3.0), Value(10.0), Value(-2.0)
    d = a * b + c
    L = d * f
    assert L._local_grads == (-2.0, 4.0)
    assert d._local_grads == (1.0, 1.0)
    assert "$\\partial L/\\partial d = f = -2$" in PAGE.text
    assert "$\\partial L/\\partial f = d = 4$" in PAGE.text


def test_learner_value_records_children_and_op(cells):
    L, d, e = cells["L"], cells["d"], cells["e"]
    a, b, c, f = (cells[n] for n in "abcf")
    assert L._op == "*" and L._prev == (d, f)
    assert d._op == "+" and d._prev == (e, c)
    assert e._prev[0] is a and e._prev[1] is b
    assert a._prev == () and a._op == ""
    assert L.data == -8.0
    # Numbers on either side are wrapped.
    V = cells["Value"]
    assert (2 * a).data == 4.0 and (a + 1).data == 3.0 and (10 + a)._op == "+"
    assert isinstance((2 * a)._prev[1], V)


def test_forgetful_number_keeps_nothing(cells):
    assert vars(cells["s"]) == {"data": 4.0}


def test_try_this_reused_leaf_is_one_object(cells):
    a = cells["a"]
    g = a * a + a
    assert g._prev[1] is g._prev[0]._prev[0]


def test_engine_cell_graph(cells):
    graph = trace(cells["eL"])
    assert [n["data"] for n in graph["nodes"]][-1] == -8.0
    assert len(graph["nodes"]) == 7 and len(graph["edges"]) == 6
    # every edge goes from an earlier node to a later one: children first
    assert all(e["source"] < e["target"] for e in graph["edges"])

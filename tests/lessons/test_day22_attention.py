"""Day 22: the worked example of one attention head, computed here with plain floats and exact
central differences, and the claims of the cells (agreement with engine.gpt, causality, scale)."""

import math

import pytest

from .pages import assert_states, lesson

PAGE = lesson("day22_attention")
Q = [2.0, 0.0, 2.0, 0.0]
KEYS = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
VALUES = [[1, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 1]]


def head(q):
    s = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in KEYS]
    e = [math.exp(x) for x in s]
    a = [x / sum(e) for x in e]
    o = [sum(a[t] * VALUES[t][j] for t in range(3)) for j in range(4)]
    return s, a, o


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_forward_numbers():
    s, a, o = head(Q)
    assert s == [2.0, 0.0, 1.0]
    assert "| 0 | $[1, 0, 1, 0]$ | $[1, 0, 0, 2]$ | 4 | 2 |" in PAGE.text
    assert "a = [0.665241, 0.090031, 0.244728]" in PAGE.text
    for ai, shown in zip(a, ("0.665241", "0.090031", "0.244728")):
        assert_states(PAGE, ai, shown)
    assert_states(PAGE, o[3], "1.575210")
    assert "[0.665241,\\ 0.090031,\\ 0.244728,\\ 1.575210]" in PAGE.text


def test_backward_numbers():
    _, a, _ = head(Q)
    ds = [a[0] * ((t == 0) - a[t]) for t in range(3)]
    for g, shown in zip(ds, ("0.222695", "-0.059892", "-0.162803")):
        assert_states(PAGE, g, shown)
    # dL/dq by central differences of L = o_0, no formula involved
    h = 1e-6
    grads = []
    for i in range(4):
        up, down = list(Q), list(Q)
        up[i] += h
        down[i] -= h
        grads.append((head(up)[2][0] - head(down)[2][0]) / (2 * h))
    assert "[\\,0.029946,\\ -0.111348,\\ 0.111348,\\ -0.029946\\,]" in PAGE.text
    for g, shown in zip(grads, ("0.029946", "-0.111348", "0.111348", "-0.029946")):
        assert_states(PAGE, g, shown)
    assert max(range(4), key=grads.__getitem__) == 2  # "its third number ... largest"


def test_first_cell_gradients():
    ns = {}
    exec(PAGE.cells[0], ns)
    assert [qi.grad for qi in ns["q"]] == pytest.approx(
        [0.029946, -0.111348, 0.111348, -0.029946], abs=1e-6
    )
    assert [v.grad for v in ns["values"][0]] == pytest.approx([0.665241, 0, 0, 0], abs=1e-6)


def test_scale_measurement():
    ns = {}
    exec(PAGE.cells[0], ns)
    exec(PAGE.cells[1], ns)
    runs = {}
    for label, scale in (("unscaled", 1.0), ("scaled", 0.25)):
        r = [ns["weights_of"](scale) for _ in range(ns["trials"])]
        spread = math.sqrt(sum(x * x for s, _ in r for x in s) / (ns["trials"] * ns["n_keys"]))
        peak = sum(max(w) for _, w in r) / ns["trials"]
        runs[label] = spread, peak
    assert 3.5 < runs["unscaled"][0] < 4.5 and 0.85 < runs["scaled"][0] < 1.15
    assert 0.65 < runs["unscaled"][1] < 0.85  # "about three quarters"
    assert runs["scaled"][1] < 0.5


def test_causal_heads_agree_with_engine(namespace):
    keys, vals = namespace["keys"], namespace["vals"]
    assert len(keys) == len(namespace["tokens"]) == 5
    gpt = namespace["gpt"]
    # the page's own head and engine.gpt's agree at the last position, over all five keys
    mine, w = namespace["attention_head"](namespace["q"], keys, vals)
    theirs = gpt.attention_head(namespace["q"], keys, vals)
    assert [a.data for a in mine] == pytest.approx([b.data for b in theirs], abs=1e-12)
    assert sum(x.data for x in w) == pytest.approx(1.0)

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


def test_first_cell_is_the_worked_example_unrolled():
    """The cell names the example's three scores and weights; it defines no general head (that
    is the exercise), and its numbers are engine.gpt.attention_head's."""
    ns = {}
    exec(PAGE.cells[0], ns)
    assert "attention_head" not in ns and "attention_scores" not in ns
    assert [ns[s].data for s in ("s0", "s1", "s2")] == [2.0, 0.0, 1.0]
    _, a, o = head(Q)
    assert [ns[w].data for w in ("a0", "a1", "a2")] == pytest.approx(a, abs=1e-12)
    assert [x.data for x in ns["out"]] == pytest.approx(o, abs=1e-12)
    theirs = ns["gpt"].attention_head(ns["q"], ns["keys"], ns["values"])
    assert [x.data for x in ns["theirs"]] == [x.data for x in theirs]
    assert [x.data for x in theirs] == pytest.approx(o, abs=1e-12)
    assert "with `engine.gpt.attention_head`, the head the course's GPT uses" in " ".join(
        PAGE.text.split()
    )


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


def test_causal_weights_are_those_of_engine_gpt(namespace):
    keys, vals = namespace["keys"], namespace["vals"]
    assert len(keys) == len(namespace["tokens"]) == 5
    gpt = namespace["gpt"]
    # the weights the cell prints at the last position, over all five keys, are the ones behind
    # engine.gpt's output: that output is their weighted sum of the values
    w = [x.data for x in namespace["w"]]
    assert len(w) == 5 and sum(w) == pytest.approx(1.0)
    theirs = gpt.attention_head(namespace["q"], keys, vals)
    assert [o.data for o in namespace["out"]] == [o.data for o in theirs]
    blend = [sum(w[t] * vals[t][j].data for t in range(5)) for j in range(4)]
    assert [o.data for o in theirs] == pytest.approx(blend, abs=1e-12)
    assert "attention_head" not in namespace  # the page defines no general head


def test_causal_weights_of_the_two_ms_differ(namespace):
    """The question same-token-different-weights: equal queries, three keys against four."""
    ns = namespace
    tokens = ns["tokens"]
    assert tokens[2] == tokens[3]  # BOS e m m: positions 2 and 3 read the same token
    weights = []
    for n in (2, 3):
        q = ns["gpt"].linear(ns["wte"][tokens[n]], ns["Wq"])
        weights.append(
            [x.data for x in ns["softmax"]([ns["dot"](q, k) / 2 for k in ns["keys"][: n + 1]])]
        )
    assert len(weights[0]) == 3 and len(weights[1]) == 4
    assert weights[0] != pytest.approx(weights[1][:3])
    # the extra key takes a share: the ratios of the other weights stay the same
    for i in range(3):
        assert weights[1][i] / weights[1][0] == pytest.approx(weights[0][i] / weights[0][0])
    assert weights[1][0] < weights[0][0]


def test_positions_are_subscripts_and_numbers_are_brackets():
    # o_n is position n's output; its first number is o_2[0], never "o_0" (position 0's output).
    assert "o_0" not in PAGE.text and "v_{0,0}" not in PAGE.text
    assert "$L = o_2[0]$" in PAGE.text
    day23 = lesson("day23_multi_head").text
    assert "o_0" not in day23 and "q_0" not in day23 and "k_{0,0}" not in day23
    assert "$L = o[0]$" in day23

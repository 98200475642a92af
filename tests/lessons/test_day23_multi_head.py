"""Day 23: the worked example's numbers, computed here with plain floats, and the cells' claims."""

import math

import pytest

from .pages import assert_states, lesson

PAGE = lesson("day23_multi_head")
Q = [1, 1, 0, 2]
KEYS = [[1, 1, 0, 0], [0, 0, 1, 1]]
VALUES = [[1, 0, 2, 0], [0, 1, 0, 2]]


def head(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    exps = [math.exp(s) for s in scores]
    weights = [e / sum(exps) for e in exps]
    out = [sum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))]
    return scores, weights, out


def sliced(vectors, lo, hi):
    return [v[lo:hi] for v in vectors]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_one_head_blurs():
    scores, weights, out = head(Q, KEYS, VALUES)
    assert scores == [1.0, 1.0]
    assert weights == [0.5, 0.5]
    assert out == [0.5, 0.5, 1.0, 1.0]
    assert "[0.5, 0.5, 1, 1]" in PAGE.text


def test_two_heads_numbers_stated():
    s0, w0, o0 = head(Q[:2], sliced(KEYS, 0, 2), sliced(VALUES, 0, 2))
    s1, w1, o1 = head(Q[2:], sliced(KEYS, 2, 4), sliced(VALUES, 2, 4))
    assert_states(PAGE, s0[0], "1.414214")
    assert s0[1] == 0 and s1[0] == 0
    assert_states(PAGE, s1[1], "1.414214")
    assert_states(PAGE, w0[0], "0.804430")
    assert_states(PAGE, w0[1], "0.195570")
    assert w1[0] == pytest.approx(w0[1]) and w1[1] == pytest.approx(w0[0])
    assert_states(PAGE, o1[0], "0.391141")
    assert_states(PAGE, o1[1], "1.608859")
    concat = "[0.804430, 0.195570, 0.391141, 1.608859]"
    assert concat in PAGE.text
    assert o0 == pytest.approx([w0[0], w0[1]])


def test_backward_numbers_stated():
    _, w0, _ = head(Q[:2], sliced(KEYS, 0, 2), sliced(VALUES, 0, 2))
    a = w0[0]
    assert_states(PAGE, a * (1 - a), "0.157323")
    assert_states(PAGE, 1 / math.sqrt(2), "0.707107")
    grad = a * (1 - a) / math.sqrt(2)
    assert_states(PAGE, grad, "0.111244")


def test_cell_gradients_match_the_page(namespace):
    q = namespace["q"]
    assert q[0].grad == pytest.approx(0.111244, abs=1e-6)
    assert q[2].grad == 0.0 and q[3].grad == 0.0  # head 0 never reads head 1's slice
    assert [o.data for o in namespace["one_head"]] == pytest.approx([0.5, 0.5, 1.0, 1.0])


def test_first_cell_is_the_worked_example_written_out():
    """The cell writes out the example's two heads; it defines no general multi-head function
    (that is the exercise), and its numbers are engine.gpt.attention's."""
    ns = {}
    exec(PAGE.cells[0], ns)
    assert not {"multi_head", "attend", "multi_head_attention"} & set(ns)
    assert [ns["b0"].data, ns["b1"].data] == [0.5, 0.5]
    _, w0, o0 = head(Q[:2], sliced(KEYS, 0, 2), sliced(VALUES, 0, 2))
    _, _, o1 = head(Q[2:], sliced(KEYS, 2, 4), sliced(VALUES, 2, 4))
    assert [o.data for o in ns["out"]] == pytest.approx(o0 + o1, abs=1e-12)
    theirs = ns["gpt"].attention(ns["q"], ns["keys"], ns["values"], n_head=2)
    assert [o.data for o in ns["theirs"]] == [o.data for o in theirs]
    assert [o.data for o in theirs] == pytest.approx(o0 + o1, abs=1e-12)
    assert "`engine.gpt.attention`, the multi-head attention of the course's GPT" in " ".join(
        PAGE.text.split()
    )


def test_full_block_uses_engine_attention(namespace):
    """The block's heads are engine.gpt.attention's: the last position's output, recomputed."""
    gpt = namespace["gpt"]
    x = namespace["xs"][-1]
    q = namespace["linear"](x, namespace["Wq"])
    o = gpt.attention(q, namespace["keys"], namespace["vals"], 4)
    y = namespace["linear"](o, namespace["Wo"])
    assert [v.data for v in y] == [v.data for v in namespace["outputs"][-1]]
    assert "multi_head" not in namespace


def test_parameter_count_stated(namespace):
    assert len(namespace["params"]) == 4 * 16 * 16
    assert_states(PAGE, 4 * 16 * 16, "1,024")


def test_attention_is_causal(namespace):
    """The first position's output must not depend on any later position."""
    for p in namespace["params"] + [v for x in namespace["xs"] for v in x]:
        p.grad = 0.0
    out0 = namespace["outputs"][0]
    sum(out0).backward()
    assert all(v.grad == 0.0 for x in namespace["xs"][1:] for v in x)
    assert any(v.grad != 0.0 for v in namespace["xs"][0])


def test_gradcheck_cell_passes(namespace):
    assert namespace["report"].ok


def test_gradcheck_output_is_head_0s_second_number(namespace):
    report = namespace["report"]
    assert report.ok
    # Output number 1 is head 0's second number: it reads slice 0 (numbers 0 and 1) of q and of
    # the keys, and only the second number of each value. Everything else gets exactly 0.
    zero = [i for i, g in enumerate(report.analytic) if g == 0.0]
    head_1 = [4 * vector + j for vector in range(5) for j in (2, 3)]
    first_of_values = [12, 16]
    assert zero == sorted(head_1 + first_of_values)
    assert "output 1: head 0's second number" in PAGE.text
    assert "(Hint: the output is head 0's second number.)" in PAGE.text
    assert "first_output" not in PAGE.text

"""Day 34: the worked example against day 22's attention in Values, the heads, the batched
microGPT against engine.gpt at every position, and the stated counts.

Expected numbers come from day 22's attention_head on Values and from plain floats, not
from the page's cells.
"""

import math

import pytest

from engine import Value
from engine.batched_gpt import causal_mask
from engine.gpt import attention_head

from .pages import assert_states, lesson

PAGE = lesson("day34_batched_attention")
Q = [[1, 0, 1, 0], [0, 2, 0, 0], [2, 0, 2, 0]]
K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
V = [[1, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 1]]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def _values(rows):
    return [[Value(float(v)) for v in row] for row in rows]


def test_the_worked_example_is_day_22s_attention_row_by_row(namespace):
    text = " ".join(PAGE.text.split())
    keys, values = _values(K), _values(V)
    rows = []
    for i, q in enumerate(Q):
        out = attention_head(_values([q])[0], keys[: i + 1], values[: i + 1])
        rows.append([o.data for o in out])
    assert rows[0] == [1.0, 0.0, 0.0, 2.0]
    for got, text_ in zip(rows[1], ["0.268941", "0.731059", "0", "0.537883"]):
        assert_states(PAGE, got, text_)
    for got, text_ in zip(rows[2], ["0.665241", "0.090031", "0.244728", "1.575210"]):
        assert_states(PAGE, got, text_)
    assert "its output is $v_0 = [1, 0, 0, 2]$" in text
    assert "= [0.268941, 0.731059, 0, 0.537883]$" in text
    # the scores, Q K^T / 2
    scores = [[sum(a * b for a, b in zip(q, k)) / 2 for k in K] for q in Q]
    assert scores == [[1, 0, 0.5], [0, 1, 1], [2, 0, 1]]
    assert "1 & 0 & 0.5 \\\\ 0 & 1 & 1 \\\\ 2 & 0 & 1" in PAGE.text
    # weights of row 1 and, without the mask, of row 0
    e = [math.exp(s) for s in scores[1][:2]]
    assert_states(PAGE, e[0] / sum(e), "0.268941")
    e = [math.exp(s) for s in scores[0]]
    assert_states(PAGE, e[2] / sum(e), "0.307196")
    assert_states(PAGE, scores[0][2], "0.5")
    # the cell's tensors agree
    for got, want in zip(namespace["out"].tolist(), rows):
        assert got == pytest.approx(want, abs=1e-12)


def test_heads_by_reshape_and_permute(namespace):
    heads, wrong = namespace["heads"].tolist(), namespace["wrong"].tolist()
    x = [[[float(12 * b + 4 * t + c) for c in range(4)] for t in range(3)] for b in range(2)]
    for b in range(2):
        for h in range(2):
            assert heads[b][h] == [x[b][t][2 * h : 2 * h + 2] for t in range(3)]
    assert heads[0][0] == [[0, 1], [4, 5], [8, 9]]
    assert wrong[0][0] == [[0, 1], [2, 3], [4, 5]]
    assert "$[0, 1]$, $[4, 5]$, $[8, 9]$" in PAGE.text
    assert "$[0, 1]$, $[2, 3]$, $[4, 5]$" in PAGE.text


def test_the_mask_hides_120_of_256():
    mask = causal_mask(16)
    assert all(mask[i][j] == (j > i) for i in range(16) for j in range(16))
    assert_states(PAGE, sum(map(sum, mask)), "120")
    assert_states(PAGE, 16 * 16, "256")


def test_the_batched_gpt_agrees_with_engine_gpt(namespace):
    from engine.gpt import document_loss, init_gpt, mean

    names = namespace["names"]
    assert len(names) == 8 and all(len(n) == 4 for n in names)
    assert namespace["logits"].shape == (8, 5, 27)
    # the question shape-of-the-scores: (B, H, T, T), printed by this cell
    config = init_gpt(seed=0).config
    H, T = config.n_head, len(namespace["idx"][0])
    assert namespace["scores"].shape == (len(names), H, T, T) == (8, 4, 5, 5)
    assert "(8, 4, 5, 5)" in PAGE.text
    assert 'print("layer 0\'s scores:", scores.shape)' in PAGE.cells[2]
    assert namespace["gap"] == 0.0  # "exactly here"
    assert namespace["grad_gap"] < 1e-15
    model = init_gpt(seed=0)
    scalar = mean([document_loss(model, d) for d in namespace["docs"]])
    assert_states(PAGE, scalar.data, "3.419546")
    assert namespace["batched"].item() == pytest.approx(scalar.data, rel=1e-12)
    assert_states(PAGE, len(model.parameters()), "4,192")
    assert_states(PAGE, 8 * 5, "40")


def test_the_speed_cell_measures_a_faster_batch(namespace):
    assert namespace["many"] < namespace["one"]  # the page hedges its ratios; times vary
    text = " ".join(PAGE.text.split())
    assert "about 3 times for these 8 short names in CPython" in text
    assert "on the machine where this page was written; the cell prints yours" in text

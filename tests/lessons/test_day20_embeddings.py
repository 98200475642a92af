"""Day 20: the lookup example's forward and backward numbers (plain floats and the engine), and
the claims of the cells: lookups share Values with the table, the model beats uniform, the vowels
gather."""

import math

import pytest

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day20_embeddings")
TABLE = [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]
W = [2.0, -1.0]
TOKENS = [1, 0, 1]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_worked_example_forward():
    scores = [sum(w * c for w, c in zip(W, TABLE[x])) for x in TOKENS]
    assert scores[0] == pytest.approx(1.0) and scores[1] == pytest.approx(0.0)
    assert "w \\cdot C[1] = 2(0.3) - (-0.4) = 1.0" in PAGE.text
    assert sum(scores) == pytest.approx(2.0)
    assert "L = 1.0 + 0 + 1.0 = 2.0" in PAGE.text


def test_worked_example_backward():
    C = [[Value(v) for v in row] for row in TABLE]
    L = sum(sum(w * c for w, c in zip(W, C[x])) for x in TOKENS)
    L.backward()
    grads = [[v.grad for v in row] for row in C]
    assert grads == [[2.0, -1.0], [4.0, -2.0], [0.0, 0.0]]
    assert "collects $[4, -2]$" in PAGE.text
    assert "gets $[2, -1]$" in PAGE.text
    assert "gets $[0, 0]$" in PAGE.text


def test_cell_lookup_is_the_table(namespace):
    # the first cell's table was rebound by the model cell; check the claims it printed
    assert [v.data for v in namespace["via_product"]] == pytest.approx([0.3, -0.4])
    assert namespace["hot"] == [float(i == 1) for i in range(3)]  # the one-hot vector of token 1


def test_model_parameter_count_and_score(namespace):
    assert len(namespace["params"]) == 27 * 2 + 27 * 2 + 27
    assert_states(PAGE, len(namespace["params"]), "135")
    assert_states(PAGE, 27 * 27, "729")
    C, tok = namespace["C"], namespace["tok"]
    assert all(C[tok.encode(ch, bos=False)[0]] is C[i] for i, ch in enumerate(tok.chars))
    full = namespace["full"]
    assert 2.3346 < full < math.log(27) - 0.5  # learned much, cannot beat the counting model


def test_vowels_gather(namespace):
    point = namespace["point"]
    vowels = "aeiouy"
    consonants = [c for c in "abcdefghijklmnopqrstuvwxyz" if c not in vowels]

    def spread(ga, gb):
        ds = [math.dist(point(a), point(b)) for a in ga for b in gb if a != b]
        return sum(ds) / len(ds)

    assert spread(vowels, vowels) < spread(vowels, consonants)


def test_unused_rows_get_no_gradient():
    C = [[Value(v) for v in row] for row in TABLE]
    L = sum(sum(w * c for w, c in zip(W, C[x])) for x in [2, 2, 2, 2])
    L.backward()
    assert [v.grad for v in C[2]] == [8.0, -4.0]
    assert all(v.grad == 0.0 for row in C[:2] for v in row)


def test_what_comes_next_numbers():
    from collections import Counter

    from .pages import ROOT

    names = (ROOT / "engine" / "data" / "names.txt").read_text(encoding="utf-8").split()
    tri, bi = Counter(), Counter()
    for n in names:
        s = "." + n + "."
        for i in range(len(s) - 2):
            bi[s[i : i + 2]] += 1
            tri[s[i : i + 3]] += 1
    assert round(100 * tri["on."] / bi["on"]) == 36
    assert round(100 * tri["an."] / bi["an"]) == 15
    assert "after `on` 36 % of the time but after `an` only 15 %" in PAGE.text

"""Day 31: the shapes, strides, broadcasts, sums and the matrix product the page states.

Expected values come from nested Python lists and loops written here (an index at a time),
not from the page's cells; the cells' tensors must agree with them.
"""

import itertools
import math

import pytest

from .pages import assert_states, lesson

PAGE = lesson("day31_tensors")
TEXT = " ".join(PAGE.text.split())
X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
W = [[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def bmatrix(rows):
    """A matrix as the page writes it in LaTeX, whole numbers without a decimal point."""
    body = r" \\ ".join(" & ".join(f"{v:g}" for v in row) for row in rows)
    return rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"


def states_matrix(rows):
    assert bmatrix(rows) in TEXT, f"the page does not state {bmatrix(rows)}"


def row_major(nested):
    return [v for row in nested for v in row]


def strides(shape):
    return tuple(math.prod(shape[a + 1 :]) for a in range(len(shape)))


def test_the_table_of_shapes():
    for shape in [(), (3,), (2, 3), (4, 16, 27)]:
        assert f"`{shape}`" in TEXT
    assert_states(PAGE, math.prod((4, 16, 27)), "1,728")
    assert "| `(2, 3)` | a matrix of 2 rows and 3 columns | 6 |" in TEXT


def test_strides_and_the_flat_position(namespace):
    assert strides((2, 3)) == (3, 1) and "strides $(3, 1)$" in TEXT
    assert strides((2, 3, 4)) == (12, 4, 1) and "strides $(12, 4, 1)$" in TEXT
    # the row-major position of (1, 2, 3), counted through every index in order
    order = list(itertools.product(range(2), range(3), range(4)))
    position = order.index((1, 2, 3))
    assert position == sum(i * s for i, s in zip((1, 2, 3), strides((2, 3, 4))))
    assert_states(PAGE, position, "23")
    assert namespace["t"].tolist()[1][2][3] == position
    assert "`[1, 2, 3, 4, 5, 6]`" in TEXT and namespace["x"].data == row_major(X)


def test_reshape_and_transpose(namespace):
    flat = row_major(X)
    reshaped = [flat[2 * i : 2 * i + 2] for i in range(3)]
    transposed = [[X[i][j] for i in range(2)] for j in range(3)]
    states_matrix(reshaped)
    states_matrix(transposed)
    assert "`[1, 4, 2, 5, 3, 6]`" in TEXT and row_major(transposed) == [1, 4, 2, 5, 3, 6]
    x = namespace["x"]
    assert x.reshape(3, 2).tolist() == reshaped and x.T.tolist() == transposed


def test_the_broadcasts(namespace):
    plus_row = [[X[i][j] + [10, 20, 30][j] for j in range(3)] for i in range(2)]
    plus_column = [[X[i][j] + [100, 200][i] for j in range(3)] for i in range(2)]
    states_matrix(plus_row)
    states_matrix(plus_column)
    ns = namespace
    assert (ns["x"] + ns["row"]).tolist() == plus_row
    assert (ns["x"] + ns["column"]).tolist() == plus_column
    # (3,) with (3, 1): entry (i, j) = a_j + b_i, nine of them
    a_plus_b = ns["a"] + ns["b"]
    assert a_plus_b.shape == (3, 3)
    assert a_plus_b.tolist() == [[a + b for a in (1, 2, 3)] for b in (10, 20, 30)]
    assert "[x] $(3, 3)$" in TEXT


def test_sums_means_and_centring(namespace):
    over_0 = [X[0][j] + X[1][j] for j in range(3)]
    over_1 = [sum(row) for row in X]
    means = [s / 3 for s in over_1]
    assert over_0 == [5, 7, 9] and "$[5, 7, 9]$, of shape $(3,)$" in TEXT
    assert over_1 == [6, 15] and "$[6, 15]$, of shape $(2,)$" in TEXT
    assert means == [2, 5] and "it is $[2, 5]$" in TEXT
    centred = [[v - m for v in row] for row, m in zip(X, means)]
    states_matrix(centred)
    x = namespace["x"]
    assert x.sum(axis=0).tolist() == over_0 and x.sum(axis=1).tolist() == over_1
    assert x.sum(axis=1, keepdims=True).shape == (2, 1) and "$(2, 1)$, a column" in TEXT
    assert (x - x.mean(axis=1, keepdims=True)).tolist() == centred


def test_the_matrix_product(namespace):
    product = [[sum(X[i][p] * W[p][j] for p in range(3)) for j in range(2)] for i in range(2)]
    states_matrix(W)
    assert bmatrix(product) in TEXT.replace("xW = ", "")
    assert "xW = " + bmatrix(product) in TEXT
    assert product[0] == [1 + 3, 2 - 3] and product[1] == [4 + 6, 5 - 6]
    for text in ("$1 + 3 = 4$", "$2 - 3 = -1$", "$4 + 6 = 10$", "$5 - 6 = -1$"):
        assert text in TEXT
    assert_states(PAGE, 2 * 3 * 2, "12")
    assert (namespace["x"] @ namespace["W"]).tolist() == product
    assert_states(PAGE, 64**3, "262144")  # the question's answer
    assert f"{64**3:,}".replace(",", "{,}") in TEXT and f"{64 * 64:,}".replace(",", "{,}") in TEXT

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


def test_from_a_flat_position_back_to_an_index():
    shape, flat = (2, 3, 4), 23
    # the index by counting through every index in row-major order
    index = list(itertools.product(*(range(n) for n in shape)))[flat]
    assert index == (1, 2, 3) and "The index is $(1, 2, 3)$" in TEXT
    # the page's steps: divide by the sizes, last axis first, keep the remainders
    last, rest = flat % 4, flat // 4
    middle, first = rest % 3, rest // 3
    assert (first, middle, last) == index
    for text in ("`23 % 4 = 3`", "`23 // 4 = 5`", "`5 % 3 = 2`", "`5 // 3 = 1`"):
        assert text in TEXT


def test_reading_a_broadcast_operand():
    # result index (1, 2) of x + row and x + column, read from the operands as the page says
    row, column = [10.0, 20.0, 30.0], [100.0, 200.0]  # flat data, shapes (3,) and (2, 1)
    assert strides((2, 1)) == (1, 1) and "strides $(1, 1)$" in TEXT
    row_flat = 2 * strides((3,))[0]
    column_flat = 1 * strides((2, 1))[0] + 0 * strides((2, 1))[1]
    assert (row_flat, column_flat) == (2, 1)
    assert row[row_flat] == 30 and column[column_flat] == 200
    assert X[1][2] + 30 == 36 and X[1][2] + 200 == 206  # the entries the page's matrices show
    assert "is read at index $(2)$: flat position 2, the number 30" in TEXT
    assert (
        "is read at index $(1, 0)$: flat position $1 \\cdot 1 + 0 \\cdot 1 = 1$, the number 200"
        in TEXT
    )


def test_a_transposed_view_swaps_the_strides():
    # as a view of x's flat list, entry (j, i) of x^T is x's flat position i * 3 + j * 1
    flat = row_major(X)
    transposed = [[X[i][j] for i in range(2)] for j in range(3)]
    view_strides = (1, 3)
    assert all(
        flat[j * view_strides[0] + i * view_strides[1]] == transposed[j][i]
        for j in range(3)
        for i in range(2)
    )
    assert view_strides == tuple(reversed(strides((2, 3))))
    assert "($(1, 3)$ instead of $(3, 1)$)" in TEXT


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
    assert "row 0 of $x$ times the columns of $W$" in TEXT and "; row 1 gives" in TEXT
    assert r"\sum_{p=0}^{k-1} A_{ip} B_{pj}" in TEXT
    for text in ("$1 + 3 = 4$", "$2 - 3 = -1$", "$4 + 6 = 10$", "$5 - 6 = -1$"):
        assert text in TEXT
    assert_states(PAGE, 2 * 3 * 2, "12")
    assert (namespace["x"] @ namespace["W"]).tolist() == product
    assert_states(PAGE, 64**3, "262144")  # the question's answer
    assert f"{64**3:,}".replace(",", "{,}") in TEXT and f"{64 * 64:,}".replace(",", "{,}") in TEXT

"""Day 32: the gradients of the worked example and the node counts the page states.

Expected gradients come from the scalar chain rule written out here on nested lists (and are
checked against central differences); node counts from the formulas and from the scalar
engine's own topological order.
"""

import math
from functools import reduce
from operator import add

import pytest

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day32_tensor_backward")
TEXT = " ".join(PAGE.text.split())
X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
W = [[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]
C_BAR = [[1.0, -1.0], [2.0, 0.0]]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def bmatrix(rows):
    body = r" \\ ".join(" & ".join(f"{v:g}" for v in row) for row in rows)
    return rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"


def states(text):
    assert text in TEXT, f"the page does not state {text!r}"


def central(f, values, i, h=1e-6):
    up, down = list(values), list(values)
    up[i] += h
    down[i] -= h
    return (f(up) - f(down)) / (2 * h)


def test_the_bias_gradient(namespace):
    z_bar = X  # the page's upstream gradient has the numbers of x
    b_bar = [sum(z_bar[i][j] for i in range(2)) for j in range(3)]

    def loss(b):
        return sum(z_bar[i][j] * (X[i][j] + b[j]) for i in range(2) for j in range(3))

    for j in range(3):
        assert abs(central(loss, [10.0, 20.0, 30.0], j) - b_bar[j]) < 1e-6
    assert b_bar == [5, 7, 9]
    states("\\bar{b} = [1 + 4, 2 + 5, 3 + 6] = [5, 7, 9]")
    assert namespace["b"].grad == b_bar


def test_the_column_gradient(namespace):
    # c of shape (2, 1) is copied across the columns: each c_i0 is used in z_i0, z_i1, z_i2
    z_bar = X
    c_bar = [[sum(z_bar[i][j] for j in range(3))] for i in range(2)]

    def loss(c):
        return sum(z_bar[i][j] * (X[i][j] + c[i]) for i in range(2) for j in range(3))

    for i in range(2):
        assert abs(central(loss, [100.0, 200.0], i) - c_bar[i][0]) < 1e-6
    assert c_bar == [[6], [15]]
    assert_states(PAGE, c_bar[1][0], "15")  # the question's answer
    states("$4 + 5 + 6 = 15$")
    states("\\bar{c} = " + bmatrix(c_bar))
    assert namespace["c"].shape == (2, 1) and namespace["c"].grad_tolist() == c_bar


def test_the_tanh_try_this_uses_numbers_where_tanh_is_not_flat():
    # the page's own numbers: x + b runs from 11 to 36, where the slope of tanh is tiny
    sums = [X[i][j] + [10.0, 20.0, 30.0][j] for i in range(2) for j in range(3)]
    assert (min(sums), max(sums)) == (11, 36) and "runs from 11 to 36" in TEXT
    assert 1 - math.tanh(min(sums)) ** 2 < 1e-8 and "below $10^{-8}$" in TEXT
    # the suggested small numbers: the gradient t-rule agrees with central differences
    x = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]
    assert all(abs(a - 0.1 * b) < 1e-12 for ra, rb in zip(x, X) for a, b in zip(ra, rb))
    b = [0.1, -0.2, 0.3]
    states("`Tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])`")
    states("`b = Tensor([0.1, -0.2, 0.3])`")

    def loss(b):
        return sum(X[i][j] * math.tanh(x[i][j] + b[j]) for i in range(2) for j in range(3))

    t = [[math.tanh(x[i][j] + b[j]) for j in range(3)] for i in range(2)]
    rule = [sum((1 - t[i][j] ** 2) * X[i][j] for i in range(2)) for j in range(3)]
    for j in range(3):
        assert abs(central(loss, b, j) - rule[j]) < 1e-6
        assert rule[j] > 1  # far from the ~0 of the flat region
    states("\\bar{b}_j = \\sum_i (1 - t_{ij}^2)\\, \\bar{z}_{ij}")


def test_the_sum_and_the_mean(namespace):
    assert [sum(row) for row in X] == [6, 15]
    states("= [6, 15]$ with $\\bar{y} = [1, -2]$")
    y_bar = [1.0, -2.0]
    copied = [[y_bar[i]] * 3 for i in range(2)]
    states(bmatrix(copied))
    states("$\\tfrac13$ in the first row and $-\\tfrac23$ in the second")
    x = namespace["x"]
    # the page's cell ran the mean last before the product: its printed x.grad is checked here
    mean_grad = [y / 3 for y in y_bar for _ in range(3)]

    def loss(flat):
        return sum(y_bar[i] * sum(flat[3 * i : 3 * i + 3]) / 3 for i in range(2))

    flat = [v for row in X for v in row]
    assert all(abs(central(loss, flat, i) - g) < 1e-6 for i, g in enumerate(mean_grad))
    assert x.data == flat
    # the cell's Value check of the mean
    value_grads = [v.grad for row in namespace["xm"] for v in row]
    assert all(abs(v - g) < 1e-12 for v, g in zip(value_grads, mean_grad))


def test_the_matrix_product(namespace):
    x_bar = [[sum(C_BAR[i][j] * W[p][j] for j in range(2)) for p in range(3)] for i in range(2)]
    w_bar = [[sum(X[i][p] * C_BAR[i][j] for i in range(2)) for j in range(2)] for p in range(3)]
    for m in (W, C_BAR, x_bar, w_bar):
        states(bmatrix(m))
    states("\\bar{x} = \\bar{C} W^\\top = " + bmatrix(x_bar))
    states("\\bar{W} = x^\\top \\bar{C} = " + bmatrix(w_bar))
    assert w_bar[0][0] == 1 * 1 + 4 * 2
    states("$\\bar{W}_{00} = 1 \\cdot 1 + 4 \\cdot 2 = 9$")
    assert namespace["x"].grad_tolist() == x_bar
    assert namespace["W"].grad_tolist() == w_bar


def product_nodes(n):
    """Nodes of the Value product alone, counted by the engine (leaves and joining excluded)."""
    A = [[Value(1.0) for _ in range(n)] for _ in range(n)]
    B = [[Value(1.0) for _ in range(n)] for _ in range(n)]
    C = [[reduce(add, (A[i][p] * B[p][j] for p in range(n))) for j in range(n)] for i in range(n)]
    root = reduce(add, (c for row in C for c in row))
    return len(root.topological_order()) - 2 * n * n - (n * n - 1)


def test_node_counts(namespace):
    n = 32
    assert product_nodes(n) == 2 * n**3 - n**2
    assert_states(PAGE, n**3, "32,768")
    assert_states(PAGE, n * n * (n - 1), "31,744")
    assert_states(PAGE, 2 * n**3 - n**2, "64,512")
    assert_states(PAGE, 2 * n * n, "2,048")
    states(f"$3n^2 - 1 = {3 * n * n - 1:,}$".replace(",", "{,}"))
    # the loss adds n^2 products, n^2 - 1 additions and n^2 leaves for G's numbers
    assert n * n + (n * n - 1) + n * n == 3 * n * n - 1
    states(
        f"$n^2$ = {n * n:,} products, $n^2 - 1$ = {n * n - 1:,} additions, and $n^2$ = {n * n:,}"
    )
    total = 2 * n**3 - n**2 + 2 * n * n + 3 * n * n - 1
    assert_states(PAGE, total, "69,631")
    count = namespace["count_nodes"]
    assert count(namespace["value_loss"]) == total
    assert count(namespace["tensor_loss"]) == 6
    states("the same loss has 6 nodes")
    assert namespace["gap"] < 1e-12
    # n = 10, the question: 1,000 multiplications and 900 additions
    assert product_nodes(10) == 1900
    states("$2n^3 - n^2 = 2000 - 100 = 1{,}900$: 1,000 multiplications and 900 additions (9 for")


def test_the_timing_is_hedged_and_the_tensor_wins(namespace):
    median = namespace["median"]
    assert median["Values"] > 3 * median["Tensors"]
    states("your cell prints your own ratio")
    assert "python -m benchmarks tensor" in TEXT

"""Day 7: d = a*b + a, L = a + a, the multi-branch challenge and accumulation across calls."""

import importlib.util

import pytest

import questions
from course import TOTAL_DAYS
from engine import Value, zero_grad
from engine.gradcheck import numerical_grad

from .pages import ROOT, lesson

PAGE = lesson("day07_accumulation")


@pytest.fixture(scope="module")
def cells():
    return PAGE.run_cells()


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 7 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_reused_input_example():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    d = c + a
    d.backward()
    assert (c.data, d.data) == (6.0, 8.0)
    assert (a.grad, b.grad, c.grad) == (4.0, 2.0, 1.0)
    assert "**a.grad = 4** (1 from the sum + 3 from the product) and **b.grad = 2**" in PAGE.text
    assert "`c.grad` is 1" in PAGE.text
    assert "$c = a \\cdot b = 6$ and $d = c + a = 8$" in PAGE.text
    numeric = numerical_grad(lambda v: v[0] * v[1] + v[0], [2.0, 3.0])
    assert numeric == pytest.approx([4.0, 2.0], abs=1e-6)


def test_a_plus_a():
    a = Value(2.0)
    L = a + a
    L.backward()
    assert a.grad == 2.0
    assert "**a.grad = 2**; `=` gives 1" in PAGE.text


def test_overwriting_value_loses_shares(cells):
    # The page claims '=' gives 1 for a + a and 3 for a*b + a.
    assert cells["x"].grad == 1.0
    assert cells["p"].grad == 3.0
    assert "$a \\cdot b + a$ gives 3" in PAGE.text


def test_try_this_fix_overwriting():
    source = next(c for c in PAGE.cells if "class Overwriting" in c)
    fixed = source
    for line in (
        "self.grad = out.grad",
        "other.grad = out.grad",
        "self.grad = other.data",
        "other.grad = self.data",
    ):
        assert line in fixed
        fixed = fixed.replace(line, line.replace(" = ", " += "))
    ns = {}
    exec(fixed, ns)
    assert ns["x"].grad == 2.0 and ns["p"].grad == 4.0


def test_multi_branch_challenge():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    u = a * b + c
    s = a + b
    L = u * s
    L.backward()
    assert (u.data, s.data, L.data) == (4.0, -1.0, -4.0)
    assert (a.grad, b.grad, c.grad) == (7.0, 2.0, -1.0)
    numeric = numerical_grad(lambda v: (v[0] * v[1] + v[2]) * (v[0] + v[1]), [2.0, -3.0, 10.0])
    assert numeric == pytest.approx([7.0, 2.0, -1.0], abs=1e-6)
    text = PAGE.text
    assert "$u = a \\cdot b + c = -6 + 10 = 4$, $s = a + b = -1$, $L = u \\cdot s = -4$" in text
    assert "| $a$ | $-1 \\cdot b = -1 \\cdot (-3) = 3$ | $4 \\cdot 1 = 4$ | **7** |" in text
    assert "| $b$ | $-1 \\cdot a = -1 \\cdot 2 = -2$ | $4 \\cdot 1 = 4$ | **2** |" in text
    assert "| $c$ | $-1 \\cdot 1 = -1$ | (no road) | **−1** |" in text
    # Predicted before verified: a question asks for the three gradients, and the cell
    # that computes them comes after it.
    asked = {q.id: q for q in questions.find(text)}["multi-branch-gradients"]
    assert [b.value for b in asked.blanks] == [7.0, 2.0, -1.0]
    assert text.index("id: multi-branch-gradients") < text.index('L.backward()\nprint("L ="')


def test_try_this_challenge_with_c_3():
    a, b, c = Value(2.0), Value(-3.0), Value(3.0)
    u = a * b + c
    L = u * (a + b)
    L.backward()
    assert (u.data, L.data) == (-3.0, 3.0)
    assert "$u = -3$ and $L = 3$" in PAGE.text
    assert c.grad == -1.0  # unchanged, as the hint implies (dL/du = s did not move)


def _day_six_value():
    """The Value of solutions/day06_backward.py: the learner's own, as day 6 leaves it."""
    path = ROOT / "solutions" / "day06_backward.py"
    spec = importlib.util.spec_from_file_location("day06_solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Value


def _four_passes(V):
    """a.grad, b.grad, c.grad after each of: one pass, a second, leaves zeroed, all zeroed."""
    a, b = V(2.0), V(3.0)
    c = a * b
    d = c + a
    seen = []
    d.backward()
    seen.append((a.grad, b.grad, c.grad))
    d.backward()
    seen.append((a.grad, b.grad, c.grad))
    a.grad = b.grad = 0.0
    d.backward()
    seen.append((a.grad, b.grad, c.grad))
    for v in (a, b, c, d):
        v.grad = 0.0
    d.backward()
    seen.append((a.grad, b.grad, c.grad))
    return seen


def test_accumulation_across_calls_with_the_day_six_value(cells):
    expected = [(4.0, 2.0, 1.0), (11.0, 6.0, 2.0), (10.0, 6.0, 3.0), (4.0, 2.0, 1.0)]
    assert _four_passes(_day_six_value()) == expected
    # The page's cut-down class behaves as the day-6 solution does.
    assert _four_passes(cells["DaySixValue"]) == expected
    text = PAGE.text
    assert "The first pass is right: a.grad = 4, b.grad = 2, c.grad = 1." in text
    assert "$2 \\cdot 3 = 6$\nto `a` and $2 \\cdot 2 = 4$ to `b`" in text
    assert "**a.grad = 11** ($4 + 1 + 6$), not $4 + 4 = 8$, and\nb.grad = 6" in text
    assert (
        "`c` now holds $2 + 1 = 3$ and sends\n$3 \\cdot 3 = 9$, so **a.grad = 10** ($1 + 9$) instead of 4"
        in text
    )
    assert "(11 for `a` above, where the gradient is 4)" in text


def test_accumulation_across_calls_with_the_engine():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    d = c + a
    d.backward()
    d.backward()
    # Only the leaves accumulate: the engine resets every node with children first.
    assert (a.grad, b.grad, c.grad, d.grad) == (8.0, 4.0, 1.0, 1.0)
    zero_grad([a, b])
    d.backward()
    assert (a.grad, b.grad) == (4.0, 2.0)
    assert "`a.grad` becomes 8" in PAGE.text


def test_day_29_hint_rests_on_this_page():
    hints = lesson("day29_making_it_fast").exercises[0]["hints"]
    assert any("zero the gradient of every non-leaf node" in h and "day 7" in h for h in hints)
    assert "setting the gradient\nof each node that has children back to 0" in PAGE.text


def test_cells_agree(cells):
    # The last cell ends after zero_grad and one backward(): a.grad is 4 again.
    assert cells["a"].grad == 4.0 and cells["b"].grad == 2.0
    assert cells["gradcheck"](cells["challenge"], [2.0, -3.0, 10.0]).ok

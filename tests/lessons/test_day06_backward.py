"""Day 6: topological order and backward() on L = d*e, d = e + c, e = a*b."""

import re

import pytest

from course import TOTAL_DAYS
from engine import Value
from explorer import explore

from .explorer_embed import block_html, explorer_blocks, open_explorer, serve
from .pages import ROOT, lesson

PAGE = lesson("day06_backward")


@pytest.fixture
def cells():
    # Function scope: some tests rerun the backward pass in other orders.
    return PAGE.run_cells()


def build():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    e = a * b
    d = e + c
    L = d * e
    return a, b, c, e, d, L


def recursive_order(root):
    order, seen = [], set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            for child in v._children:
                visit(child)
            order.append(v)

    visit(root)
    return order


def test_badge():
    assert (
        PAGE.badge == f"Phase 1 · Foundations · Day 6 of {TOTAL_DAYS}"
    )  # the total follows the manifest


def test_worked_example_forward_and_gradients():
    a, b, c, e, d, L = build()
    assert (e.data, d.data, L.data) == (-6.0, 4.0, -24.0)
    L.backward()
    assert (a.grad, b.grad, c.grad, e.grad, d.grad) == (6.0, -4.0, -6.0, -2.0, -6.0)
    assert "$L = d \\cdot e = -24$" in PAGE.text
    text = PAGE.text
    assert "$d$ gets $e = -6$; $e$ gets $d = 4$" in text
    assert "now $4 + (-6) = -2$; $c$ gets $-6$" in text
    assert "$a$ gets $-2 \\cdot (-3) = 6$; $b$ gets $-2 \\cdot 2 = -4$" in text
    # Closed form the page quotes: dL/da = b(2ab + c).
    assert -3 * (2 * 2 * -3 + 10) == 6
    assert "$\\frac{\\partial L}{\\partial a} = b(2ab + c) = -3 \\cdot (-2) = 6$" in text


def test_depth_first_order_is_the_one_the_page_lists():
    a, b, c, e, d, L = build()
    names = {id(a): "a", id(b): "b", id(c): "c", id(e): "e", id(d): "d", id(L): "L"}
    order = [names[id(v)] for v in recursive_order(L)]
    assert order == ["a", "b", "e", "c", "d", "L"]
    assert "places\n$a, b, e, c, d, L$" in PAGE.text or "places $a, b, e, c, d, L$" in PAGE.text
    assert "runs $L, d, c, e, b, a$" in PAGE.text


def test_wrong_order_numbers(cells):
    # e before d: e passes on only d's value 4.
    assert 4 * -3 == -12 and 4 * 2 == 8
    assert "$a$ gets $4 \\cdot (-3) = -12$ and $b$ gets $4 \\cdot 2 = 8$" in PAGE.text
    run_backward, L, e, d, a, b, c = (
        cells[k] for k in ("run_backward", "L", "e", "d", "a", "b", "c")
    )
    run_backward(L, [L, e, d, c, b, a])
    assert (a.grad, b.grad) == (-12.0, 8.0)


def test_cells_right_order_and_backward_agree(cells):
    order = cells["order"]
    position = {id(v): i for i, v in enumerate(order)}
    assert all(position[id(ch)] < position[id(v)] for v in order for ch in v._children)
    a, b, c = cells["a"], cells["b"], cells["c"]
    assert (a.grad, b.grad, c.grad) == (6.0, -4.0, -6.0)  # after the last cell's L.backward()


def test_try_this_orders(cells):
    run_backward, L, e, d, a, b, c = (
        cells[k] for k in ("run_backward", "L", "e", "d", "a", "b", "c")
    )
    run_backward(L, [L, d, e, c, b, a])
    assert (a.grad, b.grad, c.grad) == (6.0, -4.0, -6.0)
    run_backward(L, [d, L, e, c, b, a])
    assert (a.grad, b.grad, c.grad) != (6.0, -4.0, -6.0)


def _chain(n_ops):
    x = Value(0.3)
    for i in range(n_ops):  # as the grader's chain: * 0.9, + 0.1, * 0.9, ...
        x = x * 0.9 if i % 2 == 0 else x + 0.1
    return x


def test_recursion_hint_is_true():
    import random
    import sys

    from grader.checks import day06_backward as checks

    hint = next(h for h in PAGE.exercises[0]["hints"] if "RecursionError" in h)
    assert "its deepest check is a chain of 400 operations" in hint
    assert "about 1,000 nested calls" in hint and "day 29" in hint
    # The grader's deepest program, public or hidden, has 400 operations.
    cases = checks.public_cases() + checks.hidden_cases(random.Random(0))
    programs = [c["inputs"]["program"] for c in cases if c["kind"] == "program"]
    assert max(len(p["ops"]) for p in programs) == 400
    assert sys.getrecursionlimit() == 1000
    # A recursive sort handles 400 operations and fails at a few thousand.
    assert len(recursive_order(_chain(400))) > 400
    with pytest.raises(RecursionError):
        recursive_order(_chain(3000))


# -- the explorer starts at the lesson's values ------------------------------------------


def _explorer_block():
    found = explorer_blocks(PAGE)
    assert len(found) == 1, "day 6 has one explorer, and its fence gives its values"
    return found[0]


def test_the_explorer_gets_the_values_the_text_uses():
    expression, values = _explorer_block()
    assert (expression, values) == ("a*b + a", {"a": 2, "b": 3})
    result = explore(expression, values)
    assert result["ok"]
    assert result["variables"] == [{"name": "a", "value": 2.0}, {"name": "b", "value": 3.0}]
    trace = result["trace"]
    grads = {n["label"]: n["grad"] for n in trace["nodes"]}
    assert (grads["a"], grads["b"]) == (4.0, 2.0)
    label = {n["id"]: n["label"] for n in trace["nodes"]}
    shares = {(label[e["source"]], label[e["target"]]): e["local_grad"] for e in trace["edges"]}
    # a's two shares (the outer gradient is 1): 1 from the +, b = 3 from the *; b's is a = 2.
    assert shares[("a", "a*b+a")] == 1.0 and shares[("a", "a*b")] == 3.0
    assert shares[("b", "a*b")] == 2.0
    text = PAGE.text
    assert "`a*b + a` at $a = 2$, $b = 3$ (`a`\nfeeds two operations)" in text
    assert "day 7" not in text.split("`a*b + a` at")[1].split("\n\n")[0]  # stands on its own
    assert "1 from the `+` and $b = 3$\nfrom the `*`, and only their sum, 4, is final" in text
    assert "`b` receives one share, $a = 2$." in text
    # Day 7 works the same example and states the same gradients.
    assert "**a.grad = 4** (1 from the sum + 3 from the product) and **b.grad = 2**" in (
        lesson("day07_accumulation").text
    )


def _explorer_html():
    html = block_html(PAGE)
    assert re.search(
        r'^<div class="course-explorer" data-explorer data-expression="a\*b \+ a" '
        r'data-explorer-values="\{&quot;a&quot;: 2.0, &quot;b&quot;: 3.0\}" '
        r'data-explorer-trace="[^"]*">.*</div>$',
        html,
        re.S,
    ), html
    return html


def test_the_site_renders_the_explorer_with_its_values():
    _explorer_html()


@pytest.fixture
def explorer_page(tmp_path):
    """A page with the HTML the site renders for day 6's explorer, and web/explorer bundled
    as the site bundles it; explorer.explore answers, as the course worker does."""
    address, stop = serve(tmp_path, _explorer_html())
    yield address
    stop()


@pytest.mark.browser
def test_in_the_browser_the_explorer_shows_the_lessons_gradients(explorer_page, page):
    errors = open_explorer(page, explorer_page)
    sliders = page.eval_on_selector_all(
        "input[data-var]", "els => Object.fromEntries(els.map(e => [e.dataset.var, e.value]))"
    )
    assert {k: float(v) for k, v in sliders.items()} == {"a": 2.0, "b": 3.0}
    page.click("[data-action=finish]")
    grads = page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )
    assert float(grads["a"]) == 4.0 and float(grads["b"]) == 2.0
    assert not errors, errors


def test_tanh_is_given_today_and_explained_on_day_8():
    import ast

    stub = ast.parse((ROOT / "exercises" / "day06_backward.py").read_text(encoding="utf-8"))
    tanh = next(n for n in ast.walk(stub) if isinstance(n, ast.FunctionDef) and n.name == "tanh")
    assert "NotImplementedError" not in ast.unparse(tanh)  # written for the learner
    text = " ".join(PAGE.text.split())
    assert "already has the `_backward` of `+` and `*` from day 5" in text
    assert "ready-made `tanh`, whose local derivative day 8 explains" in text
    day8 = lesson("day08_more_ops")
    assert "Write `_backward` for `**`, `exp`, `tanh` and `relu`" in day8.text

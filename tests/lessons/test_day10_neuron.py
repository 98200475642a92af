"""Day 10: every number of the worked example, and the claims of the cells."""

import math

import pytest

from engine import Value
from explorer import explore

from .explorer_embed import block_html, explorer_blocks, open_explorer, serve
from .pages import assert_states, lesson

PAGE = lesson("day10_neuron")


def _neuron(act):
    x = [Value(1.0), Value(-2.0)]
    w = [Value(0.5), Value(0.25)]
    b = Value(0.5)
    z = w[0] * x[0] + w[1] * x[1] + b
    out = getattr(z, act)()
    out.backward()
    return z, out, w, b, x


def test_relu_worked_example():
    z, out, w, b, x = _neuron("relu")
    assert_states(PAGE, z.data, "0.5")
    assert (out.data, w[0].grad, w[1].grad, b.grad, x[0].grad, x[1].grad) == (
        0.5,
        1.0,
        -2.0,
        1.0,
        0.5,
        0.25,
    )
    for shown in (
        "$x_1 \\cdot 1 = 1$",
        "$x_2 \\cdot 1 = -2$",
        "$w_1 \\cdot 1 = 0.5$",
        "$w_2 \\cdot 1 = 0.25$",
    ):
        assert shown in PAGE.text


def test_tanh_worked_example():
    _, out, w, b, _ = _neuron("tanh")
    assert_states(PAGE, out.data, "0.462117")
    assert_states(PAGE, 1 - math.tanh(0.5) ** 2, "0.786448")
    assert_states(PAGE, w[0].grad, "0.786448")
    assert_states(PAGE, w[1].grad, "-1.572895")
    assert_states(PAGE, b.grad, "0.786448")


def test_cells_agree_with_the_table_and_ascent_raises_the_output():
    ns = PAGE.run_cells()
    assert [ns[k].grad for k in ("w1", "w2", "b", "x1", "x2")] == [1.0, -2.0, 1.0, 0.5, 0.25]
    assert ns["after"].data > ns["before"].data


def test_dead_relu_claim():
    x1, x2 = Value(-1.0), Value(-2.0)
    w1, w2, b = Value(0.5), Value(0.25), Value(0.5)
    z = w1 * x1 + w2 * x2 + b
    assert_states(PAGE, z.data, "-0.5")
    z.relu().backward()
    assert all(v.grad == 0.0 for v in (w1, w2, b, x1, x2))


def test_and_gate_claim():
    outs = [max(0.0, 1.0 * a + 1.0 * c - 1.5) for a, c in ((0, 0), (0, 1), (1, 0), (1, 1))]
    assert outs[:3] == [0.0, 0.0, 0.0] and outs[3] > 0


# -- the explorer: the tanh neuron of the worked example ----------------------------------

VALUES = {"w1": 0.5, "x1": 1, "w2": 0.25, "x2": -2, "b": 0.5}
EXPRESSION = "tanh(w1*x1 + w2*x2 + b)"


def _tanh_slope(z):
    return 1 - math.tanh(z) ** 2


def test_the_explorer_starts_at_the_worked_example():
    assert explorer_blocks(PAGE) == [(EXPRESSION, VALUES)]
    assert 'data-expression="tanh(w1*x1 + w2*x2 + b)"' in block_html(PAGE)
    # The worked example's numbers: x = (1, -2), w = (0.5, 0.25), b = 0.5.
    ns = PAGE.run_cells()
    assert {k: ns[k].data for k in VALUES} == VALUES


def test_the_explorer_paragraph_states_the_inputs_grads_and_the_saturation():
    slope = _tanh_slope(0.5)
    assert_states(PAGE, 0.5 * slope, "0.393224")
    assert_states(PAGE, 0.25 * slope, "0.196612")
    # b = 3 with the other values as they start: z = 0.5 - 0.5 + 3 = 3.
    assert 0.5 * 1 + 0.25 * -2 + 3 == 3
    assert_states(PAGE, _tanh_slope(3.0), "0.009866")
    assert _tanh_slope(3.0) < 0.01
    text = " ".join(PAGE.text.split())
    assert "`x1` gets $0.5 \\cdot 0.786448 = 0.393224$" in text
    assert "`x2` gets $0.25 \\cdot 0.786448 = 0.196612$" in text
    assert "$b = 3$ makes $z = 3$" in text and "$\\tanh'(3) = 0.009866$, is below 0.01" in text
    # The engine, through the explorer, agrees with the math.
    for b, z in ((0.5, 0.5), (3, 3.0)):
        result = explore(EXPRESSION, {**VALUES, "b": b})
        grads = {n["label"]: n["grad"] for n in result["trace"]["nodes"]}
        s = _tanh_slope(z)
        expected = {"w1": 1 * s, "x1": 0.5 * s, "w2": -2 * s, "x2": 0.25 * s, "b": s}
        assert {k: grads[k] for k in expected} == pytest.approx(expected)


@pytest.fixture
def explorer_page(tmp_path):
    address, stop = serve(tmp_path, block_html(PAGE))
    yield address
    stop()


@pytest.mark.browser
def test_in_the_browser_the_explorer_draws_the_tanh_neuron(explorer_page, page):
    errors = open_explorer(page, explorer_page)
    assert page.input_value("input[data-role=expression]") == EXPRESSION
    shown = page.eval_on_selector_all(
        "input[data-var]",
        "els => els.map(e => [e.dataset.var, e.value,"
        " e.closest('label').querySelector('output').value])",
    )
    start = [(k, float(v)) for k, v in VALUES.items()]
    # Each slider sits at its start value, 0.25 included (not snapped to a 0.1 grid), and the
    # number beside it (written with a real minus, U+2212) says the same.
    assert [(n, float(x)) for n, x, _ in shown] == start
    assert [(n, float(x.replace("\u2212", "-"))) for n, _, x in shown] == start
    page.click("[data-action=finish]")
    nodes = page.eval_on_selector_all(
        "[data-node]",
        "els => Object.fromEntries(els.map(e => [e.dataset.label, [e.dataset.value, e.dataset.grad]]))",
    )
    value = {k: float(v) for k, (v, _) in nodes.items()}
    grad = {k: float(g) for k, (_, g) in nodes.items()}
    # z = 0.5*1 + 0.25*(-2) + 0.5 = 0.5; out = tanh(0.5); every grad carries tanh'(0.5).
    assert value["w1*x1+w2*x2+b"] == pytest.approx(0.5)
    assert value["tanh(w1*x1+w2*x2+b)"] == pytest.approx(math.tanh(0.5))
    s = _tanh_slope(0.5)
    expected = {"w1": 1 * s, "x1": 0.5 * s, "w2": -2 * s, "x2": 0.25 * s, "b": s}
    assert {k: grad[k] for k in expected} == pytest.approx(expected)
    # Move b to 3 as dragging does: the slider's value changes and it fires `input`.
    page.eval_on_selector(
        "input[data-var=b]",
        "el => { el.value = '3'; el.dispatchEvent(new Event('input', { bubbles: true })); }",
    )
    page.wait_for_function(
        "() => document.querySelector('[data-node][data-label=b]').dataset.value === '3'"
    )
    # The gradients stay shown and follow the slider, as the lesson's "watch" needs.
    grad = page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )
    s = _tanh_slope(3.0)
    expected = {"w1": 1 * s, "x1": 0.5 * s, "w2": -2 * s, "x2": 0.25 * s, "b": s}
    assert {k: float(grad[k]) for k in expected} == pytest.approx(expected)
    assert float(grad["b"]) < 0.01
    assert not errors, errors

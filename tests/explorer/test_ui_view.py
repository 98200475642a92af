"""The explorer draws at once, keeps the whole graph in view and its text readable.

- The graph the build embeds (hooks/explorer_fence.py) is drawn while Python is still
  booting; the sliders go live when Python answers.
- A new graph is scaled to fit its box; on a phone, no smaller than its cards' text can
  be read (11 px), with the graph above its sliders: it pans instead, and Fit shows all
  of it. Zoom, Fit and panning work from the buttons and the keyboard; arrow labels too
  small to read are hidden until zoomed.
- A refused expression hides the sliders and does not widen the page.

Expected numbers are worked out by hand from the expressions.
"""

from __future__ import annotations

import pytest
from explorer_fence import format_explorer

pytest.importorskip("pytest_playwright")

from explorer import explore  # noqa: E402

# A page whose engine answers only when the test calls window.release(): Python "booting".
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>explorer</title>
<link rel="stylesheet" href="harness.css"></head>
<body>
{block}
<script type="module">
import {{ mountExplorers }} from "./harness.js";
let release;
const booted = new Promise((resolve) => (release = resolve));
window.release = release;
window.exploreCalls = 0;
const engine = {{
  explore: async (text, values) => {{
    window.exploreCalls++;
    await booted;
    return window.pyExplore(text, values);
  }},
}};
window.explorers = mountExplorers(document.body, engine);
</script>
</body></html>
"""

SUM30 = " + ".join("abcdeghijklmnopqrstuvwxyzABCDE")  # 30 variables (f is not among them)


@pytest.fixture
def open_block(page, harness_dir, harness_url):
    """Open a page holding `block` (HTML); Python answers after window.release()."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.expose_function("pyExplore", explore)
    page.set_default_timeout(15_000)

    def open_(block, width=1280, release=True, height=800):
        page.set_viewport_size({"width": width, "height": height})
        name = f"view{abs(hash((block, width)))}.html"
        (harness_dir / name).write_text(PAGE.format(block=block), encoding="utf-8")
        page.goto(harness_url + name)
        if release:
            page.evaluate("window.release()")
            page.wait_for_selector("[data-explorer][data-state=ready]")
        return page

    yield open_
    assert not errors, f"uncaught page errors: {errors}"


def fence(expression, values=None):
    options = {"values": values} if values else {}
    return format_explorer(expression, "explorer", "course-explorer", options, None)


def bare(expression):
    return f'<div data-explorer data-expression="{expression}"></div>'


def grads(page):
    return page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )


def outside(page):
    """Labels of the nodes whose box is not inside the explorer's visible canvas."""
    return page.evaluate(
        """() => {
          const c = document.querySelector('.gx-canvas').getBoundingClientRect();
          return [...document.querySelectorAll('[data-node]')].filter((n) => {
            const r = n.getBoundingClientRect();
            return r.left < c.left - 0.5 || r.right > c.right + 0.5
              || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5;
          }).map((n) => n.dataset.label);
        }"""
    )


# -- drawn at once --------------------------------------------------------------------


def test_the_embedded_graph_is_drawn_before_python_answers(open_block):
    page = open_block(fence("(a + b) * c"), release=False)
    page.wait_for_selector("[data-node]")
    root = page.locator("[data-explorer]")
    assert root.get_attribute("data-state") == "preview"
    # a=2, b=-3, c=10: a+b = -1, (a+b)*c = -10; asked Python once, not answered yet.
    value = page.locator("[data-node][data-label='(a+b)*c']").get_attribute("data-value")
    assert float(value) == -10.0
    assert page.evaluate("window.exploreCalls") == 1
    # The timeline needs no Python: the gradients are in the embedded graph.
    page.click("[data-action=finish]")
    g = {k: float(v) for k, v in grads(page).items()}
    assert g["c"] == -1.0 and g["a"] == g["b"] == 10.0  # dc = a+b, da = db = c
    # The sliders wait for Python.
    sliders = page.locator("input[data-var]")
    assert sliders.count() == 3
    assert all(sliders.nth(i).is_disabled() for i in range(3))
    page.evaluate("window.release()")
    page.wait_for_selector("[data-explorer][data-state=ready]")
    assert not any(sliders.nth(i).is_disabled() for i in range(3))
    assert float(grads(page)["c"]) == -1.0  # still finished: same graph, same place
    sliders.first.fill("5")  # a=5: a+b = 2, so c.grad = 2
    page.wait_for_function(
        "() => document.querySelector(\"[data-node][data-label='c']\").dataset.grad === '2'"
    )


def test_the_embedded_graph_uses_the_fences_values(open_block):
    page = open_block(fence("a*b + a", {"a": 2.0, "b": 3.0}), release=False)
    page.wait_for_selector("[data-node]")
    # a*b + a at a=2, b=3: 8.
    assert float(page.locator("[data-node][data-label='a*b+a']").get_attribute("data-value")) == 8
    page.evaluate("window.release()")
    page.wait_for_selector("[data-explorer][data-state=ready]")
    sliders = page.eval_on_selector_all("input[data-var]", "els => els.map(e => Number(e.value))")
    assert sliders == [2.0, 3.0]


def test_an_embedded_graph_for_other_values_is_not_drawn(open_block):
    # A wrapping block that starts b at 5: the build's graph (b = -3) is not the live one.
    block = f"<div data-explorer-values='{{\"b\": 5}}'>{fence('a * b')}</div>"
    page = open_block(block, release=False)
    page.wait_for_selector("[data-explorer][data-mounted]")
    assert page.locator("[data-node]").count() == 0
    page.evaluate("window.release()")
    page.wait_for_selector("[data-explorer][data-state=ready]")
    # a=2, b=5: a*b = 10.
    assert float(page.locator("[data-node][data-label='a*b']").get_attribute("data-value")) == 10


# -- the whole graph in view, its text readable ------------------------------------------


@pytest.mark.parametrize("width", [1280, 390, 360])
@pytest.mark.parametrize("expression", ["(a*b + c) * f", "-2 * (3 * x**2 + 1)", SUM30])
def test_every_node_is_in_view_at_any_width(open_block, width, expression):
    page = open_block(bare(expression), width=width)
    assert page.locator("[data-node]").count() > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width < 720:
        # A phone starts the graph at a readable size and pans it (the test below);
        # Fit shows all of it at once.
        page.click("[data-zoom=fit]")
    assert outside(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# The smallest on-screen font size of the cards' text: label, value, grad and operation
# (the small italic tag, such as "constant", is 11/12 of it).
CARD_TEXT_PX = """() => {
  const svg = document.querySelector('svg.gx-svg');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll('.gx-node text:not(.gx-tag)')];
  return Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * k));
}"""

# How far the graph's top is below the first slider's top (negative: the graph is above).
GRAPH_BELOW_SLIDERS = """() => document.querySelector('.gx-canvas').getBoundingClientRect().top
  - document.querySelector('input[data-var]').getBoundingClientRect().top"""

THIRTEEN = "a*b + c*d + e*g + h*i + j*k + l*m + n"  # thirteen variables, thirteen sliders


IN_VIEW = """(label) => {
  const c = document.querySelector('.gx-canvas').getBoundingClientRect();
  const r = document.querySelector(`[data-node][data-label="${label}"]`).getBoundingClientRect();
  return r.left >= c.left - 0.5 && r.right <= c.right + 0.5
    && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5;
}"""


def test_a_phone_starts_a_graph_readable_above_its_sliders_and_pans_to_the_rest(open_block):
    page = open_block(bare("(a*b + c) * f"), width=390, height=844)
    explorer = page.locator("[data-explorer]")
    canvas = page.locator(".gx-canvas")
    for text, output in [(None, "(a*b+c)*f"), (THIRTEEN, "a*b+c*d+e*g+h*i+j*k+l*m+n")]:
        if text:
            box = page.locator("input[data-role=expression]")
            box.fill(text)
            box.press("Enter")
            page.wait_for_selector(f"[data-explorer][data-expression='{output}'][data-state=ready]")
            assert page.locator("input[data-var]").count() == 13
        # The cards' text is drawn at 11 px or more (fitted to the phone, the default
        # graph's would be about 4 px), and the graph comes before its sliders.
        assert page.evaluate(CARD_TEXT_PX) >= 11
        assert page.evaluate(GRAPH_BELOW_SLIDERS) < 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # Wider than the phone: the output, far right, is out of view; the box pans to it.
        assert output in outside(page)
        assert page.locator(".gx-zoom__hint").text_content().startswith("Drag or swipe")
        step = explorer.get_attribute("data-step")
        canvas.focus()
        for key in ["Shift+ArrowRight"] * 40 + ["Shift+ArrowDown"] * 10:
            if page.evaluate(IN_VIEW, output):
                break
            page.keyboard.press(key)
        assert page.evaluate(IN_VIEW, output)
        assert explorer.get_attribute("data-step") == step  # panned, not stepped
    # Scrolling (a swipe, a touchpad, a mouse wheel) pans too: back to the inputs.
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(-5000, 0)
    page.wait_for_function("() => document.querySelector('.gx-canvas').scrollLeft === 0")
    assert not page.evaluate(IN_VIEW, output)
    # A step of the backward pass brings the card it is at into view: first the output's.
    page.click("[data-action=finish]")
    canvas.focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert explorer.get_attribute("data-step") == "1"
    page.wait_for_function(IN_VIEW, arg=output)


def test_a_long_sum_is_laid_out_flat_and_readable_when_zoomed(open_block):
    page = open_block(bare(SUM30))
    # 30 leaves and 29 additions, each leaf next to the + that uses it. Stacked in one
    # column, 30 leaves would be 30 card rows tall (30 * 74 + 29 * 34 = 3206); the chain
    # stays within a few rows.
    assert page.locator("[data-node]").count() == 59
    height = page.evaluate("document.querySelector('svg.gx-svg').viewBox.baseVal.height")
    assert height < 6 * (74 + 34)
    canvas = page.locator(".gx-canvas")
    assert canvas.get_attribute("data-labels") == "hidden"
    assert page.locator(".gx-zoom__hint").is_visible()
    # Zoom to actual size: the labels show, and the graph now scrolls.
    page.click("[data-zoom=actual]")
    assert canvas.get_attribute("data-labels") == "shown"
    assert float(canvas.get_attribute("data-scale")) == 1.0
    label = page.locator(".gx-edge-label").first
    assert label.is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.gx-edge-label')).fontSize") == (
        "11px"
    )
    assert outside(page) != []
    page.click("[data-zoom=fit]")
    assert outside(page) == []
    assert canvas.get_attribute("data-labels") == "hidden"


def test_zoom_and_pan_from_the_keyboard(open_block):
    page = open_block(bare("(a*b + c) * f"), width=390)
    canvas = page.locator(".gx-canvas")
    canvas.focus()
    page.keyboard.press("0")  # a phone starts the graph readable: 0 fits all of it
    fitted = float(canvas.get_attribute("data-scale"))
    assert fitted < 1  # the graph is wider than a phone
    assert page.locator("[data-zoom=out]").is_disabled()  # no smaller than the fit
    page.keyboard.press("+")
    assert float(canvas.get_attribute("data-scale")) == pytest.approx(fitted * 1.25, abs=1e-3)
    page.keyboard.press("1")
    assert float(canvas.get_attribute("data-scale")) == 1.0
    before = page.evaluate("document.querySelector('.gx-canvas').scrollLeft")
    page.keyboard.press("Shift+ArrowRight")
    assert page.evaluate("document.querySelector('.gx-canvas').scrollLeft") > before
    step = page.locator("[data-explorer]").get_attribute("data-step")
    assert page.locator("[data-explorer]").get_attribute("data-step") == step  # not a step
    page.keyboard.press("-")
    assert float(canvas.get_attribute("data-scale")) == pytest.approx(0.8, abs=1e-3)
    page.keyboard.press("0")
    assert float(canvas.get_attribute("data-scale")) == pytest.approx(fitted, abs=1e-3)
    # Zoom stays put while the timeline redraws.
    page.click("[data-zoom=in]")
    zoomed = canvas.get_attribute("data-scale")
    page.click("[data-action=finish]")
    assert canvas.get_attribute("data-scale") == zoomed
    # Every zoom control is labelled.
    labels = page.eval_on_selector_all("[data-zoom]", "els => els.map(e => e.ariaLabel)")
    assert all(labels) and len(labels) == 4


def test_a_mouse_drag_pans_a_zoomed_graph(open_block):
    page = open_block(bare("(a*b + c) * f"), width=390)
    page.click("[data-zoom=actual]")
    box = page.locator(".gx-canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = page.evaluate("document.querySelector('.gx-canvas').scrollLeft")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 100, y, steps=4)
    page.mouse.up()
    after = page.evaluate("document.querySelector('.gx-canvas').scrollLeft")
    assert after - before == pytest.approx(100, abs=2)


# -- smaller things --------------------------------------------------------------------


def test_a_refused_expression_hides_the_previous_sliders(open_block):
    page = open_block(bare("(a + b) * c"))
    assert page.locator("input[data-var=a]").is_visible()
    box = page.locator("input[data-role=expression]")
    box.fill("a +")
    box.press("Enter")
    page.wait_for_selector("[data-explorer][data-state=error]")
    assert page.locator(".gx-vars").is_hidden()
    assert page.locator("input[data-var=a]").is_hidden()


def test_a_long_refused_expression_wraps_instead_of_widening_the_page(open_block):
    page = open_block(bare("a"), width=390)
    box = page.locator("input[data-role=expression]")
    # 197 characters with no space to break at; refused: open is not a function of the engine.
    box.fill("a+" * 95 + "open(1)")
    box.press("Enter")
    page.wait_for_selector("[data-explorer][data-state=error]")
    assert page.locator("[data-role=error] mark").text_content() == "open"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

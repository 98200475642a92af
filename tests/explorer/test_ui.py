"""The explorer in Chromium: build, step, finish, sliders, errors, keyboard, layout.

Expected numbers are worked out by hand from the expression (the chain rule), not
read back from the engine.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_playwright")

from explorer import PRESETS  # noqa: E402


def node(page, label):
    return page.locator(f"[data-node][data-label='{label}']")


def grads(page):
    return page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )


def values(page):
    return page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.value]))"
    )


def build(page, text):
    box = page.locator("input[data-role=expression]")
    box.fill(text)
    box.press("Enter")


def test_finish_shows_the_chain_rule_on_a_plus_b_times_c(open_explorer):
    page = open_explorer("(a + b) * c")
    labels = sorted(
        page.eval_on_selector_all("[data-node]", "els => els.map(e => e.dataset.label)")
    )
    assert labels == ["(a+b)*c", "a", "a+b", "b", "c"]
    # Built: values known (a=2, b=-3, c=10 by default), no gradient reached yet.
    assert float(node(page, "a+b").get_attribute("data-value")) == -1.0
    assert float(node(page, "(a+b)*c").get_attribute("data-value")) == -10.0
    assert set(grads(page).values()) == {""}
    assert node(page, "c").locator(".gx-grad").text_content() == "grad --"

    page.click("[data-action=finish]")
    g = {k: float(v) for k, v in grads(page).items()}
    v = {k: float(x) for k, x in values(page).items()}
    # d/dc [(a+b)c] = a+b ; d/da = d/db = c ; the root's own grad is 1.
    assert g["c"] == v["a+b"] == -1.0
    assert g["a"] == g["b"] == v["c"] == 10.0
    assert g["a+b"] == v["c"]
    assert g["(a+b)*c"] == 1.0
    # Every backward arrow reads incoming grad × local derivative = contribution.
    chains = page.eval_on_selector_all(
        ".gx-edge-label[data-role=chain]", "els => els.map(e => e.textContent)"
    )
    assert sorted(chains) == sorted(["1 × 10 = 10", "1 × −1 = −1", "10 × 1 = 10", "10 × 1 = 10"])


def test_stepping_the_backward_pass_reaches_nodes_root_first(open_explorer):
    page = open_explorer("(a*b + c) * f")
    page.click("[data-action=backward]")
    page.click("[data-action=play]")  # pause the autoplay, stay at step 1
    page.click("[data-action=prev]")
    page.click("[data-action=prev]")
    assert set(grads(page).values()) == {""}
    page.click("[data-action=next]")
    reached = {k for k, v in grads(page).items() if v}
    assert reached == {"(a*b+c)*f"}
    page.click("[data-action=next]")
    reached = {k for k, v in grads(page).items() if v}
    assert len(reached) == 2
    # L = (ab + c) f with a=2, b=-3, c=10, f=-2: dL/d(ab+c) = f = -2, dL/df = ab + c = 4.
    second = (reached - {"(a*b+c)*f"}).pop()
    assert float(grads(page)[second]) == {"a*b+c": -2.0, "f": 4.0}[second]
    narration = page.locator(".gx-narration").text_content()
    assert narration.startswith("Backward 2 of 7")
    # The scrubber moves the same timeline.
    page.locator("input[data-role=scrub]").fill("7")
    g = {k: float(v) for k, v in grads(page).items()}
    assert g == {
        "(a*b+c)*f": 1.0,
        "a*b+c": -2.0,
        "f": 4.0,
        "a*b": -2.0,
        "c": -2.0,
        "a": 6.0,
        "b": -4.0,
    }


def test_forward_mode_reveals_values_in_order(open_explorer):
    page = open_explorer("relu(a * b)")
    page.click("[data-action=forward]")
    page.click("[data-action=play]")  # pause
    page.locator("input[data-role=scrub]").fill("0")
    v = values(page)
    assert v["a"] == "2" and v["b"] == "-3" and v["a*b"] == "" and v["relu(a*b)"] == ""
    page.click("[data-action=next]")
    assert values(page)["a*b"] == "-6" and values(page)["relu(a*b)"] == ""
    assert "−6" in page.locator(".gx-narration").text_content()
    page.click("[data-action=next]")
    assert values(page)["relu(a*b)"] == "0"


def test_a_slider_recomputes_the_whole_graph(open_explorer):
    page = open_explorer("(a + b) * c")
    page.click("[data-action=finish]")
    page.locator("input[data-var=a]").fill("5")
    page.wait_for_function(
        "() => document.querySelector(\"[data-node][data-label='a+b']\").dataset.value === '2'"
    )
    # a=5, b=-3, c=10: a+b = 2, root = 20, c.grad = a+b = 2; still finished.
    assert float(node(page, "(a+b)*c").get_attribute("data-value")) == 20.0
    assert float(node(page, "c").get_attribute("data-grad")) == 2.0
    assert float(node(page, "a").get_attribute("data-grad")) == 10.0
    assert page.locator(".gx-var output").first.text_content() == "5"


def test_a_slider_into_a_bad_domain_explains_and_recovers(open_explorer):
    page = open_explorer("log(a)")
    page.locator("input[data-var=a]").fill("-1")
    error = page.locator("[data-role=error]")
    error.wait_for(state="visible")
    assert "positive input" in error.text_content()
    page.locator("input[data-var=a]").fill("4")
    error.wait_for(state="hidden")
    assert float(node(page, "log(a)").get_attribute("data-value")) == pytest.approx(1.3862943611)


@pytest.mark.parametrize(
    "text, says, marked",
    [
        ("__import__('os').system('ls')", "attributes", "__import__('os').system('ls')"),
        ("a ** b", "b.grad would silently stay 0", "b"),
        ("open('/etc/passwd')", "not one of the functions", "open"),
        ("(a + b", "never closed", "("),
        ("ab * c", "one letter, optionally followed by digits", "ab"),
    ],
)
def test_refused_expressions_show_the_reason_and_draw_nothing(open_explorer, text, says, marked):
    page = open_explorer("(a + b) * c")
    build(page, text)
    error = page.locator("[data-role=error]")
    error.wait_for(state="visible")
    assert says in error.text_content()
    assert error.locator("mark").text_content() == marked
    assert page.locator("[data-node]").count() == 0
    assert page.locator("[data-explorer]").get_attribute("data-state") == "error"
    assert page.locator("[data-action=finish]").is_disabled()
    # A good expression afterwards builds again.
    build(page, "a * a")
    page.wait_for_selector("[data-explorer][data-state=ready]")
    assert error.is_hidden()
    page.click("[data-action=finish]")
    assert float(node(page, "a").get_attribute("data-grad")) == 4.0  # d(a²)/da = 2a, a = 2


def test_a_refused_starting_expression_shows_its_error(open_explorer):
    page = open_explorer("a.__class__", wait=False)
    page.wait_for_selector("[data-explorer][data-state=error]")
    assert "attributes" in page.locator("[data-role=error]").text_content()
    assert page.locator("[data-node]").count() == 0


def test_derived_ops_and_their_expansion(open_explorer):
    page = open_explorer("a - b / c")
    labels = sorted(
        page.eval_on_selector_all("[data-node]", "els => els.map(e => e.dataset.label)")
    )
    assert labels == ["a", "a-b/c", "b", "b/c", "c"]
    assert "derived" in node(page, "a-b/c").text_content()
    page.check("[data-toggle=expand]")
    labels = page.eval_on_selector_all("[data-node]", "els => els.map(e => e.dataset.label)")
    assert {"c**-1", "b/c*-1", "-1"} <= set(labels)
    assert page.locator(".gx-group").count() == 2
    page.click("[data-action=finish]")
    # d/dc (a - b/c) = b/c² = -3/100 with b=-3, c=10; the same in both views.
    assert float(node(page, "c").get_attribute("data-grad")) == pytest.approx(-0.03)
    page.uncheck("[data-toggle=expand]")
    assert float(node(page, "c").get_attribute("data-grad")) == pytest.approx(-0.03)
    assert float(node(page, "b").get_attribute("data-grad")) == pytest.approx(-0.1)  # -1/c


def test_a_const_exponent_is_tagged(open_explorer):
    page = open_explorer("a ** 2")
    assert "const exponent" in node(page, "a**2").text_content()
    page.click("[data-action=finish]")
    assert float(node(page, "a").get_attribute("data-grad")) == 4.0


def test_final_gradients_toggle_reveals_everything_at_once(open_explorer):
    page = open_explorer("a*b + a")
    assert set(grads(page).values()) == {""}
    page.check("[data-toggle=final]")
    g = {k: float(v) for k, v in grads(page).items()}
    # d/da (ab + a) = b + 1 = -2, d/db = a = 2: two arrows leave a and their shares add.
    assert g["a"] == -2.0 and g["b"] == 2.0
    page.uncheck("[data-toggle=final]")
    assert set(grads(page).values()) == {""}


def test_presets_build(open_explorer):
    page = open_explorer("a")
    page.select_option("[data-role=preset]", "(a*b + c) * f")
    page.wait_for_selector("[data-node][data-label='(a*b+c)*f']")
    assert page.locator("input[data-var]").count() == 4


def test_the_examples_menu_offers_the_python_packages_presets(open_explorer):
    page = open_explorer("a")
    options = page.eval_on_selector_all(
        "[data-role=preset] option", "els => els.map(e => e.value).filter(Boolean)"
    )
    assert options == list(PRESETS)


def test_layout_runs_left_to_right_and_merges(open_explorer):
    page = open_explorer("(a*b + c) * f")
    boxes = page.eval_on_selector_all(
        "[data-node]",
        "els => Object.fromEntries(els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.label, [r.left, r.top, r.right, r.bottom]]; }))",
    )
    leaves = ["a", "b", "c", "f"]
    root = boxes["(a*b+c)*f"]
    assert len({boxes[x][0] for x in leaves}) == 1  # all leaves in the first column
    assert all(boxes[x][0] < boxes["a*b"][0] for x in leaves)
    assert boxes["a*b"][2] < boxes["a*b+c"][0] < boxes["a*b+c"][2] < root[0]
    # No two cards overlap.
    items = list(boxes.values())
    for i, p in enumerate(items):
        for q in items[i + 1 :]:
            assert p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1]
    # A merge: a is used twice by a*b + a, so two arrows leave one card.
    build(page, "a*b + a")
    page.wait_for_selector("[data-node][data-label='a*b+a']")
    a_id = node(page, "a").get_attribute("data-node")
    assert page.locator(f".gx-edge[data-source='{a_id}']").count() == 2
    assert node(page, "a").count() == 1


def test_keyboard_alone_drives_it(open_explorer):
    page = open_explorer("(a + b) * c")
    page.focus("input[data-role=expression]")
    page.keyboard.press("Control+A")
    page.keyboard.type("a * c")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-node][data-label='a*c']")
    page.focus(".gx-canvas")
    page.click("[data-action=backward]")
    page.focus(".gx-canvas")
    page.keyboard.press(" ")  # pause the autoplay
    page.keyboard.press("End")
    assert float(node(page, "c").get_attribute("data-grad")) == 2.0
    page.keyboard.press("Home")
    assert set(grads(page).values()) == {""}
    page.keyboard.press("ArrowRight")
    assert [k for k, v in grads(page).items() if v] == ["a*c"]
    # Every control is a native, focusable element.
    page.focus("[data-action=finish]")
    page.keyboard.press("Enter")
    assert float(node(page, "a").get_attribute("data-grad")) == 10.0


def test_the_table_is_a_text_alternative(open_explorer):
    page = open_explorer("(a + b) * c")
    page.click("[data-action=finish]")
    page.click(".gx-details summary")
    rows = page.eval_on_selector_all(
        ".gx-table table:first-of-type tbody tr",
        "rows => rows.map(r => [...r.children].map(c => c.textContent))",
    )
    table = {r[0]: (r[2], r[3]) for r in rows}
    assert table["c"] == ("10", "−1") and table["a+b"] == ("−1", "10")
    assert page.locator("svg.gx-svg").get_attribute("role") == "img"

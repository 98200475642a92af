"""The explorer's 3-D view in Chromium: the switch, the shared timeline, the clamped turn,
pulses and reduced motion, the chunk loaded on demand, and a browser without WebGL.

Chromium runs with the flags of tools/chromium.py (--disable-gpu among them); WebGL 2
still works there, drawn by its software renderer (SwiftShader), so no flag is added.
Expected numbers are worked out by hand from the expression, not read from the engine.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_playwright")

from explorer import explore  # noqa: E402
from tests.explorer.conftest import PAGE  # noqa: E402

NO_WEBGL = "3-D needs WebGL, which this browser has turned off"
NO_WEBGL2 = "3-D needs WebGL 2, which this browser does not have"


def stage(page):
    """What the 3-D view says it shows: step, mode, counts of valued/reached nodes, pulses."""
    return page.eval_on_selector(".gx-stage", "e => ({...e.dataset})")


def switch_to_3d(page):
    page.click("[data-action=view-3d]")
    page.wait_for_selector(".gx-stage[data-step] canvas")


def grads(page):
    return page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )


def table_grads(page):
    """The Grad column of the nodes' table, by label (the text alternative)."""
    return page.eval_on_selector_all(
        ".gx-table table:first-of-type tbody tr",
        "rows => Object.fromEntries(rows.map(r => [r.querySelector('th').textContent,"
        " r.querySelectorAll('td')[2].textContent]))",
    )


def test_the_switch_turns_3d_on_and_off(open_explorer):
    page = open_explorer("(a + b) * c")
    toggle = page.locator("[data-action=view-3d]")
    # 2-D is the default.
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator(".gx-canvas").is_visible()
    assert not page.locator(".gx-stage").is_visible()

    switch_to_3d(page)
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.locator(".gx-stage canvas").is_visible()
    assert not page.locator(".gx-canvas").is_visible()
    assert page.locator("[data-explorer]").get_attribute("data-view") == "3d"
    label = page.locator(".gx-stage canvas").get_attribute("aria-label")
    assert "(a+b)*c" in label and "5 nodes" in label and "table below" in label
    # Something is drawn: a canvas of one colour compresses to a few hundred bytes.
    assert len(page.locator(".gx-stage canvas").screenshot()) > 5_000

    page.evaluate(
        "() => { const c = document.querySelector('.gx-stage canvas');"
        " c.addEventListener('webglcontextlost', () => (window.contextLost = true)); }"
    )
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator(".gx-canvas").is_visible()
    assert not page.locator(".gx-stage").is_visible()
    assert page.locator("[data-explorer]").get_attribute("data-view") == "2d"
    # Turning it off frees its WebGL context on purpose: that is not news to announce.
    page.wait_for_function("() => window.contextLost === true")
    assert not page.locator(".gx-view3d__note").is_visible()
    # The 2-D hooks never stopped: the graph is still there, numbers and all.
    assert page.locator("[data-node]").count() == 5


def test_3d_steps_through_the_same_timeline_as_the_table(open_explorer):
    # (a+b)*c with a=2, b=-3, c=10: five nodes, five backward steps (root first).
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    # Built: the forward pass is done (two operations), so all five nodes have values.
    assert stage(page)["mode"] == "forward" and stage(page)["valued"] == "5"
    page.click("[data-action=finish]")
    assert stage(page)["mode"] == "backward"
    assert stage(page)["step"] == "5" and stage(page)["reached"] == "5"

    # The 3-D stage's own keys move the timeline: Home, Page Down, Page Up.
    page.focus(".gx-stage")
    page.keyboard.press("Home")
    assert stage(page)["step"] == "0" and stage(page)["reached"] == "0"
    assert set(table_grads(page).values()) == {"--"}
    page.keyboard.press("PageDown")
    assert stage(page)["step"] == "1" and stage(page)["reached"] == "1"
    assert table_grads(page)["(a+b)*c"] == "1"
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    # Three nodes reached, in the engine's order after the root; each with its grad by hand:
    # d/d(a+b) = c = 10, d/dc = a+b = -1, d/da = d/db = c = 10.
    by_hand = {"(a+b)*c": "1", "a+b": "10", "c": "−1", "a": "10", "b": "10"}
    assert stage(page)["reached"] == "3"
    shown = {k: v for k, v in table_grads(page).items() if v != "--"}
    assert len(shown) == 3 and "(a+b)*c" in shown
    assert all(by_hand[k] == v for k, v in shown.items()), shown
    page.keyboard.press("PageUp")
    assert stage(page)["step"] == "2" and stage(page)["reached"] == "2"
    # The buttons and the 2-D hooks agree with the 3-D view.
    page.click("[data-action=next]")
    assert stage(page)["step"] == page.locator("[data-explorer]").get_attribute("data-step") == "3"
    assert sum(1 for g in grads(page).values() if g) == 3


def test_forward_pulses_run_along_the_arrows(open_explorer):
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    page.click("[data-action=forward]")
    page.click("[data-action=play]")  # pause at step 1: a+b computed from its two inputs
    assert stage(page)["step"] == "1"
    assert stage(page)["valued"] == "4"  # the three leaves and a+b
    page.click("[data-action=next]")  # the root, from a+b and c: two arrows, two pulses
    assert stage(page)["valued"] == "5"
    assert stage(page)["pulses"] == "2"


def test_with_reduced_motion_the_state_changes_without_pulses(open_explorer):
    page = open_explorer("(a + b) * c")
    page.emulate_media(reduced_motion="reduce")
    switch_to_3d(page)
    page.click("[data-action=forward]")
    page.click("[data-action=play]")
    page.click("[data-action=next]")
    assert stage(page)["step"] == "2" and stage(page)["valued"] == "5"
    assert stage(page)["pulses"] == "0"


def test_the_turn_is_clamped(open_explorer):
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    before = page.locator(".gx-stage canvas").screenshot()
    page.focus(".gx-stage")
    # 5 degrees a press; 35 left and right, 20 up and down at most.
    page.keyboard.press("ArrowRight")
    assert stage(page)["azimuth"] == "-5"
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    for _ in range(10):
        page.keyboard.press("ArrowUp")
    assert (stage(page)["azimuth"], stage(page)["elevation"]) == ("-35", "-20")
    assert page.locator(".gx-stage canvas").screenshot() != before
    for _ in range(20):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    assert (stage(page)["azimuth"], stage(page)["elevation"]) == ("35", "-15")
    page.keyboard.press("0")
    assert (stage(page)["azimuth"], stage(page)["elevation"]) == ("0", "0")

    # A drag: 0.25 degree a pixel, the same sense as the keys, and the same limits.
    box = page.locator(".gx-stage canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 20, steps=4)
    assert (stage(page)["azimuth"], stage(page)["elevation"]) == ("-10", "5")
    page.mouse.move(x - 400, y + 400, steps=4)
    page.mouse.up()
    assert (stage(page)["azimuth"], stage(page)["elevation"]) == ("35", "20")


def test_three_js_is_fetched_only_when_3d_is_asked_for(page, open_explorer, harness_url):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page = open_explorer("(a + b) * c")
    assert not [u for u in requests if "/chunks/" in u]
    switch_to_3d(page)
    chunks = [u for u in requests if "/chunks/" in u]
    assert len(chunks) == 1 and "/chunks/scene3d-" in chunks[0]
    # Off and on again: the chunk is not fetched twice.
    page.click("[data-action=view-3d]")
    switch_to_3d(page)
    assert len([u for u in requests if "/chunks/" in u]) == 1
    # Nothing from any other host.
    assert all(u.startswith(harness_url) for u in requests), requests


def test_a_refused_expression_leaves_the_3d_stage_empty(open_explorer):
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    box = page.locator("input[data-role=expression]")
    box.fill("__import__('os')")
    box.press("Enter")
    page.locator("[data-role=error]").wait_for(state="visible")
    assert "step" not in stage(page)
    box.fill("a * b")
    box.press("Enter")
    page.wait_for_selector(".gx-stage[data-step]")
    # a*b with a=2, b=-3: two leaves and one operation, all valued once built.
    assert stage(page)["valued"] == "3"
    label = page.locator(".gx-stage canvas").get_attribute("aria-label")
    assert "a*b" in label and "3 nodes" in label


def open_harness(browser, harness_dir, harness_url, expression="(a + b) * c", init_script=None):
    context = browser.new_context()
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.expose_function("pyExplore", explore)
    name = "view3d-page.html"
    (harness_dir / name).write_text(PAGE.format(expression=expression))
    page.goto(harness_url + name)
    page.wait_for_selector("[data-explorer][data-state=ready]")
    return page


def test_without_webgl_the_switch_says_so_and_2d_stays(
    browser_type, browser_type_launch_args, harness_dir, harness_url
):
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), "--disable-3d-apis"]
    browser = browser_type.launch(**args)
    try:
        page = open_harness(browser, harness_dir, harness_url)
        toggle = page.locator("[data-action=view-3d]")
        assert toggle.is_disabled()
        assert toggle.get_attribute("aria-pressed") == "false"
        note = page.locator(".gx-view3d__note")
        assert note.is_visible() and note.text_content() == NO_WEBGL
        # The switch points at its reason, for screen readers too.
        assert toggle.get_attribute("aria-describedby") == note.get_attribute("id")
        assert page.locator(".gx-canvas").is_visible()
        page.click("[data-action=finish]")
        assert page.locator("[data-node][data-label=c]").get_attribute("data-grad") == "-1"
    finally:
        browser.close()


def test_with_webgl_1_only_the_switch_says_it_needs_webgl_2(browser, harness_dir, harness_url):
    only_webgl1 = """
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === "webgl2" ? null : getContext.call(this, kind, ...rest);
      };
    """
    page = open_harness(browser, harness_dir, harness_url, init_script=only_webgl1)
    try:
        assert page.locator("[data-action=view-3d]").is_disabled()
        assert page.locator(".gx-view3d__note").text_content() == NO_WEBGL2
    finally:
        page.context.close()


def test_a_lost_webgl_context_brings_2d_back_and_says_so(open_explorer):
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    # The browser takes the context back (as it may under memory pressure).
    page.evaluate(
        "() => document.querySelector('.gx-stage canvas').getContext('webgl2')"
        ".getExtension('WEBGL_lose_context').loseContext()"
    )
    note = page.locator(".gx-view3d__note")
    note.wait_for(state="visible")
    assert "lost its WebGL context" in note.text_content()
    assert page.locator("[data-action=view-3d]").get_attribute("aria-pressed") == "false"
    assert page.locator(".gx-canvas").is_visible()
    # The switch still works: a new canvas, a new context.
    switch_to_3d(page)
    assert page.locator(".gx-stage canvas").is_visible()
    assert not note.is_visible()


def test_leaving_the_page_frees_the_webgl_context(open_explorer):
    # Instant navigation swaps the page's content: the explorer goes, its context must too
    # (a page may hold only a few).
    page = open_explorer("(a + b) * c")
    switch_to_3d(page)
    page.evaluate(
        "() => { const c = document.querySelector('.gx-stage canvas');"
        " c.addEventListener('webglcontextlost', () => (window.contextLost = true));"
        " document.querySelector('[data-explorer]').remove(); }"
    )
    page.wait_for_function("() => window.contextLost === true")


def test_switching_palettes_repaints_the_3d_view(open_explorer):
    page = open_explorer("(a + b) * c")
    # Material's dark palette sets its colours under this attribute of <body>.
    page.add_style_tag(
        content="[data-md-color-scheme=slate] { --md-default-bg-color: #1e2129;"
        " --md-default-fg-color: #e2e4e9; }"
    )
    switch_to_3d(page)
    canvas = page.locator(".gx-stage canvas")
    light = canvas.screenshot()
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    assert canvas.screenshot() != light


def test_quick_presses_while_three_js_loads_end_with_one_view(page, open_explorer):
    # Count the canvases that got a WebGL 2 context: the page's check, then each 3-D scene.
    page.add_init_script(
        """
        const getContext = HTMLCanvasElement.prototype.getContext;
        const seen = new WeakSet();
        window.webgl2Canvases = 0;
        HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
          const gl = getContext.call(this, kind, ...rest);
          if (kind === "webgl2" && gl && !seen.has(this)) {
            seen.add(this);
            window.webgl2Canvases += 1;
          }
          return gl;
        };
        """
    )
    page = open_explorer("(a + b) * c")
    assert page.evaluate("window.webgl2Canvases") == 1  # the check whether to offer 3-D
    # On, off, on before the chunk has arrived: one scene, 3-D on.
    page.evaluate(
        "() => { const t = document.querySelector('[data-action=view-3d]');"
        " t.click(); t.click(); t.click(); }"
    )
    page.wait_for_selector(".gx-stage[data-step] canvas")
    assert page.locator("[data-action=view-3d]").get_attribute("aria-pressed") == "true"
    assert page.locator(".gx-stage canvas").count() == 1
    assert page.evaluate("window.webgl2Canvases") == 2

"""The graph explorer on the built site: its graph comes from the engine under Pyodide.

The UI's details are tested in tests/explorer/; this proves the real path: the
`explorer` fence, the runtime mounting it, and `explorer.explore` run in the
course's Python worker.
"""

from __future__ import annotations

import hashlib
import json
import math
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPLORER = "explorer/"


def _grads(page):
    return page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )


def _value(page, label):
    return float(page.locator(f"[data-node][data-label='{label}']").get_attribute("data-value"))


def test_explorer_builds_and_differentiates_with_the_engine_in_pyodide(course_page, base_url):
    page = course_page
    page.goto(base_url + EXPLORER)
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    box = page.locator("input[data-role=expression]")
    box.fill("(a+b)*c")
    box.press("Enter")
    page.wait_for_selector("[data-node][data-label='(a+b)*c']")
    page.click("[data-action=finish]")
    grads = {k: float(v) for k, v in _grads(page).items()}
    # The chain rule: c.grad is the value of a+b; a.grad is the value of c.
    assert grads["c"] == _value(page, "a+b") == -1.0
    assert grads["a"] == grads["b"] == _value(page, "c") == 10.0

    page.locator("input[data-var=b]").fill("1")
    page.wait_for_function(
        "() => document.querySelector(\"[data-node][data-label='a+b']\").dataset.value === '3'"
    )
    assert float(page.locator("[data-node][data-label='c']").get_attribute("data-grad")) == 3.0

    box.fill("__import__('os').getcwd()")
    box.press("Enter")
    error = page.locator("[data-role=error]")
    error.wait_for(state="visible")
    assert "attributes" in error.text_content()
    assert page.locator("[data-node]").count() == 0


def test_the_explorer_ships_as_its_own_wheel_beside_the_engine(site_dir):
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    entry = lock["packages"]["explorer"]
    assert entry["imports"] == ["explorer"] and "engine" in entry["depends"]
    wheel = site_dir / "pyodide" / entry["file_name"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"]
    with zipfile.ZipFile(wheel) as zf:
        code = {n for n in zf.namelist() if not n.startswith("explorer-")}
        # Every module and data file of explorer/, the model explorer's checkpoint included.
        assert code == {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / "explorer").rglob("*")
            if p.suffix in {".py", ".json"} and "__pycache__" not in p.parts
        }
        for data in ("explorer/presets.json", "explorer/data/microgpt.json"):
            assert zf.read(data) == (ROOT / data).read_bytes()
    # The engine's wheel is the learner's package only: nothing of the explorer in it.
    with zipfile.ZipFile(site_dir / "pyodide" / lock["packages"]["engine"]["file_name"]) as zf:
        assert not [n for n in zf.namelist() if n.startswith("explorer") or "expr" in n]


def test_day_10_embeds_its_tanh_neuron_at_the_lessons_values(course_page, base_url):
    page = course_page
    page.goto(base_url + "lessons/day10_neuron/")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    sliders = page.eval_on_selector_all(
        "input[data-var]", "els => els.map(e => [e.dataset.var, Number(e.value)])"
    )
    # The worked example: x = (1, -2), w = (0.5, 0.25), b = 0.5.
    assert sliders == [["w1", 0.5], ["x1", 1], ["w2", 0.25], ["x2", -2], ["b", 0.5]]
    page.click("[data-action=finish]")
    # z = 0.5*1 + 0.25*(-2) + 0.5 = 0.5; the bias's grad is tanh'(0.5) = 1 - tanh(0.5)^2.
    assert _value(page, "w1*x1+w2*x2+b") == 0.5
    slope = 1 - math.tanh(0.5) ** 2
    grads = {k: float(v) for k, v in _grads(page).items()}
    assert math.isclose(grads["b"], slope) and math.isclose(grads["w2"], -2 * slope)


def test_a_guided_task_is_done_on_the_real_page_and_kept_under_its_key(course_page, base_url):
    page = course_page
    page.goto(base_url + EXPLORER)
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    tasks = page.locator("[data-task]")
    assert tasks.count() == 4
    assert set(tasks.evaluate_all("els => els.map(e => e.dataset.state)")) == {"open"}
    predict = page.locator("[data-task=predict]")
    predict.locator("[data-task-action=load]").click()
    page.wait_for_selector("[data-explorer][data-expression='(a+b)*c'][data-state=ready]")
    # out = (a + b)·c at a = 2, b = -3, c = 10: ∂out/∂a = ∂out/∂b = c, ∂out/∂c = a + b.
    for box, x in zip(predict.locator("input[data-answer]").all(), ["10", "10", "-1"]):
        box.fill(x)
    predict.locator("[data-task-action=check]").click()
    assert predict.get_attribute("data-state") == "done"
    key = "derivative-to-gpt/v1/page/explorer/task/predict"
    assert page.evaluate(f"localStorage.getItem('{key}')") == "done"


def _outside(page):
    """Labels of the nodes whose box is not inside their explorer's visible canvas."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-node]')].filter((n) => {
             const c = n.closest('.gx-canvas').getBoundingClientRect();
             const r = n.getBoundingClientRect();
             return r.left < c.left - 0.5 || r.right > c.right + 0.5
               || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5;
           }).map((n) => n.dataset.label)"""
    )


# The smallest on-screen font size of the first explorer's card text: label, value, grad
# and operation (the small italic tag, such as "constant", is 11/12 of it).
_CARD_TEXT_PX = """() => {
  const svg = document.querySelector('svg.gx-svg');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll('.gx-node text:not(.gx-tag)')];
  return Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * k));
}"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("path", [EXPLORER, "lessons/day02_chain_rule/"])
def test_the_whole_graph_is_in_view_and_readable_on_a_phone(course_page, base_url, path, width):
    page = course_page
    page.set_viewport_size({"width": width, "height": 900 if width > 390 else 844})
    page.goto(base_url + path)
    page.wait_for_selector("[data-node]")
    assert page.locator("[data-node]").count() >= 7
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width == 390:
        # A phone draws the cards' text at 11 px or more (fitted, it was about 4 px), the
        # graph above its sliders, and pans it; Fit shows all of it at once.
        assert page.evaluate(_CARD_TEXT_PX) >= 11
        graph = page.locator(".gx-canvas").first.bounding_box()
        slider = page.locator("input[data-var]").first.bounding_box()
        assert graph["y"] < slider["y"]
        assert _outside(page) != []
        page.locator("[data-zoom=fit]").first.click()
    assert _outside(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_graph_is_drawn_while_python_boots(course_page, base_url):
    page = course_page
    held = []
    # Python cannot finish booting until the test lets its WebAssembly through.
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(base_url + EXPLORER)
    page.wait_for_selector("[data-node][data-label='(a*b+c)*f']")
    root = page.locator("[data-explorer]")
    # (a*b + c) * f at a=2, b=-3, c=10, f=-2: (-6 + 10) * -2 = -8.
    value = page.locator("[data-node][data-label='(a*b+c)*f']").get_attribute("data-value")
    assert float(value) == -8.0
    while not held:  # the worker has asked for Python: it is booting, and held there
        page.wait_for_timeout(100)
    assert root.get_attribute("data-state") == "preview"
    assert page.locator("input[data-var=a]").is_disabled()
    page.click("[data-action=finish]")
    # d/df = a*b + c = 4; d/da = f*b = 6.
    assert float(page.locator("[data-node][data-label='f']").get_attribute("data-grad")) == 4.0
    assert float(page.locator("[data-node][data-label='a']").get_attribute("data-grad")) == 6.0
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide.asm.wasm")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    assert page.locator("input[data-var=a]").is_enabled()


def test_the_3d_view_loads_three_js_from_the_site_on_demand(course_page, base_url, site_dir):
    page = course_page
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(base_url + EXPLORER)
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    chunk = "assets/course/chunks/scene3d-"
    assert not [u for u in fetched if chunk in u]  # a page that never asks never pays
    page.click("[data-action=view-3d]")
    page.wait_for_selector(".gx-stage[data-step] canvas")
    (url,) = [u for u in fetched if chunk in u]
    assert url.startswith(base_url)  # the site's own copy (the watch fails any other host)
    assert (site_dir / url.removeprefix(base_url)).is_file()
    # The 3-D view shows the explorer's step: (a*b + c) * f, built, has all 7 values.
    assert page.locator(".gx-stage").get_attribute("data-valued") == "7"


def test_the_first_graph_benchmark_finds_the_graph_it_strips(site_dir):
    # benchmarks/explorer_first_graph.py times the page with and without the build's graph.
    from benchmarks.explorer_first_graph import EMBEDDED

    page = (site_dir / "explorer" / "index.html").read_text(encoding="utf-8")
    assert len(EMBEDDED.findall(page)) == 1

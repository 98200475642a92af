"""The graph explorer on the built site: its graph comes from the engine under Pyodide.

The UI's details are tested in tests/explorer/; this proves the real path: the
`explorer` fence, the runtime mounting it, and `explorer.explore` run in the
course's Python worker.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

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
        assert code == {
            f"explorer/{p.name}"
            for p in (ROOT / "explorer").iterdir()
            if p.suffix in {".py", ".json"}
        }
        assert zf.read("explorer/presets.json") == (ROOT / "explorer/presets.json").read_bytes()
    # The engine's wheel is the learner's package only: nothing of the explorer in it.
    with zipfile.ZipFile(site_dir / "pyodide" / lock["packages"]["engine"]["file_name"]) as zf:
        assert not [n for n in zf.namelist() if n.startswith("explorer") or "expr" in n]


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

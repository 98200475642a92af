"""Readable in both palettes and usable by keyboard: axe-core (the pinned npm package) finds
no serious or critical violation of WCAG 2.1 A/AA on a lesson, the explorer, the map and a
notebook's page, light and dark (the explorer with its 3-D view on too); editors neither hide lines nor trap the page in a scroll
area; a notebook's page typesets its math; the contents list shows math as plain text."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    "lessons/day01_derivative/",
    "lessons/day07_accumulation/",  # a check for understanding
    "explorer/",
    "map/",
    "model-explorer/",
    "notebooks/day14_optimizers/",
]
_RUN_AXE = """
async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 3).map((n) => n.target.join(" ")
      + " :: " + ((n.any[0] || n.all[0] || n.none[0] || {}).message || "")).join(" | "));
}
"""


def _palette(page, scheme):
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    page.wait_for_timeout(400)  # Material's colour transitions end before anything is measured


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_no_serious_violation(course_page, base_url, path, scheme):
    page = course_page
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    page.wait_for_function("document.querySelector('article') !== null")
    _palette(page, scheme)
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_serious_violation_with_the_3d_view_on(course_page, base_url, scheme):
    page = course_page
    page.goto(base_url + "explorer/")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    _palette(page, scheme)
    page.click("[data-action=view-3d]")
    page.wait_for_selector(".gx-stage[data-step] canvas")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)


def test_an_editor_grows_with_its_code_and_wraps_long_lines(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 700, "height": 900})
    page.goto(base_url + "lessons/day05_add_mul/")
    editors = page.locator(".course-editor .cm-scroller")
    editors.first.wait_for()
    sizes = editors.evaluate_all(
        "els => els.map(e => [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight])"
    )
    assert sizes and all(dx <= 1 and dy <= 1 for dx, dy in sizes), sizes  # nothing to scroll


def test_an_exercise_editor_starts_at_the_line_to_write(course_page, base_url):
    page = course_page
    page.goto(base_url + "lessons/day05_add_mul/")
    stub = (ROOT / "exercises" / "day05_add_mul.py").read_text(encoding="utf-8").split("\n")
    want = next(i for i, line in enumerate(stub, 1) if "your code" in line)
    editor = page.locator("[data-exercise='day05_add_mul.py'] .cm-editor")
    editor.wait_for()
    line = editor.evaluate(
        "el => { const s = el.courseEditor.state; return s.doc.lineAt(s.selection.main.head).number }"
    )
    assert line == want


def test_a_notebook_page_typesets_its_math(course_page, base_url):
    page = course_page
    page.goto(base_url + "notebooks/day14_optimizers/")
    page.wait_for_selector(".jupyter-wrapper .katex", state="attached")
    text = page.locator(".jupyter-wrapper").inner_text()
    assert "$" not in text.replace("$ ", ""), "raw TeX left on the notebook's page"


@pytest.mark.parametrize("path", ["lessons/day14_optimizers/", "notebooks/day14_optimizers/"])
def test_the_contents_list_shows_math_as_plain_text(course_page, base_url, path):
    page = course_page
    page.goto(base_url + path)
    toc = page.locator(".md-nav--secondary").first.inner_text()
    assert "L = w² from w = 1, η = 0.1" in toc
    assert "\\(" not in toc and "$" not in toc


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_guided_tasks_read_well_with_their_messages_showing(course_page, base_url, scheme):
    """A task done and a task refused, in each palette: their colours and live lines pass axe."""
    page = course_page
    page.goto(base_url + "explorer/")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    predict = page.locator("[data-task=predict]")
    predict.locator("[data-task-action=load]").click()
    page.wait_for_selector("[data-explorer][data-expression='(a+b)*c'][data-state=ready]")
    for box, x in zip(predict.locator("input[data-answer]").all(), ["10", "10", "-1"]):
        box.fill(x)
    predict.locator("[data-task-action=check]").click()
    two = page.locator("[data-task=two-paths]")
    two.locator("input[data-answer]").fill("x")
    two.locator("[data-task-action=check]").click()
    assert predict.get_attribute("data-state") == "done"
    assert "Type a number" in two.locator("[role=status]").text_content()
    _palette(page, scheme)
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)

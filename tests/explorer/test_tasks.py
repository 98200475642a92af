"""The guided tasks of the explorer page, in Chromium: each task's condition reached by
driving the real explorer (Load, sliders, Backward, the answer boxes), and a failing
attempt left open with its message.

The page holds the tasks the explorer page declares (docs/explorer.md) under one
explorer, as the site mounts them. Expected gradients are worked out by hand:
out = (a + b)·c gives ∂out/∂a = ∂out/∂b = c and ∂out/∂c = a + b; relu(a·b) gives
a.grad = b and b.grad = a while a·b > 0, and 0 for both once a·b ≤ 0 (the engine takes
relu's slope at 0 as 0); a·a gives a.grad = a + a = 2a; a·b gives a.grad = b.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pytest_playwright")

from explorer import explore  # noqa: E402

from .conftest import ROOT  # noqa: E402

TASK_IDS = re.findall(
    r'<div class="course-task" data-task="([\w-]+)" data-state="open" markdown>',
    (ROOT / "docs" / "explorer.md").read_text(encoding="utf-8"),
)
KEY = "derivative-to-gpt/v1/page/explorer/task/"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tasks</title>
<link rel="stylesheet" href="harness.css"></head>
<body>
<div data-explorer data-expression="a + b"></div>
{tasks}
<script type="module">
import {{ mountExplorers }} from "./harness.js";
import {{ mountTasks }} from "./harness-tasks.js";
const engine = {{ explore: (text, values) => window.pyExplore(text, values) }};
window.explorers = mountExplorers(document.body, engine);
window.tasks = mountTasks(document.body, window.explorers[0], {{ page: "explorer" }});
</script>
</body></html>
"""


@pytest.fixture
def tasks_page(page, harness_dir, harness_url):
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.expose_function("pyExplore", explore)
    page.set_default_timeout(15_000)
    tasks = "\n".join(
        f'<div class="course-task" data-task="{t}" data-state="open"><h3>{t}</h3></div>'
        for t in TASK_IDS
    )
    (harness_dir / "tasks.html").write_text(PAGE.format(tasks=tasks))
    page.goto(harness_url + "tasks.html")
    page.wait_for_selector("[data-explorer][data-state=ready]")
    yield page
    assert not errors, f"uncaught page errors: {errors}"


def task(page, name):
    return page.locator(f"[data-task={name}]")


def status(page, name):
    return task(page, name).locator("[role=status]")


def load(page, name, expression):
    task(page, name).locator("[data-task-action=load]").click()
    page.wait_for_selector(f"[data-explorer][data-expression='{expression}'][data-state=ready]")


def build(page, text, expression):
    box = page.locator("input[data-role=expression]")
    box.fill(text)
    box.press("Enter")
    page.wait_for_selector(f"[data-explorer][data-expression='{expression}'][data-state=ready]")


def slide(page, name, value, label, want):
    """Move a slider, then wait until node `label` shows value `want`."""
    page.locator(f"input[data-var={name}]").fill(value)
    page.wait_for_function(
        f"() => document.querySelector(\"[data-node][data-label='{label}']\")"
        f"?.dataset.value === '{want}'"
    )


def answer(page, name, *numbers):
    boxes = task(page, name).locator("input[data-answer]")
    for i, x in enumerate(numbers):
        boxes.nth(i).fill(x)
    task(page, name).locator("[data-task-action=check]").click()


def test_the_page_declares_four_tasks_each_open_with_a_status_line(tasks_page):
    page = tasks_page
    assert TASK_IDS == ["predict", "dead-relu", "two-paths", "downhill"]
    for name in TASK_IDS:
        assert task(page, name).get_attribute("data-state") == "open"
        assert status(page, name).count() == 1
    # Every answer box has a label the page shows.
    labels = task(page, "predict").locator("label").all_text_contents()
    assert labels == ["∂out/∂a", "∂out/∂b", "∂out/∂c"]


def test_predict_three_right_gradients_marks_the_task_done(tasks_page):
    page = tasks_page
    load(page, "predict", "(a+b)*c")
    assert "a = 2, b = −3, c = 10" in task(page, "predict").text_content()
    # a = 2, b = -3, c = 10: ∂out/∂a = ∂out/∂b = c = 10, ∂out/∂c = a + b = -1.
    boxes = task(page, "predict").locator("input[data-answer]")
    boxes.nth(0).fill("10")
    boxes.nth(1).fill("10")
    boxes.nth(2).fill("−1")  # a typographic minus reads as one
    boxes.nth(2).press("Enter")  # the keyboard checks too
    assert task(page, "predict").get_attribute("data-state") == "done"
    assert status(page, "predict").text_content().startswith("✓ Done: all three right")


def test_predict_a_wrong_gradient_stays_open_and_names_it_without_the_number(tasks_page):
    page = tasks_page
    load(page, "predict", "(a+b)*c")
    answer(page, "predict", "10", "1", "-1")
    assert task(page, "predict").get_attribute("data-state") == "open"
    said = status(page, "predict").text_content()
    assert said.startswith("✗ ∂out/∂b is off.") and "chain rule" in said
    assert "10" not in said
    answer(page, "predict", "ten", "10", "-1")
    assert "Type a number" in status(page, "predict").text_content()
    assert task(page, "predict").get_attribute("data-state") == "open"


def test_predict_hints_at_the_gradient_that_is_off_not_another(tasks_page):
    page = tasks_page
    load(page, "predict", "(a+b)*c")
    # a = 2, b = -3, c = 10: ∂out/∂c = a + b = -1 is off; a and b are right.
    answer(page, "predict", "10", "10", "1")
    said = status(page, "predict").text_content()
    assert said.startswith("✗ ∂out/∂c is off.")
    assert "∂out/∂c" in said.removeprefix("✗ ∂out/∂c is off.")  # the hint is about c...
    assert "∂out/∂a" not in said and "∂out/∂b" not in said  # ...and about nothing else
    assert "-1" not in said and "−1" not in said
    answer(page, "predict", "10", "10", "1")  # the second hint says more, about c still
    said = status(page, "predict").text_content()
    assert "with respect to c" in said and "∂out/∂a" not in said
    assert task(page, "predict").get_attribute("data-state") == "open"


def test_predict_is_judged_at_the_values_the_sliders_set(tasks_page):
    page = tasks_page
    load(page, "predict", "(a+b)*c")
    slide(page, "a", "5", "a+b", "2")
    # a = 5, b = -3, c = 10: ∂out/∂c = a + b = 2 now, -1 is wrong.
    answer(page, "predict", "10", "10", "-1")
    assert task(page, "predict").get_attribute("data-state") == "open"
    assert status(page, "predict").text_content().startswith("✗ ∂out/∂c is off.")
    answer(page, "predict", "10", "10", "2")
    assert task(page, "predict").get_attribute("data-state") == "done"


def test_predict_asks_for_its_expression_first(tasks_page):
    page = tasks_page
    answer(page, "predict", "1", "1", "1")  # the explorer shows a + b
    assert "press Load first" in status(page, "predict").text_content()
    assert task(page, "predict").get_attribute("data-state") == "open"


def test_relu_goes_dead_when_the_sliders_make_a_times_b_negative(tasks_page):
    page = tasks_page
    load(page, "dead-relu", "relu(a*b)")
    page.click("[data-action=finish]")
    # a = 2, b = 3: a·b = 6 > 0, relu passes 1 back: a.grad = b = 3, b.grad = a = 2.
    said = status(page, "dead-relu").text_content()
    assert said.startswith("Still alive: a·b = 6 > 0")
    assert "a.grad = 3" in said and "b.grad = 2" in said
    assert task(page, "dead-relu").get_attribute("data-state") == "open"
    slide(page, "b", "-1", "a*b", "-2")
    assert task(page, "dead-relu").get_attribute("data-state") == "done"
    grads = page.eval_on_selector_all(
        "[data-node]", "els => Object.fromEntries(els.map(e => [e.dataset.label, e.dataset.grad]))"
    )
    assert grads == {"a": "0", "b": "0", "a*b": "0", "relu(a*b)": "1"}
    assert status(page, "dead-relu").text_content().startswith("✓ Done: a·b = −2")


def test_relu_at_exactly_zero_is_dead_too_and_the_task_says_why(tasks_page):
    page = tasks_page
    build(page, "relu( a*b )", "relu(a*b)")  # typed, any spacing
    slide(page, "a", "0", "a*b", "0")
    assert task(page, "dead-relu").get_attribute("data-state") == "open"  # no backward yet
    page.click("[data-action=finish]")
    assert task(page, "dead-relu").get_attribute("data-state") == "done"
    assert "at exactly 0" in status(page, "dead-relu").text_content()


def test_two_paths_a_one_path_guess_stays_open_the_sum_is_done_after_backward(tasks_page):
    page = tasks_page
    load(page, "two-paths", "a*a")
    # a = 3: one arrow brings back 3, the two together 6.
    answer(page, "two-paths", "3")
    assert task(page, "two-paths").get_attribute("data-state") == "open"
    assert status(page, "two-paths").text_content().startswith("✗ Not yet.")
    answer(page, "two-paths", "6")
    assert task(page, "two-paths").get_attribute("data-state") == "open"
    assert "show the backward pass" in status(page, "two-paths").text_content()
    page.click("[data-action=finish]")
    assert task(page, "two-paths").get_attribute("data-state") == "done"
    assert "a.grad = 6 = 3 + 3" in status(page, "two-paths").text_content()


def test_two_paths_a_moved_slider_asks_for_a_new_prediction(tasks_page):
    page = tasks_page
    load(page, "two-paths", "a*a")
    answer(page, "two-paths", "6")
    slide(page, "a", "4", "a*a", "16")
    assert "predict a.grad again" in status(page, "two-paths").text_content()
    page.click("[data-action=finish]")
    assert task(page, "two-paths").get_attribute("data-state") == "open"
    answer(page, "two-paths", "8")  # a = 4: 4 + 4, and the backward pass is showing
    assert task(page, "two-paths").get_attribute("data-state") == "done"


def test_downhill_needs_a_negative_gradient_of_the_learners_own_and_quotes_its_numbers(
    tasks_page,
):
    page = tasks_page
    check = task(page, "downhill").locator("[data-task-action=check]")
    task(page, "downhill").locator("input[data-answer]").fill("a")  # the prediction
    build(page, "(a + b) * c", "(a+b)*c")
    page.click("[data-action=finish]")
    # An example's graph is given, not found, even with a negative grad: c.grad = a + b = -1.
    assert task(page, "downhill").get_attribute("data-state") == "open"
    check.click()
    assert "one of the explorer's examples" in status(page, "downhill").text_content()
    build(page, "a * a + b", "a*a+b")
    check.click()  # grads not shown yet
    assert "show the backward pass" in status(page, "downhill").text_content()
    page.click("[data-action=finish]")
    check.click()
    # a = 2, b = -3: a.grad = 2a = 4, b.grad = 1, both ≥ 0.
    assert task(page, "downhill").get_attribute("data-state") == "open"
    assert (
        "every variable's grad is ≥ 0 (a.grad = 4, b.grad = 1)"
        in status(page, "downhill").text_content()
    )
    build(page, "a * b", "a*b")
    page.click("[data-action=finish]")
    assert task(page, "downhill").get_attribute("data-state") == "open"  # not until Check
    check.click()
    # a = 2, b = -3: a.grad = b = -3, so a + 0.01 moves a·b = -6 by -0.03.
    assert task(page, "downhill").get_attribute("data-state") == "done"
    assert status(page, "downhill").text_content() == (
        "✓ Done: in a*b, a.grad = −3. Raising a by a little lowers the output by about 3 "
        "times as much: a from 2 to 2.01 takes the output from −6 to about −6.03."
    )


def test_downhill_asks_for_the_variable_it_says_to_predict_and_checks_it(tasks_page):
    page = tasks_page
    downhill = task(page, "downhill")
    assert downhill.locator("label").all_text_contents() == ["Variable with a negative grad"]
    build(page, "a * b", "a*b")
    page.click("[data-action=finish]")
    downhill.locator("[data-task-action=check]").click()  # no prediction typed
    assert "Type a variable's name" in status(page, "downhill").text_content()
    assert downhill.locator("input[data-answer]").get_attribute("aria-invalid") == "true"
    # a = 2, b = -3: a.grad = b = -3 < 0, b.grad = a = 2 > 0.
    answer(page, "downhill", "b")
    assert downhill.get_attribute("data-state") == "open"
    assert (
        status(page, "downhill")
        .text_content()
        .startswith("✗ b.grad = 2: raising b does not lower the output.")
    )
    answer(page, "downhill", "x")
    assert status(page, "downhill").text_content() == (
        "x is not a variable of a*b: type one of a and b."
    )
    answer(page, "downhill", " a ")
    assert downhill.get_attribute("data-state") == "done"
    assert status(page, "downhill").text_content().startswith("✓ Done: in a*b, a.grad = −3.")


def test_a_done_task_is_kept_for_the_next_visit(tasks_page):
    page = tasks_page
    load(page, "predict", "(a+b)*c")
    answer(page, "predict", "10", "10", "-1")
    assert page.evaluate(f"localStorage.getItem('{KEY}predict')") == "done"
    page.reload()
    page.wait_for_selector("[data-explorer][data-state=ready]")
    assert task(page, "predict").get_attribute("data-state") == "done"
    assert "earlier visit" in status(page, "predict").text_content()
    assert task(page, "two-paths").get_attribute("data-state") == "open"

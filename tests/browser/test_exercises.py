"""Exercise blocks in Chromium: Check runs the public checks in the page's Python."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

from helpers import (
    LONG_GRACE_MS,
    PLAYGROUND,
    click_and_read_saved,
    editor_text,
    run_status,
    saved_code,
    set_code,
    stop_grace,
    wait_state,
)
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
FILE = "day05_add_mul.py"
EDIT_KEY = f"derivative-to-gpt/v1/exercise/{FILE}"
PASSED_KEY = f"derivative-to-gpt/v1/exercise/{FILE}/passed"


def exercise(page):
    return page.locator(f"[data-exercise='{FILE}']")


def check(block, timeout=90.0):
    block.evaluate("el => { el.dataset.state = 'before-test-check' }")
    block.locator("[data-action=check]").click()
    return wait_state(block, ("pass", "fail"), timeout=timeout)


def test_the_editor_holds_the_exercise_file(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    assert editor_text(block) == (ROOT / "exercises" / FILE).read_text()


def test_the_stub_fails_and_the_reference_passes(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    assert check(block) == "fail"
    result = block.locator("[data-result]")
    assert "NotImplementedError" in result.inner_text() or "✗" in result.inner_text()
    assert block.locator("[data-result] li[data-passed='false']").count() >= 1
    assert saved_code(page, PASSED_KEY) is None  # a failing file is not kept as passed

    solution = (ROOT / "solutions" / FILE).read_text()
    set_code(block, solution)
    assert check(block) == "pass", block.locator("[data-result]").inner_text()
    assert block.locator("[data-result] li[data-passed='false']").count() == 0
    assert block.locator("[data-result] li[data-passed='true']").count() >= 1
    assert block.locator(".course-exercise__done").is_visible()
    # The code that passed is kept apart from the edit (the "My engine" switch runs it).
    assert saved_code(page, PASSED_KEY) == solution

    # The done flag and the edit survive a reload.
    page.wait_for_timeout(600)
    page.reload()
    block = exercise(page)
    assert block.locator(".course-exercise__done").is_visible()
    assert "NotImplementedError" not in editor_text(block)

    # A later edit is the learner's own: the code that passed stays as it was, and the reverse.
    set_code(block, solution + "# tried something else\n")
    page.wait_for_timeout(600)
    assert saved_code(page, EDIT_KEY) == solution + "# tried something else\n"
    assert saved_code(page, PASSED_KEY) == solution


def test_hints_open_one_at_a_time(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    hint = block.locator("[data-action=hint]")
    assert hint.inner_text() == "Hint 1 of 2"
    assert block.locator(".course-exercise__hints li").count() == 0
    hint.click()
    assert block.locator(".course-exercise__hints li").count() == 1
    assert "distributes" in block.locator(".course-exercise__hints li").first.inner_text()
    assert hint.inner_text() == "Hint 2 of 2"
    hint.click()
    assert block.locator(".course-exercise__hints li").count() == 2
    assert hint.is_disabled()


def test_download_all_exercises_as_one_zip_with_edits(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    set_code(block, "# my attempt\n")
    page.wait_for_timeout(600)
    with page.expect_download() as info:
        block.locator("[data-action=download]").click()
    data = Path(info.value.path()).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = sorted(zf.namelist())
        expected = sorted(
            f"exercises/{p.relative_to(ROOT / 'exercises').as_posix()}"
            for p in (ROOT / "exercises").rglob("*.py")
            if "__pycache__" not in p.parts
        )
        assert names == expected
        assert zf.read(f"exercises/{FILE}").decode() == "# my attempt\n"


def result_text(block):
    return block.locator("[data-result]").inner_text()


def test_an_endless_loop_in_an_exercise_can_be_stopped(course_page, base_url):
    page = course_page
    stop_grace(page, LONG_GRACE_MS)  # an interrupt, however long a loaded machine takes
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    stop = block.locator("[data-action=stop]")
    assert stop.is_disabled()
    set_code(block, "while True:\n    pass\n")
    block.locator("[data-action=check]").click()
    wait_state(block, "running", timeout=60)
    page.wait_for_timeout(500)
    stop.click()
    # Stopped (how fast is for benchmarks, not a timed assertion on a shared machine) by an
    # interrupt that keeps the session: the grace before a restart is longer than this wait.
    wait_state(block, "idle", timeout=60)
    assert result_text(block).strip() == "Stopped."
    assert stop.is_disabled()
    # Python is still there (the interrupt kept it): the reference passes at once.
    set_code(block, (ROOT / "solutions" / FILE).read_text())
    assert check(block, timeout=30) == "pass", result_text(block)


def hold(page, pattern):
    """Hold the responses to requests matching `pattern` until the returned function is called."""
    held = []
    page.context.route(pattern, lambda route: held.append(route))

    def release():
        for route in held:
            route.continue_()
        page.context.unroute(pattern)
        return len(held)

    return release


def python_ready(page):
    page.wait_for_function("() => coursePython.status.phase === 'ready'", timeout=60_000)


def test_a_stop_pressed_while_the_checks_load_stops_them_and_keeps_python(course_page, base_url):
    page = course_page
    stop_grace(page, LONG_GRACE_MS)  # an interrupt, however long a loaded machine takes
    page.goto(base_url + PLAYGROUND)
    python_ready(page)
    block = exercise(page)
    release = hold(page, "**/grader-*.whl")
    set_code(block, "while True:\n    pass\n")
    block.locator("[data-action=check]").click()
    expect(block.locator("[data-run-status]")).to_have_text("loading the checks…", timeout=10_000)
    assert block.get_attribute("data-state") == "waiting"  # not yet running: no time limit yet
    block.locator("[data-action=stop]").click()
    page.wait_for_timeout(300)
    assert release() == 1
    wait_state(block, "idle", timeout=60)
    # The stop reached the loop once it started: an interrupt, not a new Python.
    assert result_text(block).strip() == "Stopped."
    set_code(block, (ROOT / "solutions" / FILE).read_text())
    assert check(block, timeout=30) == "pass", result_text(block)


def test_the_checks_time_limit_counts_from_when_they_start(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    python_ready(page)
    block = exercise(page)
    block.evaluate("el => { el.dataset.timeout = '2' }")
    set_code(block, (ROOT / "solutions" / FILE).read_text())
    release = hold(page, "**/grader-*.whl")
    block.evaluate("el => { el.dataset.state = 'before-test-check' }")
    block.locator("[data-action=check]").click()
    page.wait_for_timeout(3000)  # longer than the limit, spent loading the checks
    assert block.get_attribute("data-state") == "waiting"
    assert release() == 1
    assert wait_state(block, ("pass", "fail"), timeout=30) == "pass", result_text(block)


def test_the_checks_time_limit_is_said_in_words(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    block.evaluate("el => { el.dataset.timeout = '2' }")  # the default is 60 s
    set_code(block, "while True:\n    pass\n")
    start = time.monotonic()
    assert check(block, timeout=30) == "fail"
    assert time.monotonic() - start < 30
    text = result_text(block)
    assert text.startswith("Stopped after 2 s: the checks never finished"), text
    assert "undefined" not in text


def test_a_long_check_shows_how_long_it_has_run(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    stub = editor_text(block)
    set_code(block, "import time\ntime.sleep(2.5)\n" + stub)
    block.locator("[data-action=check]").click()
    status = block.locator("[data-run-status]")
    expect(status).to_have_text("checking… 2 s", timeout=60_000)
    assert wait_state(block, ("pass", "fail")) == "fail"
    assert run_status(block) == ""


def test_the_stubs_message_points_to_the_lesson_and_the_check_button(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    assert check(block) == "fail"
    result = block.locator("[data-result]")
    text = result.inner_text()
    assert "docs/lessons/" not in text and "python -m grader" not in text
    assert "Day 5: write _backward of +." in text
    assert "then press ✓ Check again" in text
    links = result.locator("a[data-lesson-link]")
    assert links.count() >= 1
    href = base_url + "lessons/day05_add_mul/#exercise-day05_add_mul"
    assert {links.nth(i).evaluate("a => a.href") for i in range(links.count())} == {href}
    # The file in the editor is the file, but the page tells the page's way to check it.
    assert editor_text(block) == (ROOT / "exercises" / FILE).read_text()
    # CodeMirror draws the lines in the window: bring the file's top, its docstring, into view.
    block.locator(".cm-editor").evaluate("el => el.scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(200)
    shown = block.locator(".cm-content").inner_text()
    docstring = shown.split('"""')[1]  # the file's own words; its code (a stub's raise) is code
    assert "Check your work: press ✓ Check below" in docstring
    assert "docs/lessons/" not in docstring
    # The link leads to the exercise on the lesson's page.
    links.first.click()
    page.wait_for_url(href)
    target = page.locator("#exercise-day05_add_mul")
    expect(target).to_be_in_viewport()
    assert target.get_attribute("data-exercise") == FILE


def test_a_file_that_does_not_run_is_said_once(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    set_code(block, "def broken(:\n    pass\n")
    assert check(block) == "fail"
    text = result_text(block)
    assert text.count("SyntaxError") == 1, text
    assert "none of its 9 checks could run" in text
    assert block.locator("[data-result] li[data-passed='false']").count() == 9


def test_an_exercise_edit_typed_just_before_a_reload_is_kept(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    original = editor_text(block)
    block.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# mine")
    page.reload(wait_until="commit")  # at once: within the typing pause that saves an edit
    assert editor_text(exercise(page)) == original + "# mine"


def test_check_saves_the_edit_at_once(course_page, base_url):
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = exercise(page)
    set_code(block, "# saved on Check\n")
    key = f"derivative-to-gpt/v1/exercise/{FILE}"
    assert click_and_read_saved(block, "check", key) == "# saved on Check\n"


def test_day_6_forward_order_feedback_names_the_order_not_the_seed(course_page, base_url):
    """A backward() that runs the nodes in forward order sets the seed all the same: the page's
    feedback says to reverse the order, never "set self.grad = 1.0" (a bug it does not have)."""
    page = course_page
    page.goto(base_url + "lessons/day06_backward/")
    block = page.locator("[data-exercise='day06_backward.py']")
    solution = (ROOT / "solutions" / "day06_backward.py").read_text()
    forward = solution.replace(
        "for v in reversed(self.topological_order())", "for v in self.topological_order()"
    )
    assert forward != solution
    set_code(block, forward)
    assert check(block) == "fail"
    text = result_text(block)
    assert "reversed order" in text, text
    assert "self.grad = 1.0" not in text and "every gradient is 0" not in text, text

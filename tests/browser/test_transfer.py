"""Export my work / Import my work on the course map: a learner's whole state goes from one
browser context to a fresh one and shows up in the editors, the map, the navigation and the
answers; the preview names what an import would replace; a done mark is never undone; a bad
file, a Cancel and a storage that refuses midway change nothing; the block passes axe in both
palettes with the preview open."""

from __future__ import annotations

import json
import re

import pytest
from helpers import PLAYGROUND, cell, editor_text, set_code, wait_state

from tests.browser.conftest import ROOT, PageWatch
from tests.browser.test_accessibility import _RUN_AXE, AXE

PREFIX = "derivative-to-gpt/v1/"
LESSON = "lessons/day05_add_mul/"
FILE = "day05_add_mul.py"
CELL_KEY = f"{PREFIX}page/lessons/day05_add_mul/cell/1"
DONE_KEY = f"{PREFIX}exercise/{FILE}/done"
RIGHT_Q = "swapper-with-small-c"  # numbers typed
WRONG_Q = "swapper-without-out-grad"  # a choice

# Every key this site keeps in localStorage, course or not (the comparison of before and after).
_STORAGE = "() => Object.fromEntries(Object.entries(localStorage))"
_WORK = f"() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith({PREFIX!r})))"


@pytest.fixture
def second_context(browser, browser_context_args):
    """Another learner's browser: a fresh context, watched as the first one is."""
    context = browser.new_context(**browser_context_args)
    watch = PageWatch()
    context.on("page", watch.attach)
    yield context
    context.close()
    assert not watch.foreign and not watch.errors and not watch.failed, vars(watch)


def _map(page, base_url):
    page.goto(base_url + "map/")
    page.locator("[data-action=export]").wait_for()
    return page


def _export(page, tmp_path, name="work.json"):
    """Click Export my work; the file it downloads (path, parsed) and its suggested name."""
    with page.expect_download() as info:
        page.locator("[data-action=export]").click()
    path = tmp_path / name
    info.value.save_as(path)
    return path, json.loads(path.read_text(encoding="utf-8")), info.value.suggested_filename


def _choose(page, path):
    """Pick `path` in the file picker that Import my work opens."""
    with page.expect_file_chooser() as chooser:
        page.locator("[data-action=import]").click()
    chooser.value.set_files(str(path))


def _preview(page):
    """The preview of an import, once the file has been read."""
    preview = page.locator(".course-transfer__preview")
    preview.wait_for()
    return preview


def _status(page):
    return page.locator(".course-transfer__status").inner_text()


def _alert(page):
    return page.locator(".course-transfer__error").inner_text()


def _put(page, items):
    page.evaluate(
        "items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v) }",
        {k: v if isinstance(v, str) else json.dumps(v) for k, v in items.items()},
    )


def _answer(form, right):
    """Answer a check for understanding right or wrong, from what its form carries."""
    radios = form.locator("input[type=radio]")
    if radios.count():
        pick = "input[type=radio][data-right]" if right else "input[type=radio]:not([data-right])"
        form.locator(pick).first.check()
    else:
        for box in form.locator(".course-question__blank input").all():
            value = float(box.get_attribute("data-value"))
            box.fill(repr(value if right else value + 1000))
    form.locator("button[type=submit]").click()
    assert form.get_attribute("data-state") == ("right" if right else "wrong")


def test_export_then_import_moves_the_whole_work_to_a_fresh_browser(
    course_page, second_context, base_url, tmp_path
):
    page = course_page
    page.goto(base_url + LESSON)
    # A cell edited, the exercise passed, one question right and one wrong.
    set_code(cell(page, 1), "# my own try\nprint(2 + 2)")
    exercise = page.locator(f"[data-exercise='{FILE}']")
    solution = (ROOT / "solutions" / FILE).read_text(encoding="utf-8")
    set_code(exercise, solution)
    exercise.evaluate("el => { el.dataset.state = 'before-test-check' }")
    exercise.locator("[data-action=check]").click()
    assert wait_state(exercise, ("pass", "fail"), timeout=120) == "pass"
    _answer(page.locator(f"[data-question='{RIGHT_Q}']"), right=True)
    _answer(page.locator(f"[data-question='{WRONG_Q}']"), right=False)

    _map(page, base_url)
    path, data, name = _export(page, tmp_path)
    assert re.fullmatch(r"derivative-to-gpt-work-\d{4}-\d\d-\d\d\.json", name)
    assert data["format"] == "course-work" and data["course"] == "derivative-to-gpt"
    assert data["storageVersion"] == 1 and data["siteVersion"]
    assert "2 edits, 1 exercise done, 2 answers" in _status(page)
    mine = page.evaluate(_WORK)
    # Five items and the code that passed the exercise (the "My engine" switch runs it).
    assert len(mine) == 6 and CELL_KEY in mine and mine[DONE_KEY] == "1"
    assert json.loads(mine[f"{PREFIX}exercise/{FILE}/passed"])["code"] == solution
    assert sorted(data["items"]) == sorted(k.removeprefix(PREFIX) for k in mine)

    other = second_context.new_page()
    other.set_default_timeout(60_000)
    _map(other, base_url)
    done = other.locator(f".course-done[data-exercise='{FILE}']")
    assert done.inner_text() == "○"
    _choose(other, path)
    preview = _preview(other)
    assert "6 new items" in preview.inner_text()
    assert other.evaluate("document.activeElement.id") == "course-transfer-title"
    preview.locator("[data-action=import-confirm]").click()
    assert "Imported 6 items" in _status(other)
    # The map marks at once, with no reload.
    assert done.inner_text() == "✓"
    assert "1 of" in other.locator(".course-map__progress").inner_text()
    assert (
        other.locator(".course-answers[data-page='lessons/day05_add_mul']")
        .inner_text()
        .startswith("1/")
    )
    nav = other.locator(".md-nav--primary .md-nav__link.course-nav--done")
    assert nav.count() >= 1 and all("day05_add_mul" in a.get_attribute("href") for a in nav.all())
    assert other.evaluate(_WORK) == mine

    other.goto(base_url + LESSON)
    assert editor_text(cell(other, 1)) == "# my own try\nprint(2 + 2)"
    block = other.locator(f"[data-exercise='{FILE}']")
    assert editor_text(block) == solution
    assert block.locator(".course-exercise__done").is_visible()
    assert other.locator(f"[data-question='{RIGHT_Q}']").get_attribute("data-state") == "right"
    assert other.locator(f"[data-question='{WRONG_Q}']").get_attribute("data-state") == "wrong"


def test_the_preview_names_what_would_be_replaced_and_the_newer_work_here_is_kept(
    course_page, base_url, tmp_path
):
    page = _map(course_page, base_url)
    exercise_key = f"{PREFIX}exercise/{FILE}"
    _put(
        page,
        {
            CELL_KEY: {"code": "theirs", "base": "x", "saved": 2000},
            exercise_key: {"code": "theirs", "base": "x", "saved": 1000},
            f"{PREFIX}page/playground/cell/0": {"code": "same", "base": "x", "saved": 5},
        },
    )
    path, _, _ = _export(page, tmp_path)
    # This browser now holds an older cell edit and a newer exercise edit than the file.
    _put(
        page,
        {
            CELL_KEY: {"code": "mine", "base": "x", "saved": 1000},
            exercise_key: {"code": "mine", "base": "x", "saved": 3000},
        },
    )
    _choose(page, path)
    preview = _preview(page)
    text = preview.inner_text()
    assert "1 item replaces different work here" in text and "Day 5, cell 2" in text
    assert "1 item is newer here and kept" in text and FILE in text
    assert "1 item is the same here" in text and "0 new items" in text
    assert "the one saved last wins" in text
    preview.locator("[data-action=import-confirm]").click()
    assert "Imported 1 item" in _status(page)
    work = page.evaluate(_WORK)
    assert json.loads(work[CELL_KEY])["code"] == "theirs"
    assert json.loads(work[exercise_key])["code"] == "mine"


def test_the_file_can_replace_newer_work_here_when_asked(course_page, base_url, tmp_path):
    page = _map(course_page, base_url)
    _put(page, {CELL_KEY: {"code": "theirs", "saved": 1000}})
    path, _, _ = _export(page, tmp_path)
    _put(page, {CELL_KEY: {"code": "mine", "saved": 3000}})
    _choose(page, path)
    confirm = _preview(page).locator("[data-action=import-confirm]")
    assert confirm.is_disabled()  # nothing to write unless asked
    page.get_by_label("Replace these with the file's too").check()
    confirm.click()
    assert json.loads(page.evaluate(_WORK)[CELL_KEY])["code"] == "theirs"


def test_a_done_mark_survives_an_import_of_a_file_without_it(course_page, base_url, tmp_path):
    page = _map(course_page, base_url)
    _put(page, {CELL_KEY: {"code": "theirs", "saved": 1}})
    path, data, _ = _export(page, tmp_path)
    assert all(not k.endswith("/done") for k in data["items"])
    page.evaluate("() => localStorage.clear()")
    _put(page, {DONE_KEY: "1"})
    page.reload()
    done = page.locator(f".course-done[data-exercise='{FILE}']")
    assert done.inner_text() == "✓"
    _choose(page, path)
    _preview(page).locator("[data-action=import-confirm]").click()
    assert "Imported 1 item" in _status(page)
    assert done.inner_text() == "✓"
    assert page.evaluate(_WORK)[DONE_KEY] == "1"


def test_a_file_of_what_is_already_here_imports_nothing_and_says_so(
    course_page, base_url, tmp_path
):
    page = _map(course_page, base_url)
    _put(page, {CELL_KEY: {"code": "mine", "saved": 1}, DONE_KEY: "1"})
    path, _, _ = _export(page, tmp_path)
    before = page.evaluate(_STORAGE)
    _choose(page, path)
    status = page.locator(".course-transfer__status")
    status.filter(has_text="already here").wait_for()
    assert (
        status.inner_text()
        == "Nothing to import from work.json: all 2 of its items are already here."
    )
    assert page.locator(".course-transfer__preview").is_hidden()
    assert page.evaluate(_STORAGE) == before


def _work_file(**fields):
    data = {
        "format": "course-work",
        "course": "derivative-to-gpt",
        "storageVersion": 1,
        "siteVersion": "0.1.0",
        "exported": "2026-11-25T10:00:00.000Z",
        "items": {"page/lessons/day05_add_mul/cell/1": {"code": "x", "saved": 1}},
    }
    return json.dumps({**data, **fields})


BAD = {
    "not JSON": (lambda p: p.write_text("this is not json"), "it is not JSON"),
    "wrong shape": (
        lambda p: p.write_text(
            _work_file(items={"page/lessons/day05_add_mul/cell/1": {"code": 1}})
        ),
        "is not a cell edit",
    ),
    "another course": (
        lambda p: p.write_text(_work_file(course="another-course")),
        "This file is from another course (another-course), not this one: nothing was imported.",
    ),
    # 50 MB on disk without writing them: the size is refused before anything is read.
    "too large": (lambda p: p.open("wb").truncate(50 * 1024 * 1024), "This file is 50.0 MB"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_file_is_refused_with_a_clear_message_and_changes_nothing(
    course_page, base_url, tmp_path, name
):
    page = _map(course_page, base_url)
    _put(page, {CELL_KEY: {"code": "mine", "saved": 1}, DONE_KEY: "1"})
    before = page.evaluate(_STORAGE)
    write, said = BAD[name]
    path = tmp_path / "work.json"
    write(path)
    _choose(page, path)
    alert = page.locator(".course-transfer__error[role=alert]")
    alert.filter(has_text="nothing was imported").wait_for()
    assert said in _alert(page)
    assert page.locator(".course-transfer__preview").is_hidden()
    assert page.evaluate(_STORAGE) == before


def test_cancel_or_escape_changes_nothing_and_the_picker_opens_from_the_keyboard(
    course_page, base_url, tmp_path
):
    page = _map(course_page, base_url)
    path = tmp_path / "work.json"
    path.write_text(_work_file())
    _put(page, {DONE_KEY: "1"})
    before = page.evaluate(_STORAGE)
    # Playwright starts catching file choosers once asked to: a key press is quicker than a
    # click, so the catching starts here, before the key.
    page.on("filechooser", lambda chooser: None)
    page.locator("[data-action=import]").focus()
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(str(path))
    assert "1 new item" in _preview(page).inner_text()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "import-confirm"
    page.keyboard.press("Escape")
    assert page.locator(".course-transfer__preview").is_hidden()
    assert "nothing changed" in _status(page)
    assert page.evaluate("document.activeElement.dataset.action") == "import"
    assert page.evaluate(_STORAGE) == before

    _choose(page, path)
    _preview(page).locator("[data-action=import-cancel]").click()
    assert page.locator(".course-transfer__preview").is_hidden()
    assert "Import cancelled: nothing changed." in _status(page)
    assert page.evaluate(_STORAGE) == before

    # A file that would turn My engine on with code never passed here says so before Import:
    # that code would run unseen on every lesson page from day 6.
    engine = tmp_path / "engine.json"
    passed = {"code": "class Value: pass\n", "saved": 1}
    items = {"setting/my-engine": "on", "exercise/day08_more_ops.py/passed": passed}
    engine.write_text(_work_file(items=items))
    _choose(page, engine)
    said = _preview(page).locator(".course-transfer__engine").inner_text()
    assert said.startswith("It turns My engine on") and "day08_more_ops.py" in said
    _preview(page).locator("[data-action=import-cancel]").click()
    assert page.evaluate(_STORAGE) == before


def test_storage_refusing_midway_takes_back_what_was_written(course_page, base_url, tmp_path):
    page = _map(course_page, base_url)
    items = {
        f"page/lessons/day05_add_mul/cell/{i}": {"code": f"theirs {i}", "saved": 9}
        for i in range(3)
    }
    path = tmp_path / "work.json"
    path.write_text(_work_file(items=items))
    # The file's cell 0 is new here, its cells 1 and 2 replace older edits.
    mine = {"code": "mine", "saved": 1}
    _put(page, {f"{PREFIX}page/lessons/day05_add_mul/cell/{i}": mine for i in (1, 2)})
    before = page.evaluate(_STORAGE)
    _choose(page, path)
    assert "1 new item" in _preview(page).inner_text()
    # The browser's storage fills up on the import's third write: one new item and one
    # replacement are written by then.
    page.evaluate(
        """prefix => {
          const setItem = Storage.prototype.setItem;
          let calls = 0;
          Storage.prototype.setItem = function (key, value) {
            if (key.startsWith(prefix) && ++calls === 3) {
              throw new DOMException("full", "QuotaExceededError");
            }
            return setItem.call(this, key, value);
          };
        }""",
        PREFIX,
    )
    page.locator("[data-action=import-confirm]").click()
    assert "became full midway" in _alert(page) and "nothing was imported" in _alert(page)
    assert page.evaluate(_STORAGE) == before


def test_work_a_full_storage_could_not_keep_is_exported_from_this_tab(
    course_page, base_url, tmp_path
):
    page = course_page
    page.add_init_script(
        "Storage.prototype.setItem = function () {"
        " throw new DOMException('The quota has been exceeded.', 'QuotaExceededError') }"
    )
    page.goto(base_url + PLAYGROUND)
    set_code(cell(page, 0), "print('kept by this tab')")
    page.wait_for_timeout(600)
    page.locator(".course-storage-notice").filter(has_text="Export my work").wait_for()
    # Instant navigation to the map (the playground's previous page): the same tab's memory.
    page.wait_for_load_state("networkidle")
    page.locator("a.md-footer__link--prev").click()
    page.wait_for_url(base_url + "map/")
    page.locator("[data-action=export]").wait_for()
    _, data, _ = _export(page, tmp_path)
    assert data["items"]["page/playground/cell/0"]["code"] == "print('kept by this tab')"


def test_export_with_no_work_says_so_and_downloads_nothing(course_page, base_url):
    page = _map(course_page, base_url)
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    page.locator("[data-action=export]").click()
    assert "no saved work" in _status(page)
    page.wait_for_timeout(300)
    assert downloads == []


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_open_preview_and_an_error_pass_axe_and_show_focus(
    course_page, base_url, tmp_path, scheme
):
    page = _map(course_page, base_url)
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    # A preview with every part: a new item, and one newer here with its choice.
    items = {f"page/lessons/day05_add_mul/cell/{i}": {"code": "file", "saved": 1} for i in (0, 1)}
    path = tmp_path / "work.json"
    path.write_text(_work_file(items=items))
    _put(page, {f"{PREFIX}page/lessons/day05_add_mul/cell/1": {"code": "newer", "saved": 5}})
    _choose(page, path)
    assert "newer here" in _preview(page).inner_text()
    page.wait_for_timeout(400)  # Material's colour transitions end before anything is measured
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)
    # From the keyboard, the focused control is outlined.
    page.locator("[data-action=import-confirm]").focus()
    page.keyboard.press("Tab")
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [document.activeElement.dataset.action, s.outlineStyle] }"
    )
    assert outline == ["import-cancel", "solid"]

    bad = tmp_path / "bad.json"
    bad.write_text("{")
    page.locator("[data-action=import-cancel]").click()
    _choose(page, bad)
    page.locator(".course-transfer__error").filter(has_text="not JSON").wait_for()
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)


def test_the_offline_line_stays_on_the_map(course_page, base_url):
    page = _map(course_page, base_url)
    assert page.locator(".course-offline").count() == 1
    # The block sits below the progress and offline lines, before the first phase.
    order = page.evaluate(
        """() => [".course-map__progress", ".course-offline", ".course-transfer", "h2"]
             .map((s) => document.querySelector("article " + s))
             .map((el, i, all) => i === 0 || (all[i - 1].compareDocumentPosition(el) & 4) !== 0)"""
    )
    assert order == [True, True, True, True]

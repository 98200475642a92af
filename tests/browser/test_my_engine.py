"""The "My engine" switch in Chromium (web/myengine.js): a lesson's cells run on the learner's
passed exercise code, and a stored file that cannot load leaves the course engine, the switch
off and the stored work as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import cell, output, run, set_code, wait_state
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "derivative-to-gpt/v1/"
DAY11 = "lessons/day11_mlp/"
DAY10 = "lessons/day10_neuron/"
PASSED = ("day08_more_ops.py", "day10_neuron.py", "day11_mlp.py")
SWITCH = "input[data-role=my-engine]"
PARTS = "[data-role=my-engine-parts]"


def passed_key(file):
    return f"{PREFIX}exercise/{file}/passed"


def store_passed(page, sources):
    """Write `sources` ({file: code}) as the code that passed, as storage.js's savePassed does."""
    page.evaluate(
        "items => { for (const [k, code] of Object.entries(items))"
        " localStorage.setItem(k, JSON.stringify({code, saved: Date.now()})) }",
        {passed_key(f): code for f, code in sources.items()},
    )


def work(page):
    """Every stored item of the learner's work."""
    return page.evaluate(
        "p => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith(p))"
        ".map(k => [k, localStorage.getItem(k)]))",
        PREFIX,
    )


def installed(page):
    """engine.mine's report in the page's Python (None: the course engine)."""
    return page.evaluate(
        "() => coursePython.call({module: 'engine.mine', name: 'installed', timeLimit: 30})"
    )


def printed(block):
    """What a cell printed (its notes left out)."""
    return "".join(block.locator("[data-output] pre").all_inner_texts())


def probe(page, code, ns="my-engine-probe"):
    """What `code` prints in the page's Python, in namespace `ns` (a page's: its cells')."""
    return page.evaluate(
        """([code, ns]) => new Promise((resolve) => {
          let text = "";
          const { promise } = coursePython.run({ ns, code, filename: "<probe>",
            timeLimit: 60, onStream: (_, t) => { text += t; } });
          promise.then((reply) => resolve(reply.ok ? text : JSON.stringify(reply)));
        })""",
        [code, ns],
    ).strip()


# The class of the Values of the model day 11's first cell built, in the page's namespace.
MODEL_VALUE = "print(type(model.parameters()[0]).__module__)"
LEARNERS = "my_engine_day08_more_ops"  # engine.mine's module of the learner's day 8 file


def run_all(page, n):
    outputs = []
    for i in range(n):
        assert run(cell(page, i), timeout=120) == "done", output(cell(page, i))
        outputs.append(printed(cell(page, i)))
    return outputs


def flip(page, on=True, timeout=60_000):
    """Click the switch and wait until its change is done (it is enabled again)."""
    switch = page.locator(SWITCH)
    switch.click()
    expect(switch).to_be_enabled(timeout=timeout)
    return switch


def as_training_cell(route):
    # Day 11's last cell given a training cell's long time limit, for the speed note.
    response = route.fetch()
    body = response.text()
    marks = [m.start() for m in re.finditer(r'<div class="course-cell" data-cell', body)]
    at = marks[-1] + len('<div class="course-cell" data-cell')
    route.fulfill(response=response, body=body[:at] + ' data-timeout="120"' + body[at:])


def test_my_engine_runs_the_cells_on_the_passed_code_and_refuses_a_bad_file(course_page, base_url):
    page = course_page
    page.route(base_url + DAY11, as_training_cell)
    page.goto(base_url + DAY11)
    switch = page.locator(SWITCH)
    expect(switch).not_to_be_checked()
    expect(page.locator(PARTS)).to_be_hidden()
    n = page.locator("[data-cell]").count()
    course = run_all(page, n)
    assert page.locator(".course-output__my-engine").count() == 0

    # Nothing passed yet: every part is the course engine's, and the line says which day to pass.
    flip(page)
    expect(switch).to_be_checked()
    line = page.locator(PARTS).inner_text()
    for part, day in (("Value", 8), ("Neuron", 10), ("MLP", 11)):
        assert f"{part}: course engine — pass day {day} to use yours" in line, line
    flip(page)  # off
    expect(switch).not_to_be_checked()
    assert installed(page) is None

    # Days 8 and 10 passed, then day 11 passed on this page with the switch on: it joins at
    # once (the line and the cells), with no need to flip the switch again.
    store_passed(page, {f: (ROOT / "solutions" / f).read_text() for f in PASSED[:2]})
    flip(page)
    expect(switch).to_be_checked()
    expect(page.locator(PARTS)).to_contain_text("MLP: course engine — pass day 11")
    block = page.locator("[data-exercise='day11_mlp.py']")
    set_code(block, (ROOT / "solutions" / "day11_mlp.py").read_text())
    block.locator("[data-action=check]").click()
    wait_state(block, ("pass", "fail"), timeout=90)
    assert block.get_attribute("data-state") == "pass"
    expect(page.locator(PARTS)).to_contain_text("MLP: yours (day 11)", timeout=60_000)
    expect(switch).to_be_enabled(timeout=60_000)
    line = page.locator(PARTS).inner_text()
    for part, day in (("Value", 8), ("Neuron", 10), ("MLP", 11)):
        assert f"{part}: yours (day {day})" in line, line
    assert installed(page)["line"] == line
    assert run_all(page, n) == course
    assert probe(page, MODEL_VALUE, "lessons/day11_mlp") == LEARNERS
    note = cell(page, n - 1).locator(".course-output__my-engine").inner_text()
    assert re.fullmatch(
        r"On your engine this is expected to take about (\d+(\.\d)?× as long as|as long as) on"
        r" the course engine; Stop ends it\.",
        note,
    ), note
    assert cell(page, 0).locator(".course-output__my-engine").count() == 0  # not a training cell
    assert page.evaluate(f"localStorage.getItem('{PREFIX}setting/my-engine')") == "on"

    # Remembered: after a reload the switch is on and the engine installed before a cell runs.
    page.reload()
    expect(page.locator(SWITCH)).to_be_checked()
    assert run(cell(page, n - 1), timeout=120) == "done"
    assert probe(page, MODEL_VALUE, "lessons/day11_mlp") == LEARNERS
    expect(page.locator(PARTS)).to_have_text(line)
    assert printed(cell(page, n - 1)) == course[n - 1]
    assert installed(page)["line"] == line
    # On the learner's engine a cell gets ten times its time limit (it runs slower).
    page.evaluate(
        """() => { window.limits = []; const run = coursePython.run.bind(coursePython);
                   coursePython.run = (o) => { window.limits.push(o.timeLimit); return run(o); }; }"""
    )
    assert run(cell(page, 0), timeout=120) == "done"
    assert run(cell(page, n - 1), timeout=120) == "done"
    assert page.evaluate("window.limits") == [600, 1200]
    # Python restarted (a Stop that could not interrupt): the next run installs it again first.
    page.evaluate("() => coursePython.restart()")
    assert run(cell(page, 0), timeout=120) == "done"
    assert printed(cell(page, 0)) == course[0]
    assert probe(page, MODEL_VALUE, "lessons/day11_mlp") == LEARNERS
    assert installed(page)["line"] == line
    expect(page.locator(SWITCH)).to_be_checked()

    # A stored file that cannot load: one clear line, the switch off, the stored work unchanged.
    bad = {
        "syntax error": (
            "def broken(:\n",
            r"^day08_more_ops\.py has a syntax error on line 1: .*Fix it on day 8's page and check",
        ),
        "a deletion": (
            "import os, engine\nos.remove(os.path.join(os.path.dirname(engine.__file__), 'value.py'))\n",
            r"^day08_more_ops\.py tried to delete a file while it loaded",
        ),
        "an endless loop": (
            "while True:\n    pass\n",
            r"^Your day 8 file \(day08_more_ops\.py\) did not finish loading within 10 s",
        ),
    }
    for what, (code, said) in bad.items():
        if page.locator(SWITCH).is_checked():
            flip(page)  # off
        store_passed(page, {"day08_more_ops.py": code})
        before = work(page)
        flip(page, timeout=90_000)
        message = page.locator(PARTS).inner_text()
        assert re.search(said, message), (what, message)
        assert message.endswith("My engine stays off."), message
        assert "Traceback" not in message
        expect(page.locator(SWITCH)).not_to_be_checked()
        after = work(page)
        assert after.pop(f"{PREFIX}setting/my-engine", None) is None
        before.pop(f"{PREFIX}setting/my-engine", None)
        assert after == before, what
        assert installed(page) is None, what
    # The course engine is whole: the cells run as before, on it, with their own time limits.
    page.evaluate("() => { window.limits = []; }")
    assert run_all(page, n) == course
    assert page.evaluate("window.limits") == [60] * (n - 1) + [120]
    assert probe(page, MODEL_VALUE, "lessons/day11_mlp") == "engine.value"
    assert (
        json.loads(page.evaluate(f"localStorage.getItem('{passed_key('day11_mlp.py')}')"))["code"]
        == (ROOT / "solutions" / "day11_mlp.py").read_text()
    )


@pytest.mark.parametrize(
    ("path", "says", "same"),
    [
        (
            DAY10,
            "My engine is on for the cells; the explorer shows the course engine.",
            # the explorer's Values are the course's while the engine's are the learner's
            "import explorer.graph, engine\nprint(explorer.graph.Value is engine.Value)",
        ),
        (
            "lessons/day25_microgpt/",
            "My engine is on for the cells; the model explorer runs on the course engine and"
            " does not see a model the cells train on yours.",
            # the model explorer reads the course's snapshots, not those the cells now take
            "import explorer.model, engine.snapshot\n"
            "print(explorer.model.learner is engine.snapshot.learner)",
        ),
    ],
    ids=["graph explorer", "model explorer"],
)
def test_an_explorer_says_which_engine_it_shows(course_page, base_url, path, says, same):
    # Day 25 also has a cell that counts the engine's own Values (my_engine="..." on the page).
    counts = {DAY10: [], "lessons/day25_microgpt/": ["counts the Values your GPT builds"]}[path]
    page = course_page
    page.goto(base_url + path)
    # Day 25's note shows once its part (the GPT) is the learner's: day 25 passed too.
    files = ["day08_more_ops.py"] + (["day25_microgpt.py"] if counts else [])
    store_passed(page, {f: (ROOT / "solutions" / f).read_text() for f in files})
    note = page.locator("[data-role=my-engine-explorer]")
    expect(note).to_have_count(1)
    expect(note).to_be_hidden()
    assert probe(page, same) == "True"  # the course engine everywhere
    flip(page)
    expect(page.locator(PARTS)).to_contain_text("Value: yours (day 8)")
    expect(note).to_be_visible()
    assert note.inner_text() == says
    cell_notes = page.locator("[data-role=my-engine-cell-note]")
    expect(cell_notes).to_have_count(len(counts))
    for i, what in enumerate(counts):
        expect(cell_notes.nth(i)).to_be_visible()
        assert cell_notes.nth(i).inner_text() == (
            f"With My engine on, this cell {what}, so what it prints differs from the page."
        )
    assert probe(page, same) == "False"
    assert probe(page, "import engine\nprint(engine.Value.__module__)") != "engine.value"
    flip(page)
    expect(note).to_be_hidden()
    for i in range(len(counts)):
        expect(cell_notes.nth(i)).to_be_hidden()
    if counts:
        # Without day 25 passed, the GPT is the course's: the cell prints the page's number.
        page.evaluate(f"localStorage.removeItem('{passed_key('day25_microgpt.py')}')")
        flip(page)
        expect(page.locator(PARTS)).to_contain_text("GPT: course engine — pass day 25")
        expect(note).to_be_visible()
        expect(cell_notes.nth(0)).to_be_hidden()
        flip(page)

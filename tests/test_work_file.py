"""A file of the learner's work (web/transfer.js) under Node, with a localStorage of the test's
own: what an export holds, how a file is read and refused, how an import merges, and that a
storage that refuses midway leaves everything as it was."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")

# A localStorage as the browser's: text values, and QuotaExceededError past `quota` characters.
PRELUDE = """
class FakeStorage {
  constructor(quota) { this.items = new Map(); this.quota = quota; }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) {
    const used = [...this.items].reduce((n, [key, val]) => n + (key === k ? 0 : key.length + val.length), 0);
    if (used + k.length + String(v).length > this.quota) {
      throw Object.assign(new Error("quota"), { name: "QuotaExceededError" });
    }
    this.items.set(k, String(v));
  }
  removeItem(k) { this.items.delete(k); }
}
globalThis.localStorage = new FakeStorage(QUOTA);
const t = await import("./web/transfer.js");
const storage = await import("./web/storage.js");
const P = "derivative-to-gpt/v1/";
const put = (k, v) => localStorage.setItem(P + k, typeof v === "string" ? v : JSON.stringify(v));
const dump = () => Object.fromEntries(localStorage.items);
const out = (v) => console.log(JSON.stringify(v));
"""

CELL = "page/lessons/day05_add_mul/cell/1"
EXERCISE = "exercise/day05_add_mul.py"
DONE = "exercise/day05_add_mul.py/done"
ANSWER = "page/lessons/day07_accumulation/question/multi-branch-gradients"
TASK = "page/explorer/task/predict"  # a guided task of the explorer page, finished


def js(body, quota=10**9):
    """Run `body` after the prelude; what it passes to out(), as Python values (one per call)."""
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", PRELUDE.replace("QUOTA", str(quota)) + body],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    values = [json.loads(line) for line in proc.stdout.splitlines()]
    return values[0] if len(values) == 1 else values


def work_file(items, **fields):
    return {
        "format": "course-work",
        "course": "derivative-to-gpt",
        "storageVersion": 1,
        "siteVersion": "0.1.0",
        "exported": "2026-11-25T10:00:00.000Z",
        "items": items,
        **fields,
    }


EDIT = {"code": "x = 2", "base": "0badc0de", "saved": 1000}
RIGHT = {"state": "right", "answer": ["7", "2", "-1"], "saved": 1000}


def test_an_export_holds_this_courses_work_and_nothing_else():
    got = js(f"""
      put({CELL!r}, {json.dumps(EDIT)});
      put({EXERCISE!r}, {json.dumps(EDIT)});
      put({DONE!r}, "1");
      put({ANSWER!r}, {json.dumps(RIGHT)});
      put("page/lessons/day06_backward/cell/0", "{{not json");  // unreadable: left out
      localStorage.setItem("derivative-to-gpt/probe", "1");
      localStorage.setItem("derivative-to-gpt/isolation-reload", "1");
      localStorage.setItem("another-course/v1/exercise/a.py/done", "1");
      localStorage.setItem("theme", "dark");
      const now = new Date(2026, 10, 25, 9, 30);
      const file = t.exportWork({{ siteVersion: "0.1.0", now }});
      out(file);
      out(t.fileName(now));
      out(t.describeCounts(t.countItems(file.items)));
    """)
    file, name, said = got
    assert file["format"] == "course-work" and file["course"] == "derivative-to-gpt"
    assert file["storageVersion"] == 1 and file["siteVersion"] == "0.1.0"
    assert file["exported"].startswith("2026-11-25T")
    assert file["items"] == {CELL: EDIT, EXERCISE: EDIT, DONE: "1", ANSWER: RIGHT}
    assert name == "derivative-to-gpt-work-2026-11-25.json"
    assert said == "2 edits, 1 exercise done, 1 answer"


def test_work_only_this_tab_holds_is_exported_too():
    # Storage is full: the answer is kept in memory for this tab, and an export still has it.
    file = js(
        f"""
      storage.saveAnswer(P + {ANSWER!r}, "wrong", ["3"]);
      out(t.exportWork({{ siteVersion: "x" }}));
    """,
        quota=10,
    )
    assert list(file["items"]) == [ANSWER]
    assert file["items"][ANSWER]["state"] == "wrong" and file["items"][ANSWER]["answer"] == ["3"]


def test_an_export_read_back_into_an_empty_browser_gives_the_same_work():
    got = js(f"""
      put({CELL!r}, {json.dumps(EDIT)});
      put({DONE!r}, "1");
      put({ANSWER!r}, {json.dumps(RIGHT)});
      const before = dump();
      const text = JSON.stringify(t.exportWork({{ siteVersion: "0.1.0" }}));
      localStorage.items.clear();  // another browser
      const {{ work, error }} = t.readWorkFile(text);
      const plan = t.planImport(work);
      out([plan.add.length, error ?? null]);
      out(t.applyImport(plan));
      out([before, dump()]);
    """)
    (added, error), result, (before, after) = got
    assert error is None and added == 3 and result == {"written": 3}
    assert after == before
    assert {json.loads(after[f"derivative-to-gpt/v1/{CELL}"])["code"]} == {"x = 2"}


def _read(file_text):
    return js(f"out(t.readWorkFile({json.dumps(file_text)}));")


BAD_FILES = {
    "not JSON": ("{oops", "not JSON"),
    "empty": ("", "not JSON"),
    "a list": ("[]", "not a file of exported work"),
    "no marker": (
        json.dumps({"course": "derivative-to-gpt", "items": {}}),
        "not a file of exported",
    ),
    "another course": (
        json.dumps(work_file({}, course="another-course")),
        "This file is from another course (another-course), not this one: nothing was imported",
    ),
    "newer storage": (json.dumps(work_file({}, storageVersion=2)), "newer version of the course"),
    "no storage version": (json.dumps(work_file({}, storageVersion="1")), "which version"),
    "no items": (json.dumps(work_file([])), "no list of items"),
    "unknown item": (json.dumps(work_file({"settings/theme": "dark"})), "does not know"),
    "cell code not text": (json.dumps(work_file({CELL: {"code": 3}})), "not a cell edit"),
    "exercise edit not an object": (json.dumps(work_file({EXERCISE: "x = 1"})), "exercise edit"),
    "saved not a time": (
        json.dumps(work_file({CELL: {"code": "x", "saved": "yesterday"}})),
        "saved time",
    ),
    "answer state": (
        json.dumps(work_file({ANSWER: {"state": "maybe", "answer": []}})),
        "not an answer",
    ),
    "answer not a list": (
        json.dumps(work_file({ANSWER: {"state": "right", "answer": "7"}})),
        "not a list of texts",
    ),
    "done not 1": (json.dumps(work_file({DONE: True})), "not a done mark"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_file_is_refused_with_what_to_do(name):
    text, said = BAD_FILES[name]
    got = _read(text)
    assert "work" not in got
    assert said in got["error"] and "nothing was imported" in got["error"]


def test_a_good_file_is_read_with_every_kind_of_item():
    items = {CELL: EDIT, EXERCISE: {"code": "pass"}, DONE: "1", ANSWER: RIGHT}
    got = _read(json.dumps(work_file(items)))
    assert got["work"]["items"] == items and got["work"]["siteVersion"] == "0.1.0"


def test_a_file_too_large_is_refused_before_it_is_read_with_its_size():
    said, fits = js("out([t.checkFileSize(50 * 1024 * 1024), t.checkFileSize(5 * 1024 * 1024)]);")
    assert "50.0 MB" in said and "at most 5 MB" in said and "nothing was imported" in said
    assert fits is None


def test_a_merge_adds_replaces_the_older_keeps_the_newer_and_counts_the_same():
    local = {
        "page/p/cell/0": {"code": "mine", "saved": 10},  # the file's is newer
        "page/p/cell/1": {"code": "mine", "saved": 30},  # this browser's is newer
        "page/p/cell/2": {"code": "same", "base": "b", "saved": 5},
        "page/p/cell/3": {"code": "mine", "saved": 20},  # a tie: the file's, as asked for
        DONE: "1",
        "exercise/day06_backward.py/done": "1",  # not in the file: stays done
    }
    theirs = {
        "page/p/cell/0": {"code": "theirs", "saved": 20},
        "page/p/cell/1": {"code": "theirs", "saved": 20},
        "page/p/cell/2": {"code": "same", "base": "b", "saved": 99},  # same work, other time
        "page/p/cell/3": {"code": "theirs", "saved": 20},
        DONE: "1",
        ANSWER: RIGHT,
    }
    plan = js(f"out(t.planMerge({json.dumps(theirs)}, {json.dumps(local)}));")
    assert plan == {
        "add": [ANSWER],
        "replace": ["page/p/cell/0", "page/p/cell/3"],
        "newerHere": ["page/p/cell/1"],
        "same": [DONE, "page/p/cell/2"],
    }


def test_an_answer_differs_by_its_state_or_what_was_given():
    got = js(f"""
      const a = {json.dumps(RIGHT)};
      const k = {ANSWER!r};
      out(t.planMerge({{ [k]: a }}, {{ [k]: {{ ...a, saved: 1 }} }}).same.length);
      out(t.planMerge({{ [k]: a }}, {{ [k]: {{ ...a, answer: ["7", "2", "1"] }} }}).same.length);
      out(t.planMerge({{ [k]: a }}, {{ [k]: {{ ...a, state: "wrong" }} }}).same.length);
    """)
    assert got == [1, 0, 0]


def test_an_import_keeps_newer_work_here_unless_asked_and_never_undoes_a_pass():
    got = js(f"""
      put({CELL!r}, {{ code: "newer here", saved: 50 }});
      put({EXERCISE!r}, {{ code: "older here", saved: 5 }});
      put({DONE!r}, "1");
      const file = {json.dumps(work_file({CELL: {"code": "file", "saved": 10}, EXERCISE: {"code": "file", "saved": 10}}))};
      const {{ work }} = t.readWorkFile(JSON.stringify(file));
      const plan = t.planImport(work);
      out(t.applyImport(plan));
      out(dump());
      out(t.applyImport(plan, {{ keepNewer: false }}));
      out(dump());
    """)
    first, after_default, second, after_asked = got
    code = lambda store, key: json.loads(store[f"derivative-to-gpt/v1/{key}"])["code"]  # noqa: E731
    assert first == {"written": 1}
    assert code(after_default, CELL) == "newer here" and code(after_default, EXERCISE) == "file"
    assert second == {"written": 2} and code(after_asked, CELL) == "file"
    assert after_asked[f"derivative-to-gpt/v1/{DONE}"] == "1"


def test_storage_that_refuses_midway_is_rolled_back_and_said():
    # Room for what is there and a little more: a new item and a replacement are written,
    # then the last replacement does not fit, and both are taken back.
    got = js(
        f"""
      put({CELL!r}, {{ code: "mine", saved: 1 }});
      put("page/lessons/day06_backward/cell/1", {{ code: "mine", saved: 1 }});
      put({DONE!r}, "1");
      const before = dump();
      const items = {{
        {CELL!r}: {{ code: "theirs", saved: 2 }},
        "page/lessons/day06_backward/cell/0": {{ code: "a", saved: 2 }},
        "page/lessons/day06_backward/cell/1": {{ code: "b".repeat(400), saved: 2 }},
      }};
      const file = {{ ...{json.dumps(work_file({}))}, items }};
      const plan = t.planImport(t.readWorkFile(JSON.stringify(file)).work);
      out(plan.add.length + plan.replace.length);
      out(t.applyImport(plan));
      out([before, dump()]);
    """,
        quota=400,
    )
    planned, result, (before, after) = got
    assert planned == 3
    assert "full" in result["error"] and "nothing was imported" in result["error"]
    assert after == before


def test_a_finished_task_travels_is_counted_named_and_a_bad_one_refused():
    got = js(f"""
      storage.markTaskDone(P + {TASK!r});
      const text = JSON.stringify(t.exportWork({{ siteVersion: "0.1.0" }}));
      const file = JSON.parse(text);
      out([file.items, t.describeCounts(t.countItems(file.items)), t.describeItem({TASK!r})]);
      localStorage.items.clear();  // another browser
      const plan = t.planImport(t.readWorkFile(text).work);
      t.applyImport(plan);
      out(storage.isTaskDone(P + {TASK!r}));
      const bad = {{ ...file, items: {{ {TASK!r}: "nearly" }} }};
      out(t.readWorkFile(JSON.stringify(bad)).error);
    """)
    (items, said, name), done, refused = got
    assert items == {TASK: "done"}
    assert said == "0 edits, 0 exercises done, 0 answers, 1 task done"
    assert name == "Explorer, task “predict” (done)"
    assert done is True
    assert "is not a finished task the course can read" in refused


def test_an_item_is_named_as_the_learner_knows_it():
    names = js(
        "out(["
        + ", ".join(
            f"t.describeItem({k!r})"
            for k in (CELL, EXERCISE, ANSWER, "page/playground/cell/0", "page/index/cell/2")
        )
        + "]);"
    )
    assert names == [
        "Day 5, cell 2",
        "day05_add_mul.py",
        "Day 7, question “multi-branch-gradients”",
        "Playground, cell 1",
        "Home, cell 3",
    ]


def test_the_code_that_passed_and_the_my_engine_switch_travel_and_a_bad_one_is_refused():
    passed = "exercise/day08_more_ops.py/passed"
    got = js(f"""
      storage.savePassed("day08_more_ops.py", "class Value: pass\\n");
      put({EXERCISE!r}, {json.dumps(EDIT)});
      storage.setMyEngineOn(true);
      const text = JSON.stringify(t.exportWork({{ siteVersion: "0.1.0" }}));
      const file = JSON.parse(text);
      out([Object.keys(file.items).sort(), t.describeCounts(t.countItems(file.items))]);
      out([t.describeItem({passed!r}), t.describeItem("setting/my-engine")]);
      localStorage.items.clear();  // another browser
      t.applyImport(t.planImport(t.readWorkFile(text).work));
      out([storage.passedSources(), storage.isMyEngineOn(), storage.loadEdit(P + {EXERCISE!r}).code]);
      out(t.readWorkFile(JSON.stringify({{ ...file, items: {{ {passed!r}: {{ code: 3 }} }} }})).error);
      out(t.readWorkFile(JSON.stringify({{ ...file, items: {{ "setting/my-engine": "off" }} }})).error);
    """)
    (keys, said), names, (sources, on, edit), bad_code, bad_setting = got
    assert keys == [EXERCISE, passed, "setting/my-engine"]
    assert said == "1 edit, 0 exercises done, 0 answers"
    assert names == ["day08_more_ops.py (the code that passed)", "the My engine switch"]
    assert sources == {"day08_more_ops.py": "class Value: pass\n"}
    assert on is True and edit == "x = 2"
    assert "is not a passed exercise's code the course can read" in bad_code
    assert "is not a setting the course can read" in bad_setting


@pytest.mark.parametrize(
    "file",
    [
        "..",
        "day08_more_ops.py\\u0000",
        "notes.txt",
        "day08_" + "x" * 5000 + ".py",
        "<img src=x>.py",
    ],
)
def test_passed_code_is_only_read_for_an_exercise_files_name(file):
    """A work file (or the server's copy) cannot plant code for "my engine" under a name that
    is not an exercise file: the file is refused, and such an item in storage is neither
    exported nor handed to the engine."""
    key = f"exercise/{file}/passed"
    got = js(f"""
      const item = {{ code: "class Value: pass\\n", saved: 1000 }};
      out(t.readWorkFile(JSON.stringify({{
        format: "course-work", course: "derivative-to-gpt", storageVersion: 1,
        items: {{ "{key}": item }} }})).error ?? null);
      put("{key}", item);
      out([Object.keys(t.exportWork().items), storage.passedSources()]);
    """)
    error, (exported, sources) = got
    assert error is not None and "does not know" in error and "nothing was imported" in error
    assert exported == [] and sources == {}


def test_an_import_that_brings_passed_code_or_turns_my_engine_on_says_so():
    """Code kept as passed runs unseen once My engine is on: the preview names it."""
    passed = "exercise/day08_more_ops.py/passed"
    got = js(f"""
      const plan = (add, replace = []) => ({{ add, replace, newerHere: [], same: [] }});
      out(t.describeEngineChanges(plan(["setting/my-engine", {passed!r}]), false));
      out(t.describeEngineChanges(plan(["setting/my-engine"]), false));
      out(t.describeEngineChanges(plan([], [{passed!r}]), true));
      out(t.describeEngineChanges(plan([{passed!r}]), false));
      out(t.describeEngineChanges(plan([{CELL!r}, {DONE!r}]), false));
      out(t.describeEngineChanges(plan(["setting/my-engine"]), true));
    """)
    turns_on, switch_only, on_here, off_here, nothing, already = got
    assert turns_on.startswith("It turns My engine on: from day 6")
    assert "day08_more_ops.py" in turns_on and "exported yourself" in turns_on
    assert switch_only.startswith("It turns My engine on") and "the code you passed" in switch_only
    assert on_here.startswith("My engine is on here") and "day08_more_ops.py" in on_here
    assert off_here.startswith("It brings") and "only once you turn My engine on" in off_here
    assert nothing is None and already is None

"""The course server's work sync (web/sync.js) under Node, with a fake server: work on the
server that this page cannot read (a newer course's, or an item it does not know) is never
written over by this browser's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")

SCRIPT = """
const store = new Map();
globalThis.localStorage = {
  get length() { return store.size; },
  key: (i) => [...store.keys()][i] ?? null,
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => {
    if (__FULL__ && store.has("derivative-to-gpt/v1/exercise/day05_add_mul.py/done")) {
      throw Object.assign(new Error("quota"), { name: "QuotaExceededError" });
    }
    store.set(k, String(v));
  },
  removeItem: (k) => store.delete(k),
};
globalThis.location = { href: "http://127.0.0.1:1/lessons/" };
globalThis.document = {
  querySelector: () => ({ getAttribute: () => "http://127.0.0.1:2/" }),
  addEventListener() {},
  dispatchEvent() {},
};
const SERVER_WORK = __WORK__;
const calls = [];
globalThis.fetch = async (url, init) => {
  const path = new URL(url).pathname;
  calls.push(`${init.method} ${path}`);
  const reply = (data, status = 200) => ({ ok: status < 300, status, json: async () => data });
  if (path === "/api/session") return reply({ user: { id: 7, login: "ada" }, csrf: "t" });
  if (path === "/api/progress" && init.method === "GET") return reply({ revision: 3, work: SERVER_WORK });
  return reply({ revision: 4 });
};
localStorage.setItem("derivative-to-gpt/v1/exercise/day05_add_mul.py/done", "1");
const server = await import("./web/server.js");
const sync = await import("./web/sync.js");
sync.startSync();
await server.loadSession();
await sync.sync();
console.log(JSON.stringify(Object.fromEntries(store)));
console.log(JSON.stringify(calls));
"""


def _work(items, version=1):
    return {
        "format": "course-work",
        "course": "derivative-to-gpt",
        "storageVersion": version,
        "items": items,
    }


def _calls(work, full=False):
    proc = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            SCRIPT.replace("__WORK__", json.dumps(work)).replace("__FULL__", json.dumps(full)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _stored_after(work):
    """This browser's storage after a sync with `work` on the server."""
    proc = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            SCRIPT.replace("__WORK__", json.dumps(work)).replace("__FULL__", "false"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-2])


PASSED = {"code": "class Value: pass\n", "saved": 1}


@pytest.mark.parametrize(
    "work",
    [
        _work({"exercise/day42_new_day.py/done": "1"}, version=2),  # a newer course's
        _work({"exercise/day05_add_mul.py/passed": PASSED, "page/x/sketch/1": "?"}),
    ],
    ids=["newer course", "an item this page does not know"],
)
def test_work_on_the_server_this_page_cannot_read_is_never_written_over(work):
    calls = _calls(work)
    assert "GET /api/progress" in calls
    assert "PUT /api/progress" not in calls


def test_readable_work_on_the_server_is_merged_and_this_browsers_goes_up():
    calls = _calls(_work({"exercise/day05_add_mul.py/passed": PASSED}))
    assert "PUT /api/progress" in calls


def test_work_on_the_server_this_browser_has_no_room_for_is_never_written_over():
    calls = _calls(_work({"exercise/day08_more_ops.py/passed": PASSED}), full=True)
    assert "GET /api/progress" in calls
    assert "PUT /api/progress" not in calls


def test_the_server_never_turns_my_engine_on_in_this_browser():
    """Passed code from the server runs in this tab only once the learner turns the switch on
    here: the server's "on" is not taken (the code itself is, for when they do)."""
    stored = _stored_after(
        _work({"setting/my-engine": "on", "exercise/day08_more_ops.py/passed": PASSED})
    )
    assert "derivative-to-gpt/v1/setting/my-engine" not in stored
    assert json.loads(stored["derivative-to-gpt/v1/exercise/day08_more_ops.py/passed"]) == PASSED

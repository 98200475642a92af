"""web/client.js hands every "model" message of the worker to its onModel listeners.

Run in Node with a stand-in Worker class: the test posts the messages the worker posts
(web/worker.js) and watches the listeners. The whole path in Chromium, from a training
cell to the page's explorer, is tests/browser/test_model_explorer.py's.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")

SCRIPT = """
globalThis.location = { href: "http://127.0.0.1/" };
globalThis.Worker = class { postMessage() {} terminate() {} };
const { PythonClient } = await import(process.argv[2]);
const client = new PythonClient({ indexURL: "http://127.0.0.1/pyodide/", workerURL: "w.js" });
const seen = { a: [], b: [], figures: [] };
const offA = client.onModel((data) => seen.a.push(data));
client.onModel((data) => seen.b.push(data.step));
const { promise } = client.run({
  ns: "p", code: "", filename: "<cell 1>",
  onFigure: (svg, key) => seen.figures.push(key),
});
const id = [...client.pending.keys()][0];
client.receive({ type: "figure", id, svg: "<svg/>", key: "model" });
client.receive({ type: "model", id, data: { step: 25, losses: [3.2] } });
offA();
client.receive({ type: "model", id: 999, data: { step: 50 } });  // of any job, even unknown
client.receive({ type: "done", id, ok: true });
await promise;
seen.last = client.lastModel;
client.restart();  // Stop had to throw Python away: its model with it
seen.afterRestart = client.lastModel;
console.log(JSON.stringify(seen));
"""


@pytest.mark.skipif(NODE is None, reason="no `node` on PATH")
def test_on_model_listeners_get_every_snapshot_until_removed_and_the_last_is_kept(tmp_path):
    script = tmp_path / "run.mjs"
    script.write_text(SCRIPT)
    out = subprocess.run(
        [NODE, str(script), (ROOT / "web" / "client.js").as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["a"] == [{"step": 25, "losses": [3.2]}]  # removed before the second
    assert seen["b"] == [25, 50]
    assert seen["figures"] == ["model"]  # figures still go to their cell
    assert seen["last"] == {"step": 50}  # kept for an explorer mounted later
    assert seen["afterRestart"] is None

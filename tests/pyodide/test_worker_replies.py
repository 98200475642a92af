"""What the worker replies when Python throws out of a request (web/protocol.js, `thrown`).

Stop sets Pyodide's interrupt buffer from the page; the KeyboardInterrupt it raises can
land before or after the try of web/cellrun.py (on entering the function, or in its last
lines), and then reaches the worker as a thrown error. Such a run was stopped, not broken:
the cell must say "Stopped" and keep its session. Node runs `thrown` on the errors a real
Pyodide throws.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")

_SCRIPT = """
import { thrown } from %(protocol)s;
const { loadPyodide } = await import(%(pyodide)s);
const pyodide = await loadPyodide({ indexURL: %(index)s });
const replies = {};
for (const [name, code] of Object.entries(JSON.parse(process.argv[1]))) {
  try {
    pyodide.runPython(code);
    replies[name] = "no error";
  } catch (err) {
    replies[name] = thrown(err);
  }
}
// The interrupt buffer, as Stop sets it: SIGINT pending when Python is entered.
const view = new Uint8Array(new SharedArrayBuffer(1));
pyodide.setInterruptBuffer(view);
view[0] = 2;
try {
  pyodide.runPython("while True: pass");
  replies.stop = "no error";
} catch (err) {
  replies.stop = thrown(err);
}
console.log(JSON.stringify(replies));
"""


def replies(codes: dict[str, str]) -> dict:
    if NODE is None:
        pytest.skip("no `node` on PATH: install Node.js 20+ (apt-get install -y nodejs npm)")
    pyodide = ROOT / "node_modules" / "pyodide"
    script = _SCRIPT % {
        "protocol": json.dumps((ROOT / "web" / "protocol.js").as_uri()),
        "pyodide": json.dumps((pyodide / "pyodide.mjs").as_uri()),
        "index": json.dumps(str(pyodide) + "/"),
    }
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", script, json.dumps(codes)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        cwd=ROOT,
    )
    return json.loads(out.stdout)


def test_a_keyboard_interrupt_thrown_out_of_python_is_a_stop_and_other_errors_are_errors():
    got = replies(
        {
            "interrupt": "raise KeyboardInterrupt",
            "value": "raise ValueError('bad weight')",
            "exit": "raise SystemExit(3)",
        }
    )
    for stop in (got["interrupt"], got["stop"]):
        assert stop["ok"] is False and stop["interrupted"] is True
        # the traceback stays: a stopped load of the learner's engine names the file that looped
        assert stop["error"]["type"] == "KeyboardInterrupt"
    value = got["value"]
    assert value["interrupted"] is False and value["error"]["type"] == "ValueError"
    assert "bad weight" in value["error"]["message"]
    assert got["exit"]["interrupted"] is False and got["exit"]["error"]["type"] == "SystemExit"

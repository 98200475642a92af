"""The model explorer (web/model/) on a page of its own, without the site or Pyodide.

web/model/model-explorer.js is bundled with esbuild as the site bundles it; the page's engine asks
this Python process (through Playwright) for `explorer.model.forward_view` and
`backward_view`, the functions the course worker runs under Pyodide, and a test can hand it
training snapshots as `client.onModel` would. The tests of the built site with Pyodide are
in test_model_explorer.py too.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import threading
import traceback
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_BUNDLE = (
    "const { buildSync } = require('esbuild');"
    "const [src, dst] = process.argv.slice(1);"
    "buildSync({ bundle: true, format: 'esm', logLevel: 'warning',"
    " entryPoints: { model: src + '/model-explorer.js', 'model-style': src + '/model.css' }, outdir: dst });"
)

# Material's palette variables, as the site's theme sets them (light, and slate for dark).
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>model explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root {{ --md-default-fg-color: rgba(0,0,0,.87); --md-default-fg-color--light: rgba(0,0,0,.54);
  --md-default-fg-color--lightest: rgba(0,0,0,.07); --md-default-bg-color: #fff;
  --course-muted: #5c5c5c; --course-control: #3949ab; --md-code-font-family: monospace; }}
body {{ font-family: sans-serif; margin: 0 8px; color: var(--md-default-fg-color);
  background: var(--md-default-bg-color); }}
</style>
<link rel="stylesheet" href="model-style.css"></head>
<body><main class="md-typeset"><h1>Model explorer</h1><h2>Explorer</h2>
<div class="course-model-explorer" data-model-explorer data-prefix="{prefix}" data-views="{views}"
  data-seed="{seed}"></div></main>
<script type="module">
import {{ mountModelExplorers }} from "./model.js";
const listeners = new Set();
window.pushModel = (data) => {{ for (const listener of listeners) listener(data); }};
const unwrap = (reply) => {{
  if (!reply.ok) throw new Error(reply.message);
  return reply.value;
}};
window.modelCalls = [];
window.delays = {{}}; // prefix -> ms: a test makes one reply slow, to overtake it
// window.hold(): Python is busy (a training cell runs): calls wait, unasked, for release().
let held = null;
window.hold = () => {{ let release; held = new Promise((done) => (release = done)); window.release = () => {{ held = null; release(); }}; }};
const free = async () => {{ while (held) await held; }};
window.shownHistory = [];
new MutationObserver(() => {{
  const shown = document.querySelector("[data-model-explorer]").dataset.shown;
  if (shown !== undefined && shown !== window.shownHistory.at(-1)) window.shownHistory.push(shown);
}}).observe(document.body, {{ subtree: true, attributes: true, attributeFilter: ["data-shown"] }});
const engine = {{
  forward: async (prefix) => {{
    window.modelCalls.push(["forward", prefix]);
    await free();
    const reply = await window.pyForward(prefix);
    await new Promise((done) => setTimeout(done, window.delays[prefix] ?? 0));
    return unwrap(reply);
  }},
  backward: async (name, position) => {{
    window.modelCalls.push(["backward", name, position]);
    await free();
    return unwrap(await window.pyBackward(name, position));
  }},
  save: async () => {{
    window.modelCalls.push(["save"]);
    await free();
    return unwrap(await window.pySave());
  }},
  restore: async (saved) => {{
    window.modelCalls.push(["restore"]);
    await free();
    return unwrap(await window.pyRestore(saved));
  }},
  onModel: (listener) => {{ listeners.add(listener); return () => listeners.delete(listener); }},
  lastModel: () => window.lastModel ?? null, // a test sets it before the page's scripts run
}};
window.modelExplorers = mountModelExplorers(document.body, engine);
</script>
</body></html>
"""


def bundle_model_explorer(out: Path) -> Path:
    """Write model.js and model-style.css into `out`; skip without Node or esbuild."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("needs Node.js and `npm ci` (esbuild) to bundle web/model")
    subprocess.run(
        [node, "-e", _BUNDLE, str(ROOT / "web" / "model"), str(out)], cwd=ROOT, check=True
    )
    return out


def _replying(function):
    """A Python function as the page calls it: {ok, value} or {ok: false, message}, whose
    message is the whole traceback, as Pyodide's PythonError has it."""

    def reply(*args):
        try:
            return {"ok": True, "value": json.loads(json.dumps(function(*args)))}
        except ValueError:
            return {"ok": False, "message": traceback.format_exc()}

    return reply


@pytest.fixture(scope="session")
def model_harness_url(tmp_path_factory):
    folder = bundle_model_explorer(tmp_path_factory.mktemp("model-explorer"))

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/", folder
    server.shutdown()
    server.server_close()


def open_harness(
    page, harness, forward, backward, *, prefix="emm", views="all", seed=7, save=None, restore=None
):
    """Open the harness page, whose engine `forward` and `backward` answer (and `save` and
    `restore`, which keep a trained model); returns the page. `window.delays[prefix] = ms`
    in the page holds back one forward reply; `window.hold()` every call, until
    `window.release()`."""
    url, folder = harness
    name = f"model-{abs(hash((prefix, views, seed)))}.html"
    (folder / name).write_text(PAGE.format(prefix=prefix, views=views, seed=seed), encoding="utf-8")
    if not hasattr(page, "errors"):  # a test may open the page twice
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.expose_function("pyForward", _replying(forward))
        page.expose_function("pyBackward", _replying(backward))
        page.expose_function("pySave", _replying(save or (lambda: None)))
        page.expose_function("pyRestore", _replying(restore or (lambda saved: None)))
    page.set_default_timeout(20_000)
    page.goto(url + name)
    return page

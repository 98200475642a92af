"""A cell's editor (web/editor.js) keeps its height when it first scrolls into view, in
Chromium, on a page of its own (the editor bundled with esbuild, as the site bundles it).

CodeMirror measures an editor only once it is in view; until then its line heights are
estimates. An editor whose line numbers took those estimates was taller until it first came
into view, then shrank: its Run button moved from under a pointer that had just pressed it
(tests/browser/test_my_engine.py's run of day 11's second cell after a reload, now and then).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://editor.test/"

# Long lines, which wrap in a cell, as many lesson cells have (day 11's count of parameters).
CODE = "\n".join(
    [
        "def count(nin, nouts):",
        "    total, fan_in = 0, nin",
        "    for width in nouts:                      # one layer of `width` neurons",
        "        total += width * fan_in + width      # each: a weight per input, and a bias",
        "        fan_in = width",
        "    return total",
        "",
        "for nin, nouts in [(2, [2, 1]), (3, [4, 4, 1]), (2, [16, 16, 1]), (2, [32, 32, 1])]:",
        '    print(f"MLP({nin}, {nouts}): formula {count(nin, nouts)}, engine'
        ' {len(MLP(nin, nouts).parameters())}")',
    ]
)

# The editor far below the first screen, as a page's later cells are when it loads.
ENTRY = """
import { createEditor } from "EDITOR";
const below = (px) => Object.assign(document.createElement("div"), { style: `height: ${px}px` });
const host = Object.assign(document.createElement("div"), { style: "width: 688px" });
document.body.append(below(3000), host, below(3000));
const view = createEditor({ parent: host, doc: CODE, label: "cell", onRun() {} });
const height = (el) => el.getBoundingClientRect().height;
globalThis.editorHeights = () => ({
  editor: height(view.dom),
  text: height(view.contentDOM),
  numbers: height(view.dom.querySelector(".cm-gutters")),
});
"""


@pytest.fixture(scope="module")
def editor_page(tmp_path_factory) -> Path:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("needs Node.js and `npm ci` (esbuild) to bundle web/editor.js")
    out = tmp_path_factory.mktemp("editor")
    entry = ENTRY.replace("EDITOR", (ROOT / "web" / "editor.js").as_posix())
    (out / "entry.js").write_text(entry.replace("CODE", json.dumps(CODE)), "utf-8")
    script = (
        "require('esbuild').buildSync({ entryPoints: [process.argv[1]], outfile: process.argv[2],"
        " bundle: true, format: 'esm', logLevel: 'warning' });"
    )
    subprocess.run(
        [node, "-e", script, str(out / "entry.js"), str(out / "editor.js")], cwd=ROOT, check=True
    )
    (out / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>editor</title></head>'
        '<body style="margin: 0"><script type="module" src="editor.js"></script></body></html>',
        "utf-8",
    )
    return out


def settled(page):
    """What the editor measures once it is in view has been drawn (a few frames on)."""
    page.evaluate(
        "() => new Promise((done) => { let n = 0;"
        " const next = () => (++n > 10 ? done() : requestAnimationFrame(next)); next(); })"
    )


def test_an_editor_keeps_its_height_when_it_first_scrolls_into_view(page, editor_page):
    page.route(
        ORIGIN + "**",
        lambda route: route.fulfill(path=editor_page / (route.request.url[len(ORIGIN) :] or "x")),
    )
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(ORIGIN + "index.html")
    page.wait_for_function("() => globalThis.editorHeights")
    settled(page)
    before = page.evaluate("editorHeights()")
    page.evaluate("() => document.querySelector('.cm-editor').scrollIntoView({block: 'center'})")
    settled(page)
    after = page.evaluate("editorHeights()")
    assert after["editor"] == after["text"], after  # in view: measured, as tall as its text
    assert before == after, (before, after)
    assert after["numbers"] == after["text"]  # the line numbers go down the whole text

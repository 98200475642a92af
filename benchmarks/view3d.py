"""What the explorer's 3-D view costs, in headless Chromium.

The explorer is bundled as the site bundles it (esbuild, split: the 3-D scene and three.js
are a chunk of their own) onto a page whose graphs come from `explorer.explore` in this
Python process. Measured:

- the chunk's size, minified and gzipped (what a reader who turns 3-D on downloads);
- the WebGL check every explorer page makes to know whether to offer the switch;
- from pressing the switch to the first 3-D frame, cold (the chunk fetched and compiled)
  and warm (switched off and on again: the chunk is in memory, the scene is new);
- one step of the timeline with the 3-D view on and with it off (the 2-D view only).

Chromium runs with tools/chromium.py's flags: WebGL is SwiftShader's, on the CPU, so the
3-D times are an upper bound for a machine with a GPU.
"""

from __future__ import annotations

import functools
import gzip
import shutil
import statistics
import subprocess
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 5
EXPRESSION = "tanh(x*w + y*v + b) - t"  # a neuron and its error: 12 nodes

BUNDLE = (
    "const { buildSync } = require('esbuild');"
    "const [src, dst] = process.argv.slice(1);"
    "buildSync({ entryPoints: { harness: src + '/explorer.js' }, outdir: dst, bundle: true,"
    " format: 'esm', minify: true, splitting: true, chunkNames: 'chunks/[name]-[hash]',"
    " logLevel: 'warning' });"
    "buildSync({ entryPoints: [src + '/explorer.css'], outfile: dst + '/harness.css',"
    " bundle: true, logLevel: 'warning' });"
)

PAGE = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3-D bench</title>
<link rel="stylesheet" href="harness.css"></head><body>
<div data-explorer data-expression="{EXPRESSION}"></div>
<script type="module">
import {{ mountExplorers }} from "./harness.js";
window.explorers = mountExplorers(document.body, {{ explore: (t, v) => window.pyExplore(t, v) }});
</script></body></html>
"""

# Resolves with the ms from pressing the switch until the 3-D stage shows a step.
TIME_SWITCH = """
() => new Promise((resolve) => {
  const stage = document.querySelector(".gx-stage");
  const start = performance.now();
  const done = new MutationObserver(() => {
    if (stage.dataset.step !== undefined && !stage.hidden) {
      done.disconnect();
      resolve(performance.now() - start);
    }
  });
  done.observe(stage, { attributes: true });
  document.querySelector("[data-action=view-3d]").click();
})
"""

# The ms one render of the timeline takes (render is synchronous: 2-D, 3-D if on, table).
TIME_STEP = """
() => {
  const ex = window.explorers[0];
  const start = performance.now();
  ex.go(ex.step === 0 ? 1 : ex.step - 1, { animate: false });
  return performance.now() - start;
}
"""

TIME_WEBGL_CHECK = """
() => {
  const start = performance.now();
  const gl = document.createElement("canvas").getContext("webgl2");
  gl?.getExtension("WEBGL_lose_context")?.loseContext();
  return performance.now() - start;
}
"""


def _bundle(out: Path) -> None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "three").is_dir():
        raise SystemExit("the 3-D benchmark needs Node.js and `npm ci` (esbuild, three)")
    script = [node, "-e", BUNDLE, str(ROOT / "web" / "explorer"), str(out)]
    subprocess.run(script, cwd=ROOT, check=True)
    (out / "bench.html").write_text(PAGE)


def run() -> dict:
    from playwright.sync_api import sync_playwright

    from explorer import explore
    from tools.chromium import CHROMIUM, CHROMIUM_FLAGS

    if CHROMIUM is None:
        raise SystemExit("the 3-D benchmark needs Debian's chromium on PATH")
    with tempfile.TemporaryDirectory(prefix="course-view3d-") as tmp:
        out = Path(tmp)
        _bundle(out)
        (chunk,) = (out / "chunks").glob("scene3d-*.js")
        data = chunk.read_bytes()
        size = {"chunk_bytes": len(data), "chunk_gzip_bytes": len(gzip.compress(data, 9))}
        size["page_bundle_bytes"] = (out / "harness.js").stat().st_size

        class Quiet(SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}/bench.html"
        times = {k: [] for k in ("webgl_check", "cold", "warm", "step_3d", "step_2d")}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
                )
                for _ in range(ROUNDS):
                    context = browser.new_context()  # a fresh cache: the chunk is fetched
                    page = context.new_page()
                    page.expose_function("pyExplore", explore)
                    page.goto(url)
                    page.wait_for_selector("[data-explorer][data-state=ready]")
                    times["webgl_check"].append(page.evaluate(TIME_WEBGL_CHECK))
                    times["step_2d"].append(statistics.median(_steps(page)))
                    times["cold"].append(page.evaluate(TIME_SWITCH))
                    times["step_3d"].append(statistics.median(_steps(page)))
                    page.click("[data-action=view-3d]")  # off
                    times["warm"].append(page.evaluate(TIME_SWITCH))
                    context.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    report = {"rounds": ROUNDS, "expression": EXPRESSION, **size}
    for name, values in times.items():
        report[f"{name}_ms"] = round(statistics.median(values), 1)
    print(
        f"3-D chunk {size['chunk_bytes'] / 1e3:.0f} kB ({size['chunk_gzip_bytes'] / 1e3:.0f} kB "
        f"gzipped); explorer bundle without it {size['page_bundle_bytes'] / 1e3:.0f} kB"
    )
    print(
        f"WebGL check {report['webgl_check_ms']} ms; switch to the first 3-D frame: "
        f"cold {report['cold_ms']} ms, warm {report['warm_ms']} ms"
    )
    print(
        f"one timeline step ({EXPRESSION}): 2-D only {report['step_2d_ms']} ms, "
        f"with 3-D on {report['step_3d_ms']} ms"
    )
    return report


def _steps(page, count: int = 10) -> list[float]:
    return [page.evaluate(TIME_STEP) for _ in range(count)]


if __name__ == "__main__":
    run()

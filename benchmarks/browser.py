"""Time to a first cell output in headless Chromium, against a bare Pyodide boot.

Both pages are served from one freshly built site on 127.0.0.1 (cross-origin
isolated, as `nox -s serve` does), in the same run:

- course: the playground page; its first cell's Run is pressed the moment the
  button exists, and the clock stops when the cell's output shows text;
- bare: a page that only starts a worker, boots the same Pyodide files and prints.

Both clocks start at navigation. Cold is a fresh browser profile (empty cache);
warm is the next navigation in the same profile. The goal: course <= 1.2 x bare.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 1.2
ROUNDS = 3

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare Pyodide boot</title>
<pre data-output></pre>
<script type="module">
const worker = new Worker("bare-worker.js", { type: "module" });
worker.onmessage = (e) => { document.querySelector("[data-output]").textContent += e.data + "\\n"; };
</script>
"""

BARE_WORKER = """const indexURL = new URL("../pyodide/", self.location).href;
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
pyodide.setStdout({ batched: (line) => self.postMessage(line) });
pyodide.runPython("x = 3.0\\nprint('f(3) =', x**2 + 2 * x)");
"""

# Installed before any page script: press Run on the first cell as soon as it exists,
# and note the time when the first output area first shows text.
PROBE = """
(() => {
  window.__firstOutput = null;
  let clicked = false;
  const look = () => {
    const run = document.querySelector("[data-cell='0'] [data-action=run]");
    if (run && !clicked) { clicked = true; run.click(); }
    const out = document.querySelector("[data-output]");
    if (out && out.textContent.trim() && window.__firstOutput === null) {
      window.__firstOutput = performance.now();
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _build_site(out: Path, port: int) -> None:
    env = {**os.environ, "SITE_URL": f"http://127.0.0.1:{port}/"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--no-strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"building the site failed:\n{proc.stderr[-3000:]}")
    bench = out / "bench"
    bench.mkdir()
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare-worker.js").write_text(BARE_WORKER)


def _first_output_ms(page, url: str) -> float:
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__firstOutput !== null", timeout=120_000)
    return float(page.evaluate("window.__firstOutput"))


def run() -> dict:
    """Measure and print; returns the medians in ms and the cold/warm ratios."""
    from tools.chromium import CHROMIUM as chromium
    from tools.chromium import CHROMIUM_FLAGS

    if chromium is None:
        raise SystemExit(
            "the browser benchmark needs Debian's chromium on PATH (apt-get install -y chromium)"
        )
    from playwright.sync_api import sync_playwright

    from tools.serve import make_server

    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="course-bench-") as tmp:
        site = Path(tmp) / "site"
        _build_site(site, port)
        server = make_server(site, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{port}/"
        pages = {"course": base + "playground/", "bare": base + "bench/bare.html"}
        times = {(kind, temp): [] for kind in pages for temp in ("cold", "warm")}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_FLAGS, headless=True
                )
                for _ in range(ROUNDS):
                    for kind, url in pages.items():  # interleaved, so drift hits both alike
                        context = browser.new_context()
                        context.add_init_script(PROBE)
                        page = context.new_page()
                        times[kind, "cold"].append(_first_output_ms(page, url))
                        page.close()
                        page = context.new_page()
                        times[kind, "warm"].append(_first_output_ms(page, url))
                        context.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()

    report = {"rounds": ROUNDS, "goal_ratio": GOAL}
    for temp in ("cold", "warm"):
        course = statistics.median(times["course", temp])
        bare = statistics.median(times["bare", temp])
        report[temp] = {
            "course_ms": round(course),
            "bare_ms": round(bare),
            "ratio": round(course / bare, 3),
        }
        print(
            f"{temp:>4}: first cell output {course:7.0f} ms, bare Pyodide boot {bare:7.0f} ms, "
            f"ratio {course / bare:.2f} (goal <= {GOAL}: "
            f"{'met' if course / bare <= GOAL else 'not met'})"
        )
        report[temp]["goal_met"] = course / bare <= GOAL
    return report


if __name__ == "__main__":
    run()

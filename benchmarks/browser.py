"""Time to a first cell output in headless Chromium, against a bare Pyodide boot.

Both pages are served from one freshly built site on 127.0.0.1 (cross-origin
isolated, as `nox -s serve` does), in the same run:

- course: the playground page; its first cell's Run is pressed the moment the
  button exists, and the clock stops when the cell's output shows text;
- bare: a page that only starts a worker, boots the same Pyodide files and prints.

Both clocks start at navigation. Cold is a fresh browser profile (empty cache);
warm is the next navigation in the same profile. The goal: course <= 1.2 x bare.
These runs block the service worker, so they measure the page and the HTTP cache alone.

Then the service worker (web/sw.js): a first visit in a fresh profile, the wait until the
course map says the whole course is kept (and its size), and a second visit, online and
with the network off, each timed to the first cell output.

First visit: a learner's first visit runs the service worker, which keeps the course (25 MB)
for offline use; it must not slow Python's start. The report's `first_visit` sets the first
visit's first cell output, with the service worker and with it blocked (cold, above), against
the bare boot (cold), each a median of the same rounds. The goal: <= 1.2 x bare as well.
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
                offline = []
                for _ in range(ROUNDS):
                    for kind, url in pages.items():  # interleaved, so drift hits all alike
                        context = browser.new_context(service_workers="block")
                        context.add_init_script(PROBE)
                        page = context.new_page()
                        times[kind, "cold"].append(_first_output_ms(page, url))
                        page.close()
                        page = context.new_page()
                        times[kind, "warm"].append(_first_output_ms(page, url))
                        context.close()
                    offline.append(_service_worker_visits(browser, base))
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
    first = statistics.median(v["first_ms"] for v in offline)
    bare = report["cold"]["bare_ms"]
    report["first_visit"] = {
        "service_worker_ms": round(first),
        "blocked_ms": report["cold"]["course_ms"],
        "bare_ms": bare,
        "service_worker_ratio": round(first / bare, 3),
        "blocked_ratio": report["cold"]["ratio"],
        "goal_met": first / bare <= GOAL,
    }
    fv = report["first_visit"]
    print(
        f"first visit: first cell output with the service worker {fv['service_worker_ms']} ms "
        f"(ratio {fv['service_worker_ratio']:.2f}), with it blocked {fv['blocked_ms']} ms "
        f"(ratio {fv['blocked_ratio']:.2f}), bare Pyodide boot {bare} ms "
        f"(goal <= {GOAL}: {'met' if fv['goal_met'] else 'not met'})"
    )
    report["service_worker"] = {"cache_mb": offline[0]["cache_mb"], "first_ms": round(first)}
    for visit in ("second_ms", "offline_ms"):
        ms = statistics.median(v[visit] for v in offline)
        report["service_worker"][visit] = round(ms)
        report["service_worker"][visit.replace("_ms", "_ratio")] = round(ms / first, 3)
    sw = report["service_worker"]
    print(
        f"service worker: cache {sw['cache_mb']:.1f} MB; first cell output, first visit "
        f"{sw['first_ms']} ms, second visit {sw['second_ms']} ms "
        f"(ratio {sw['second_ratio']:.2f}), second visit offline {sw['offline_ms']} ms "
        f"(ratio {sw['offline_ratio']:.2f})"
    )
    return report


def _service_worker_visits(browser, base: str) -> dict:
    """First visit, then (once the course is kept) a second visit online and one offline."""
    context = browser.new_context(service_workers="allow")
    context.add_init_script(PROBE)
    page = context.new_page()
    first = _first_output_ms(page, base + "playground/")
    page.goto(base + "map/")
    page.wait_for_function(
        "() => document.querySelector('.course-offline')?.dataset.offline === 'ready'",
        timeout=300_000,
    )
    kept = page.locator(".course-offline").inner_text()
    page.close()
    page = context.new_page()
    second = _first_output_ms(page, base + "playground/")
    page.close()
    context.set_offline(True)
    page = context.new_page()
    offline = _first_output_ms(page, base + "playground/")
    context.close()
    mb = float(kept.split("(")[1].split(" MB")[0])
    return {"first_ms": first, "second_ms": second, "offline_ms": offline, "cache_mb": mb}


if __name__ == "__main__":
    run()

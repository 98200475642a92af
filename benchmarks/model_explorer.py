"""Time from typing a letter to the model explorer's redrawn views, in headless Chromium.

One freshly built site on 127.0.0.1 (cross-origin isolated, as `nox -s serve` does), its
Model explorer page, the shipped checkpoint. Once Python has drawn the first prefix, the
benchmark types letters into the prefix box one at a time, waiting for each redraw: the
clock starts at the box's input event and stops at the explorer's "model-explorer:forward"
event (embeddings, attention, residual stream and probabilities redrawn) and at its
"model-explorer:drawn" event (the backward view too). The prefix grows to 10 letters and is
cleared again, so the lengths vary. Reports the medians (goal: all views under 100 ms).
"""

from __future__ import annotations

import statistics
import tempfile
import threading
from pathlib import Path

from .browser import _build_site, _free_port

GOAL_MS = 100
LETTERS = 20
WORD = "emmalinexo"  # typed letter by letter; the box is cleared after the tenth

# Installed before any page script: the time of each input event in the prefix box, and of
# each redraw event that follows, keyed by the prefix.
PROBE = """
(() => {
  window.__typed = {};
  window.__forward = {};
  window.__drawn = {};
  document.addEventListener("input", (e) => {
    if (e.target.matches?.("input[data-role=prefix]")) window.__typed[e.target.value] = performance.now();
  }, true);
  document.addEventListener("model-explorer:forward", (e) => {
    window.__forward[e.detail.prefix] ??= performance.now();
  });
  document.addEventListener("model-explorer:drawn", (e) => {
    window.__drawn[e.detail.prefix] ??= performance.now();
  });
})();
"""


def _measure(page) -> tuple[list[float], list[float]]:
    forward, drawn = [], []
    box = page.locator("input[data-role=prefix]")
    box.focus()
    typed = 0
    while typed < LETTERS:
        page.keyboard.press("Control+A")
        page.keyboard.press("Delete")
        page.wait_for_selector("[data-model-explorer][data-state=ready][data-shown='']")
        for i in range(len(WORD)):
            if typed == LETTERS:
                break
            page.evaluate("() => { window.__forward = {}; window.__drawn = {}; }")
            page.keyboard.type(WORD[i])
            prefix = WORD[: i + 1]
            page.wait_for_function("p => window.__drawn[p] !== undefined", arg=prefix)
            t0, f, d = page.evaluate(
                "p => [window.__typed[p], window.__forward[p], window.__drawn[p]]", prefix
            )
            forward.append(f - t0)
            drawn.append(d - t0)
            typed += 1
    return forward, drawn


def run() -> dict:
    from playwright.sync_api import sync_playwright

    from tools.chromium import CHROMIUM as chromium
    from tools.chromium import CHROMIUM_FLAGS
    from tools.serve import make_server

    if chromium is None:
        raise SystemExit(
            "the model explorer benchmark needs Debian's chromium on PATH "
            "(apt-get install -y chromium)"
        )
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="course-bench-") as tmp:
        site = Path(tmp) / "site"
        _build_site(site, port)
        server = make_server(site, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_FLAGS, headless=True
                )
                context = browser.new_context(service_workers="block")
                context.add_init_script(PROBE)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/model-explorer/")
                page.wait_for_selector("[data-model-explorer][data-state=ready]", timeout=180_000)
                model = page.inner_text("[data-role=model]")
                forward, drawn = _measure(page)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()

    report = {
        "letters": len(drawn),
        "model": model,
        "forward_median_ms": round(statistics.median(forward), 1),
        "all_views_median_ms": round(statistics.median(drawn), 1),
        "all_views_max_ms": round(max(drawn), 1),
        "goal_ms": GOAL_MS,
    }
    report["goal_met"] = report["all_views_median_ms"] < GOAL_MS
    print(model)
    print(
        f"typing a letter -> forward views redrawn: median {report['forward_median_ms']} ms; "
        f"-> all views (backward too): median {report['all_views_median_ms']} ms, "
        f"slowest {report['all_views_max_ms']} ms, over {len(drawn)} letters "
        f"(goal < {GOAL_MS} ms: {'met' if report['goal_met'] else 'not met'})"
    )
    return report


if __name__ == "__main__":
    run()

"""Time from navigation to the explorer's first drawn graph, with and without the prerender.

One freshly built site on 127.0.0.1 (cross-origin isolated, as `nox -s serve` does):

- prerendered: the explorer page as built; its graph is embedded in the page
  (hooks/explorer_fence.py) and drawn at once;
- live: a copy of the same page with the embedded graph removed, so the explorer waits
  for Python to boot in the worker and answer, as it did before the prerender.

The clock starts at navigation and stops when the first [data-node] is in the page.
Every round is cold (a fresh browser context: empty cache) and the two pages alternate,
so drift hits both alike. The service worker is blocked. Reports medians and their ratio.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import threading
from pathlib import Path

from .browser import _build_site, _free_port

ROUNDS = 5
EMBEDDED = re.compile(r' data-explorer-trace="[^"]*"')  # the block's first graph (an attribute)

# Installed before any page script: note when the first graph node appears, and when the
# explorer says Python answered.
PROBE = """
(() => {
  window.__firstNode = null;
  window.__ready = null;
  new MutationObserver(() => {
    if (window.__firstNode === null && document.querySelector("[data-node]")) {
      window.__firstNode = performance.now();
    }
    if (window.__ready === null && document.querySelector("[data-explorer][data-state=ready]")) {
      window.__ready = performance.now();
    }
  }).observe(document, { childList: true, subtree: true, attributes: true });
})();
"""


def _live_copy(site: Path) -> str:
    """The explorer page without its embedded graph, at the same depth (same relative links)."""
    page = (site / "explorer" / "index.html").read_text(encoding="utf-8")
    stripped, count = EMBEDDED.subn("", page)
    if count != 1:
        raise RuntimeError(f"expected one embedded graph on the explorer page, found {count}")
    (site / "bench-explorer-live").mkdir()
    (site / "bench-explorer-live" / "index.html").write_text(stripped, encoding="utf-8")
    return "bench-explorer-live/"


def _times(browser, url: str) -> tuple[float, float]:
    context = browser.new_context(service_workers="block")
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__ready !== null", timeout=180_000)
    first, ready = page.evaluate("[window.__firstNode, window.__ready]")
    context.close()
    return float(first), float(ready)


def run() -> dict:
    from playwright.sync_api import sync_playwright

    from tools.chromium import CHROMIUM as chromium
    from tools.chromium import CHROMIUM_FLAGS
    from tools.serve import make_server

    if chromium is None:
        raise SystemExit(
            "the explorer benchmark needs Debian's chromium on PATH (apt-get install -y chromium)"
        )
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="course-bench-") as tmp:
        site = Path(tmp) / "site"
        _build_site(site, port)
        pages = {"prerendered": "explorer/", "live": _live_copy(site)}
        server = make_server(site, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{port}/"
        first = {kind: [] for kind in pages}
        ready = {kind: [] for kind in pages}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_FLAGS, headless=True
                )
                for _ in range(ROUNDS):
                    for kind, path in pages.items():  # interleaved
                        f, r = _times(browser, base + path)
                        first[kind].append(f)
                        ready[kind].append(r)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()

    report = {"rounds": ROUNDS}
    for kind in pages:
        report[kind] = {
            "first_graph_ms": round(statistics.median(first[kind])),
            "python_ready_ms": round(statistics.median(ready[kind])),
        }
        print(
            f"{kind:>11}: first graph {report[kind]['first_graph_ms']:6d} ms, "
            f"Python ready {report[kind]['python_ready_ms']:6d} ms (medians of {ROUNDS}, cold)"
        )
    ratio = report["prerendered"]["first_graph_ms"] / report["live"]["first_graph_ms"]
    report["ratio"] = round(ratio, 3)
    print(f"first graph, prerendered / live: {ratio:.3f}")
    return report


if __name__ == "__main__":
    run()

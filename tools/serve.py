"""Serve the built site on 127.0.0.1 with the headers that make it cross-origin isolated.

    python tools/serve.py [--dir site] [--port 8000] [--no-isolation]

Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp
let the page share memory with the Python worker, so Stop can interrupt a running
cell at once. `--no-isolation` leaves them out, like a static host that cannot set
headers (the site then falls back to its service worker, or to restarting Python).
With `--port 0` a free port is chosen; the first line printed is the site's URL.
"""

from __future__ import annotations

import argparse
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}

TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".woff2": "font/woff2",
}


class SiteHandler(SimpleHTTPRequestHandler):
    isolation = True
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self):
        if self.isolation:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        # Revalidate every time: a rebuilt site is never served stale, and an
        # unchanged file still costs only a 304.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(
    directory: Path, port: int = 8000, *, isolation: bool = True, verbose: bool = False
):
    """A ready server (not yet serving); its URL is http://127.0.0.1:<server.server_port>/."""
    if not (directory / "index.html").is_file():
        raise SystemExit(f"{directory} has no index.html: build the site first (nox -s docs)")
    handler = functools.partial(
        type("Handler", (SiteHandler,), {"isolation": isolation}), directory=str(directory)
    )
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    server.verbose = verbose
    return server


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="site", type=Path, help="the built site (default: site)")
    parser.add_argument(
        "--port", default=8000, type=int, help="port on 127.0.0.1 (0: any free one)"
    )
    parser.add_argument("--no-isolation", action="store_true", help="leave out COOP/COEP headers")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    args = parser.parse_args(argv)
    server = make_server(
        args.dir, args.port, isolation=not args.no_isolation, verbose=not args.quiet
    )
    print(f"http://127.0.0.1:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The built course site, served on 127.0.0.1: shared by the browser and the notebook tests.

tests/conftest.py makes the session's fixtures of it (`site_dir`, `base_url`): one build
per test session, whichever tests ask for it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tools.serve import make_server

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_site(out: Path, port: int, env: dict | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` into `out`, for http://127.0.0.1:`port`/ (instant navigation).

    `env`: more of the build's environment (SUBMIT_URL); without it, SUBMIT_URL is unset.
    """
    base = {k: v for k, v in os.environ.items() if k != "SUBMIT_URL"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**base, "SITE_URL": f"http://127.0.0.1:{port}/", **(env or {})},
    )


def serve(site: Path, isolation: bool, port: int = 0):
    """A server of `site` on a thread of its own; `shutdown()` and `server_close()` end it."""
    server = make_server(site, port, isolation=isolation)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server

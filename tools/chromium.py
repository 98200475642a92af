"""How the course's tests and benchmarks start Debian's Chromium (never a downloaded one).

The flags keep it headless and quiet: without the background-networking ones, Chromium
reaches for hosts this machine cannot reach.
"""

import shutil

CHROMIUM = shutil.which("chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

"""How the course's tests and benchmarks start Debian's Chromium (never a downloaded one).

Its headless shell (Debian's chromium-headless-shell: the same Blink and V8, without the
full browser around them; what Playwright itself runs headless) when it is installed: it
loads a lesson and starts Python with about a quarter less CPU than `chromium --headless`,
and the browser tests are bound by the CPU. Else `chromium`.

The flags keep it headless and quiet: without the background-networking ones, Chromium
reaches for hosts this machine cannot reach.
"""

import shutil

CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium")
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

"""`PRESETS`: the example expressions of the explorer's menu, one list for page and Python.

The list is explorer/presets.json. Python reads it here; the page's bundle imports
the same file (web/explorer/explorer.js, inlined by esbuild when the site is built),
so the menu and this tuple cannot drift apart. tests/explorer checks that every
preset builds and that the page's menu offers exactly these.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["PRESETS", "PRESETS_PATH"]

PRESETS_PATH = Path(__file__).with_name("presets.json")
PRESETS: tuple[str, ...] = tuple(json.loads(PRESETS_PATH.read_text(encoding="utf-8")))

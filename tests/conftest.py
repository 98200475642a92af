"""Shared by every browser test (tests/browser, tests/explorer): Debian's Chromium, by path."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from chromium import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if CHROMIUM is None:
        pytest.skip(
            "no `chromium` on PATH: install Debian's chromium package (apt-get install -y chromium)"
        )
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_FLAGS,
        "headless": True,
    }

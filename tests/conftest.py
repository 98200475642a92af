"""Shared by every browser test (tests/browser, tests/explorer): Debian's Chromium, by path."""

import pytest

from tools.chromium import CHROMIUM, CHROMIUM_FLAGS


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

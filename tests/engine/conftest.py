"""Fixtures of the engine's tests: my engine (engine/mine.py) installed for one test."""

import pytest

from engine import mine


@pytest.fixture
def my_engine():
    """engine.mine.install, always undone after the test."""
    yield mine.install
    mine.uninstall()

"""The examples in the engine's docstrings run and print what they claim."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["engine", "engine.tensor"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

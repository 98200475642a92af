"""The isolation levels are named in one place, and a level is probed without any day."""

import ast

import pytest

from grader import sandbox as sandbox_module
from grader.isolation import AUTO, CHOICES, Level
from grader.sandbox import Limits, Sandbox, probe

from .helpers import HAS_BWRAP, ROOT

NAMES = {AUTO, *Level}


@pytest.mark.parametrize(
    "path", ["grader/__main__.py", "grader/pytest_plugin.py", "grader/sandbox.py"]
)
def test_the_level_names_are_written_once(path):
    constants = [
        node.value
        for node in ast.walk(ast.parse((ROOT / path).read_text()))
        if isinstance(node, ast.Constant) and node.value in NAMES
    ]
    # sandbox.py runs the bwrap command by its name: that "bwrap" is a program, not a level
    allowed = ["bwrap"] * 2 if path.endswith("sandbox.py") else []
    assert constants == allowed, f"{path} writes level names {constants}: import grader.isolation"
    assert CHOICES == ("auto", "bwrap", "uid", "process")


@pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")
def test_a_level_is_probed_without_any_day(monkeypatch):
    """Renaming or removing day 5 (the old probe's exercise) must not make 'no sandbox
    works here': the probe stages its own runner and none of the days'."""
    staged = sandbox_module.staged_files

    def without_days(exercise, source, needs_engine, case=None):
        files = staged(exercise, source, needs_engine, case)
        return {p: b for p, b in files.items() if not p.startswith("runners/day")}

    monkeypatch.setattr(sandbox_module, "staged_files", without_days)
    assert probe(Sandbox(Level.BWRAP, Limits(wall_seconds=10.0)))
    assert sandbox_module._probe(Level.BWRAP)

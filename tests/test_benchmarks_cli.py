"""`nox -s bench` runs every benchmark the course keeps, and says so when a name is wrong."""

import ast
from pathlib import Path

import pytest

from benchmarks.__main__ import SUITES, main

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def modules_with_run():
    found = set()
    for path in BENCHMARKS.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name == "run" for n in tree.body):
            found.add(path.stem)
    return found


def test_every_benchmark_module_is_run_by_default():
    assert modules_with_run() == set(SUITES.values())


def test_an_unknown_name_is_refused_with_the_choices(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["engin"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no benchmark named engin" in err
    assert "engine, gpt, grading, browser" in err

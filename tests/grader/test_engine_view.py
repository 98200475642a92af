"""The engine staged into a sandbox: each check's declared view, built and imported.

tests/grader/test_engine_answers.py attacks it through the real sandbox; these check the
staging itself, quickly: every declaration builds, hidden code is gone from the text,
the rest keeps its line numbers, and the staged package imports with clear messages.
"""

import ast
import random
import subprocess
import sys

import pytest

from grader.checks import EXERCISES, check_module
from grader.engine_view import ALWAYS, ViewError, engine_dir, staged_engine, view_for

WITH_ENGINE = [e for e in EXERCISES if check_module(e).NEEDS_ENGINE]


def kinds(check):
    cases = check.public_cases() + check.hidden_cases(random.Random(0))
    return sorted({c["kind"] for c in cases})


def definitions(text):
    """{name or Class.method: line} of the top-level definitions and their methods."""
    found = {}
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found[node.name] = node.lineno
            for inner in getattr(node, "body", []):
                if isinstance(inner, ast.FunctionDef):
                    found[f"{node.name}.{inner.name}"] = inner.lineno
    return found


def test_only_exercises_that_use_the_engine_declare_a_view():
    for exercise in EXERCISES:
        check = check_module(exercise)
        # Every check states both (checks.Check); only those that use the engine fill them.
        declares = bool(check.ENGINE) or bool(check.ENGINE_BY_KIND)
        assert declares == check.NEEDS_ENGINE, exercise
        assert set(check.ENGINE_BY_KIND) <= set(kinds(check)), exercise


@pytest.mark.parametrize("exercise", WITH_ENGINE)
def test_every_view_builds_hides_its_names_and_keeps_line_numbers(exercise):
    check = check_module(exercise)
    for kind in kinds(check):
        view = view_for(check, {"kind": kind})
        files = staged_engine(view)
        assert set(files) == {f"engine/{p.name}" for p in engine_dir().glob("*.py")}
        for name, data in files.items():
            module = name[len("engine/") : -3]
            text = data.decode()
            compile(text, name, "exec")
            if module not in ALWAYS and module not in view:
                assert text.startswith("raise ImportError(") and "not available" in text
                continue
            original = definitions((engine_dir() / f"{module}.py").read_text())
            staged = definitions(text)
            for hidden in view.get(module, ()):
                assert hidden not in staged or "." in hidden, (kind, module, hidden)
            for defined, line in staged.items():
                if defined in original:  # the grader's own additions come last
                    assert line == original[defined], (kind, module, defined)
                    hidden = defined in view.get(module, ())
                    body = text.split("\n")[line - 1]
                    assert ("_engine_hidden" in body) == hidden, (kind, module, defined)


def test_every_view_is_declared_and_starts_from_value():
    # No default is read through getattr: a check that uses the engine names its view.
    for exercise in WITH_ENGINE:
        check = check_module(exercise)
        assert "value" in check.ENGINE, exercise
        assert view_for(check, {"kind": "no such kind"}) == check.ENGINE


@pytest.mark.parametrize(
    "view, why",
    [
        ({"value": ("no_such_function",)}, "has no no_such_function"),
        ({"value": ("Value.no_such_method",)}, "has no Value.no_such_method"),
        ({"no_such_module": ()}, "no engine module"),
    ],
)
def test_a_declaration_that_names_nothing_fails_loudly(view, why):
    # Renaming a function in engine/ must not silently un-hide an answer.
    with pytest.raises(ViewError, match=why):
        staged_engine(view)


def test_the_staged_package_imports_and_says_what_is_hidden(tmp_path):
    view = {"value": ("zero_grad", "Value.backward"), "gpt": ("gpt", "document_loss")}
    for name, data in staged_engine(view).items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(data)
    script = """
import sys
sys.path.insert(0, sys.argv[1])
import engine, engine.gpt as g
from engine import Value
from engine.gpt import attention, init_gpt, linear, new_kv_cache
assert "gpt" not in g.__all__ and "evaluate" not in g.__all__ and "linear" in g.__all__
assert engine.__all__ == ["Value"]
for attempt in ("from engine.gpt import gpt", "from engine.gpt import evaluate",
                "from engine import zero_grad", "import engine.nn", "g.make_optimizer",
                "Value(1.0).backward()", "Value(2.0).topological_order()"):
    try:
        exec(attempt)
    except (ImportError, AttributeError) as exc:
        print(type(exc).__name__, exc)
    else:
        print("no error:", attempt)
v = Value(2.0) * Value(3.0)  # the rest of Value works
print(v.data, len(init_gpt(seed=0).parameters()))
"""
    run = subprocess.run(
        [sys.executable, "-I", "-c", script, str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "ImportError engine.gpt.gpt is not available in this exercise: write it yourself",
        "ImportError engine.gpt.evaluate is not available in this exercise: write it yourself",
        "ImportError engine.zero_grad is not available in this exercise: write it yourself",
        "ImportError engine.nn is not available in this exercise: write it yourself",
        "ImportError engine.gpt.make_optimizer is not available in this exercise: write it "
        "yourself",
        "AttributeError engine.value.Value.backward is not available in this exercise: "
        "write it yourself",
        "no error: Value(2.0).topological_order()",  # a method not hidden still works
        "6.0 4192",
    ]

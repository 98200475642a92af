"""The exercise format: every stub fails, every solution passes, and a stub differs from
its solution only inside the bodies the learner writes.

These run our own stubs and references in process: neither is learner code.
"""

import ast
import importlib.util
import random
import re
from pathlib import Path

import pytest

import course
from grader.checks import EXERCISES, check_module, judge_case, runner_module
from grader.public import run_public_checks
from grader.runners import execute

ROOT = Path(__file__).resolve().parents[2]
EXERCISE_FILES = sorted(p.name for p in (ROOT / "exercises").glob("*.py"))
# "day" and a day of the course (course.py: 01 to TOTAL_DAYS), then the slug.
EXERCISE_NAME = re.compile(rf"day({'|'.join(f'{d.day:02d}' for d in course.DAYS)})_[a-z0-9_]+\.py")


def load(folder, name):
    spec = importlib.util.spec_from_file_location(f"{folder}_{name[:-3]}", ROOT / folder / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def all_cases(check, seed):
    return check.public_cases() + check.hidden_cases(random.Random(seed))


def test_exercises_solutions_and_checks_match_file_for_file():
    assert EXERCISE_FILES, "no exercises found"
    assert EXERCISE_FILES == sorted(p.name for p in (ROOT / "solutions").glob("*.py"))
    assert EXERCISE_FILES == sorted(EXERCISES)
    for name in EXERCISE_FILES:
        assert EXERCISE_NAME.fullmatch(name), name
        assert (ROOT / "grader" / "checks" / name).is_file(), f"grader/checks/{name} is missing"


def test_the_grader_finds_every_exercise_of_the_course():
    # The grader lists its check modules (it runs without docs/ on Gradescope); the course
    # manifest lists the days with an exercise file. The two must be the same, in order.
    assert EXERCISES == course.EXERCISES


@pytest.mark.parametrize("name", EXERCISE_FILES)
def test_every_solution_passes_every_case(name):
    check, module = check_module(name), load("solutions", name)
    for seed in range(5):
        for case in all_cases(check, seed):
            outcome = execute(runner_module(name), module, case, name)
            passed, message = judge_case(check, case, outcome, name)
            assert passed, f"{case['name']}: {message}"


@pytest.mark.parametrize("name", EXERCISE_FILES)
def test_every_stub_fails_every_case_and_names_its_lesson(name):
    check, module = check_module(name), load("exercises", name)
    # The stub says "Read docs/lessons/<slug>.md"; the grader says it as the site does.
    lesson = f"on the course site (lessons/{name[:-3]}/#exercise-{name[:-3]})"
    day = int(name[3:5])
    for case in all_cases(check, 0):
        outcome = execute(runner_module(name), module, case, name)
        passed, message = judge_case(check, case, outcome, name)
        assert not passed, case["name"]
        assert outcome["error"]["type"] == "NotImplementedError", message
        assert lesson in message and f"Day {day}:" in message, message
        assert "docs/" not in message, message


@pytest.mark.parametrize("name", EXERCISE_FILES)
def test_public_checks_in_process(name):
    solution = run_public_checks(name, (ROOT / "solutions" / name).read_text())
    stub = run_public_checks(name, (ROOT / "exercises" / name).read_text())
    assert solution and all(r["passed"] for r in solution)
    assert stub and not any(r["passed"] for r in stub)
    assert [r["name"] for r in solution] == [r["name"] for r in stub]
    assert all(set(r) == {"name", "passed", "message"} for r in solution + stub)


def test_public_checks_reports_a_file_that_does_not_run():
    results = run_public_checks("day05_add_mul.py", "class Value(:\n")
    assert results and not any(r["passed"] for r in results)
    assert "SyntaxError" in results[0]["message"]


def test_unknown_exercise_names_the_known_ones():
    with pytest.raises(ValueError, match="day05_add_mul.py"):
        run_public_checks("day99_nothing.py", "")


# -- the stub/solution AST rule ----------------------------------------------------------


def _is_learner_body(fn):
    """A stub function whose body (after a docstring) is one `raise NotImplementedError(...)`."""
    body = fn.body[1:] if _docstring(fn) else fn.body
    if len(body) != 1 or not isinstance(body[0], ast.Raise):
        return False
    exc = body[0].exc
    return isinstance(exc, ast.Call) and getattr(exc.func, "id", None) == "NotImplementedError"


def _docstring(fn):
    first = fn.body[0]
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def _blank(tree, learner_paths=None):
    """Replace learner-written bodies with `...`; return the paths blanked."""
    found = []

    def visit(node, path):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                here = path + (child.name,)
                is_fn = not isinstance(child, ast.ClassDef)
                if is_fn and (
                    here in learner_paths if learner_paths is not None else _is_learner_body(child)
                ):
                    found.append(here)
                    keep = child.body[:1] if _docstring(child) else []
                    child.body = keep + [ast.Expr(ast.Constant(...))]
                    continue
                visit(child, here)
            else:
                visit(child, path)

    visit(tree, ())
    return found


@pytest.mark.parametrize("name", EXERCISE_FILES)
def test_stub_differs_from_solution_only_inside_learner_bodies(name):
    stub = ast.parse((ROOT / "exercises" / name).read_text())
    solution = ast.parse((ROOT / "solutions" / name).read_text())
    paths = _blank(stub)
    assert paths, "the stub has no body for the learner to write"
    assert _blank(solution, set(paths)) == paths
    assert ast.dump(stub) == ast.dump(solution)


def test_the_ast_rule_catches_a_change_outside_the_bodies():
    stub = ast.parse("def f(x):\n    raise NotImplementedError('Day 5')\n\ny = 1\n")
    solution = ast.parse("def f(x):\n    return x\n\ny = 2\n")
    paths = _blank(stub)
    _blank(solution, set(paths))
    assert paths == [("f",)]
    assert ast.dump(stub) != ast.dump(solution)


def test_the_public_checks_stay_browser_safe():
    # Pyodide runs grader/runners and the verdict: no process, file-system or network
    # modules in them (nor in the trusted checks, which the site build runs).
    banned = {
        "os",
        "subprocess",
        "socket",
        "shutil",
        "signal",
        "resource",
        "ctypes",
        "multiprocessing",
    }
    paths = [
        *(ROOT / "grader" / "checks").glob("*.py"),
        *(ROOT / "grader" / "runners").glob("*.py"),
    ]
    for path in paths + [ROOT / "grader" / "verdict.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module.split(".")[0]]
            assert not banned & set(names), f"{path.name} imports {banned & set(names)}"


def test_what_every_check_would_write_alike_is_derived():
    """EXERCISE, LESSON and NEEDS_ENGINE are the loader's (grader.checks.derive), not typed
    in 41 files: no check module writes them, and each is what the module's name and
    ENGINE say."""
    import importlib

    from grader.checks import DERIVED

    for exercise in EXERCISES:
        source = (ROOT / "grader" / "checks" / exercise).read_text()
        tree = ast.parse(source)
        written = {
            t.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        assert not written & set(DERIVED), f"{exercise} writes {written & set(DERIVED)}"
        check = check_module(exercise)
        assert check.EXERCISE == exercise
        assert check.LESSON == f"docs/lessons/{exercise[:-3]}.md"
        assert (ROOT / check.LESSON).is_file()
        assert check.NEEDS_ENGINE is bool(check.ENGINE)
        assert importlib.import_module(f"grader.checks.{exercise[:-3]}") is check


def test_the_readme_and_public_py_list_what_the_browser_wheel_holds():
    """grader/README.md's list of the wheel is hooks/site_build.py's PUBLIC_GRADER, every
    file of runners/ and public_cases.json; public.py names the function that writes it."""
    import site_build

    readme = (ROOT / "grader" / "README.md").read_text()
    section = readme.split("## The page's Check button", 1)[1].split("\n## ", 1)[0]
    for entry in site_build.PUBLIC_GRADER:
        name = entry.removeprefix("grader/")
        shown = f"`{name}/`" if (ROOT / entry).is_dir() else f"`{name}`"
        assert shown in section, f"grader/README.md does not list {entry} in the wheel"
    helpers = [
        p.name for p in (ROOT / "grader" / "runners").glob("*.py") if not p.name.startswith("day")
    ]
    for name in helpers:
        assert f"`{name}`" in section or name == "__init__.py", name
    assert "`public_cases.json`" in section
    public = (ROOT / "grader" / "public.py").read_text()
    assert "public_cases_json" in public and hasattr(site_build, "public_cases_json")
    assert "write_public_cases" not in public

"""Every lesson page is complete and every runnable cell runs in CPython."""

import ast
import re

import pytest

import course

from .pages import ROOT, lesson_paths, load

PAGES = lesson_paths()
IDS = [p.stem for p in PAGES]


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_front_matter(path):
    page = load(path)
    day = int(path.stem[3:5])
    assert page.meta.get("day") == day, f"{path.name}: front matter day must be {day}"
    for key in ("title", "phase"):
        assert page.meta.get(key), f"{path.name}: front matter needs `{key}:`"
    assert page.meta["phase"] in course.PHASES


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_cells_run_in_order(path):
    page = load(path)
    assert page.cells, f"{path.name} has no runnable cell"
    if not page.ran_in_this_session():  # the day's own test ran these very cells already
        page.run_cells()


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_exercise_blocks_name_real_files(path):
    page = load(path)
    assert page.exercises, f"{path.name} has no exercise block"
    for block in page.exercises:
        name = block["file"]
        assert (ROOT / "exercises" / name).is_file(), f"{path.name}: exercises/{name} is missing"
        assert (ROOT / "solutions" / name).is_file(), f"{path.name}: solutions/{name} is missing"
        assert name == f"{path.stem}.py", (
            f"{path.name}: its exercise must be {path.stem}.py (one name per day)"
        )


def _asked_for(path):
    """Every function of the stub whose body (after its docstring) only raises NotImplementedError."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if ast.get_docstring(node) is not None:
            body = body[1:]
        if len(body) == 1 and isinstance(body[0], ast.Raise):
            exc = body[0].exc
            exc = exc.func if isinstance(exc, ast.Call) else exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                names.append(node.name)
    return sorted(set(names))


def _exercise_section(page):
    """The prose of the `## ...` section that holds the exercise block, without its fences."""
    sections = re.findall(r"^## .*?(?=^## |\Z)", page.text, re.S | re.M)
    holding = [s for s in sections if re.search(r"^[ \t]*```exercise\b", s, re.M)]
    assert len(holding) == 1, f"{page.path.name}: one section must hold the exercise block"
    return re.sub(r"^([ \t]*)```.*?^\1```[ \t]*$", "", holding[0], flags=re.S | re.M)


def test_the_checks_find_stub_functions():
    names = _asked_for(ROOT / "exercises" / "day07_accumulation.py")
    assert names == ["challenge_gradients", "gradient_by_roads", "zero_grad"]
    assert "Value" not in names  # an import, not a function to write


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_exercise_section_names_every_function_the_stub_asks_for(path):
    # The page and the file must describe the same exercise: each function the learner
    # writes is named, as code, in the prose of the page's exercise section.
    page = load(path)
    prose = _exercise_section(page)
    asked = _asked_for(ROOT / "exercises" / f"{path.stem}.py")
    assert asked, f"exercises/{path.stem}.py asks for no function"
    missing = [n for n in asked if not re.search(rf"`{re.escape(n)}(?![\w])[^`]*`", prose)]
    assert not missing, f"{path.name}: its exercise section never names {missing}"

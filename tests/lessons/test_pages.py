"""Every lesson page is complete and every runnable cell runs in CPython."""

import pytest

from .pages import ROOT, lesson_paths, load

PAGES = lesson_paths()
IDS = [p.stem for p in PAGES]


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_front_matter(path):
    page = load(path)
    day = int(path.stem[3:5])
    assert page.meta.get("day") == day, f"{path.name}: front matter day must be {day}"
    for key in ("title", "phase", "time"):
        assert page.meta.get(key), f"{path.name}: front matter needs `{key}:`"
    assert page.meta["phase"] in (1, 2, 3)


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_cells_run_in_order(path):
    page = load(path)
    assert page.cells, f"{path.name} has no runnable cell"
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

"""Every `pyodide` cell of every lesson runs under Pyodide (in Node), in page order.

Cells are read with the site's own Markdown setup (so a cell inside an admonition or
a tab counts too) and run by tests/pyodide/run_cells.mjs through web/cellrun.py, one
namespace per page: a cell that works in CPython but not in Pyodide fails here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import course

ROOT = Path(__file__).resolve().parents[2]
LESSONS = [course.DOCS / day.lesson for day in course.DAYS]  # every day's page, in order
NODE = shutil.which("node")


def extract_cells(page: Path) -> list[dict]:
    """The page's cells in order, found by rendering it the way the site does."""
    import markdown
    from mkdocs.config import load_config
    from mkdocs.utils.meta import get_data

    config = load_config(str(ROOT / "mkdocs.yml"))
    cells: list[dict] = []

    def collect(source, language, class_name, options, md, **kwargs):
        cells.append({"code": source, "timeout": float(options.get("timeout", 0)) or None})
        return ""

    def keep_timeout(language, inputs, options, attrs, md):
        options.update(inputs)
        return True

    def any_options(language, inputs, options, attrs, md):
        return True  # the site's own validators check them (an explorer's values="...")

    configs = {k: dict(v) for k, v in config.mdx_configs.items()}
    configs["pymdownx.superfences"] = {
        **configs.get("pymdownx.superfences", {}),
        "custom_fences": [
            {"name": "pyodide", "class": "x", "format": collect, "validator": keep_timeout},
            # The site's other fences, with their options: superfences would otherwise not
            # take a fence with options (```explorer values="...") as one, and the cell after
            # it would be lost.
            *(
                {"name": name, "class": "x", "format": lambda *a, **k: "", "validator": any_options}
                for name in ("exercise", "question", "explorer", "model-explorer", "torch")
            ),
        ],
    }
    body, _meta = get_data(page.read_text(encoding="utf-8"))
    markdown.Markdown(extensions=config.markdown_extensions, extension_configs=configs).convert(
        body
    )
    return cells


def run_pages_in_node(pages: list[Path], tmp: Path) -> dict[str, list[dict]]:
    """{page stem: [each cell's result]} from run_cells.mjs (skips without Node.js)."""
    return run_cells_in_node([{"page": p.stem, "cells": extract_cells(p)} for p in pages], tmp)


def run_cells_in_node(pages: list[dict], tmp: Path) -> dict[str, list[dict]]:
    """{page: [each cell's result]} of run_cells.mjs on `pages` ([{page, cells: [{code,
    timeout}]}]), each page's cells in one namespace (skips without Node.js)."""
    if NODE is None:
        pytest.skip("no `node` on PATH: install Node.js 20+ (apt-get install -y nodejs npm)")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` first")
    (tmp / "pages.json").write_text(json.dumps(pages))
    proc = subprocess.run(
        [
            NODE,
            str(ROOT / "tests" / "pyodide" / "run_cells.mjs"),
            str(tmp / "pages.json"),
            str(tmp / "results.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0 or not (tmp / "results.json").is_file():
        pytest.fail(f"the Node cell runner failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return {r["page"]: r["cells"] for r in json.loads((tmp / "results.json").read_text())}


@pytest.fixture(scope="module")
def results(lesson_cells_under_pyodide):
    return lesson_cells_under_pyodide  # tests/conftest.py: one run of every page per session


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_cell_of_the_lesson_runs_under_pyodide(results, lesson):
    cells = results[lesson.stem]
    for i, cell in enumerate(cells, start=1):
        if cell.get("interrupted"):
            pytest.fail(f"{lesson.name}: cell {i} ran past its time limit")
        if not cell["ok"]:
            pytest.fail(
                f"{lesson.name}: cell {i} failed under Pyodide:\n{cell['error']['traceback']}"
            )


def test_the_runner_reports_an_error_with_the_learners_traceback(tmp_path):
    """The harness itself: a failing cell is caught, a good one passes, names carry over."""
    if NODE is None:
        pytest.skip("no `node` on PATH: install Node.js 20+ (apt-get install -y nodejs npm)")
    pages = [
        {
            # First, so engine.plot is not imported yet: show() draws on the very first run.
            "page": "shows",
            "cells": [
                {
                    "code": "from engine.plot import progress\n"
                    "for i in range(3):\n    progress(i + 1, 3).show(key='bar')\nprint('done')",
                    "timeout": None,
                }
            ],
        },
        {
            "page": "demo",
            "cells": [
                {"code": "from engine import Value\nv = Value(3.0)", "timeout": None},
                {"code": "print((v * v).data)", "timeout": None},
                {"code": "def f():\n    return 1 / 0\nf()", "timeout": None},
                {"code": "while True:\n    pass", "timeout": 1},
                {
                    "code": "from engine.plot import line_plot\nline_plot([3, 1, 2])",
                    "timeout": None,
                },
            ],
        },
        {"page": "other", "cells": [{"code": "v", "timeout": None}]},
    ]
    (tmp_path / "pages.json").write_text(json.dumps(pages))
    subprocess.run(
        [
            NODE,
            str(ROOT / "tests" / "pyodide" / "run_cells.mjs"),
            str(tmp_path / "pages.json"),
            str(tmp_path / "r.json"),
        ],
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    shows, demo, other = json.loads((tmp_path / "r.json").read_text())
    assert shows["cells"][0]["figures"] == 3 and shows["cells"][0]["stdout"] == "done\n"
    first, square, error, loop, figure = demo["cells"]
    assert first["ok"] and square["ok"] and square["stdout"] == "9.0\n"
    assert not error["ok"] and error["error"]["type"] == "ZeroDivisionError"
    assert error["error"]["traceback"].startswith(
        'Traceback (most recent call last):\n  File "<cell 3>"'
    )
    assert 'File "<cell 3>", line 2, in f' in error["error"]["traceback"]
    assert loop["interrupted"] and 0.9 < loop["seconds"] < 5
    assert figure["ok"] and figure["figures"] == 1
    # Another page has a namespace of its own.
    assert other["cells"][0]["error"]["type"] == "NameError"

"""The notebooks the site serves run as a learner runs them: downloaded, in a fresh Jupyter.

Each runs with nbclient in a new environment without `engine`: its setup cell installs
the engine and the public checks from the built site, served on 127.0.0.1, and then every
cell runs without error and prints what the same cell prints on the page (the pages' cells
are run by the Node cell runner, tests/pyodide/run_cells.mjs, under Pyodide).
"""

from __future__ import annotations

import itertools
import json
import re

import pytest

from grader.checks import published_cases
from tests.pyodide.test_lesson_cells import extract_cells
from tools import notebooks

from .conftest import days_under_test
from .kernel import cell_text, errors, execute, fresh_environment, run_plain

PAGES = days_under_test()
SOLUTIONS = notebooks.ROOT / "solutions"
# A printed number: 3, -0.25, 1e-05, 1,234 (the pages group digits with commas).
_NUMBER = re.compile(r"[-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# A measurement of the machine, not of the maths, so never compared: a time ("1.4 s",
# "12 ms"), a ratio of two ("7.6x faster"), an object's size in memory ("76 bytes per
# object": 32-bit WebAssembly in the page, 64-bit here), how often the cycle collector ran
# ("25 automatic collections": its thresholds are the interpreter version's).
_MEASURED = re.compile(
    r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\s*(?:ms|µs|s|seconds?|bytes|automatic collections)\b|\d+\.\d+x\b"
)
# Python's own wording of an error, changed between versions (CPython 3.11 here, 3.14 in the
# page): the lesson prints the error, the words are Python's.
_PYTHON_WORDING = [
    (re.compile(r"expected a positive input, got [-\d.e]+"), "math domain error"),
    (re.compile(r" and no __dict__ for setting new attributes"), ""),
]


def _role(cell):
    return cell["metadata"].get("course", {}).get("cell")


def _served(site_dir, page):
    return json.loads(
        (site_dir / "notebooks" / page.stem / f"{page.stem}.ipynb").read_text(encoding="utf-8")
    )


_ids = itertools.count()


def _code_cell(source, role):
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": f"test-{role}-{next(_ids)}",
        "metadata": {"course": {"cell": role}},
        "outputs": [],
        "source": source,
    }


def same_printout(got: str, want: str) -> bool:
    """The same text, up to line breaks and spaces, and the same numbers to 1e-9 relative.

    Measurements of the machine (times, their ratios, sizes in bytes, collector runs) are
    left out: they are not the lesson's; so is Python's own wording of two errors, which
    changed in 3.14.

    IPython breaks a long value's repr over lines where the page prints one line; Pyodide's
    maths library may round a last digit differently from CPython's.
    """
    for pattern, words in _PYTHON_WORDING:
        got, want = pattern.sub(words, got), pattern.sub(words, want)
    got, want = (re.sub(r"\s+", "", _MEASURED.sub("<measured>", t)) for t in (got, want))
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        x, y = (float(s.replace(",", "").rstrip(".") or "nan") for s in (a, b))
        if a != b and not abs(x - y) <= 1e-9 * max(abs(x), abs(y)):
            return False
    return True


def test_same_printout_compares_numbers_not_line_breaks():
    assert same_printout("[1.0, 2.5]\nloss 0.30000000000000004\n", "[1.0,\n 2.5]\nloss 0.3\n")
    assert not same_printout("loss 0.31\n", "loss 0.3\n")
    assert not same_printout("loss 0.3\n", "gain 0.3\n")
    assert not same_printout("1,234 names\n", "1,235 names\n")
    assert same_printout("100 steps in 1.4 s\n", "100 steps in 2.1 s\n")
    assert not same_printout("101 steps in 1.4 s\n", "100 steps in 1.4 s\n")
    assert same_printout("9.4x faster\n", "7.6x faster\n")
    assert same_printout("137 bytes per object", "76 bytes per object")
    assert same_printout(
        "alpha = 0: math domain error", "alpha = 0: expected a positive input, got 0.0"
    )


@pytest.fixture(scope="module")
def runs(site_dir, base_url, shared_python, tmp_path_factory):
    """{page stem: (the executed notebook, its environment's python)}, each run once."""
    done = {}
    for page in PAGES:
        nb = _served(site_dir, page)
        # After the learner's cells: the reference solution of each exercise, checked again.
        for cell in [c for c in nb["cells"] if _role(c) == "check"]:
            day_file = re.search(r'check\("([\w.]+)"\)', "".join(cell["source"]))[1]
            solution = f"%%writefile {day_file}\n" + (SOLUTIONS / day_file).read_text("utf-8")
            nb["cells"] += [_code_cell(solution, "solution"), _code_cell(cell["source"], "check")]
        where = tmp_path_factory.mktemp(page.stem)
        python = fresh_environment(where / "venv", shared_python)
        missing = run_plain("import engine", python, where)
        assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr
        done[page.stem] = (execute(nb, python, where), python, where)
    return done


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_every_cell_runs_after_the_setup_cell_installs_engine(runs, page, base_url):
    nb, python, where = runs[page.stem]
    assert errors(nb) == []
    setup = next(c for c in nb["cells"] if _role(c) == "setup")
    assert f"SITE = {base_url!r}" in "".join(setup["source"])
    assert "nothing to set up" not in cell_text(setup)  # it had to install
    assert cell_text(setup).endswith("engine is installed.\n")
    installed = run_plain("import engine, grader.notebook; print(engine.__file__)", python, where)
    assert installed.returncode == 0, installed.stderr
    assert str(where / "venv") in installed.stdout  # in the fresh environment, from the site


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_the_cells_print_what_the_page_prints(runs, page_output, page):
    nb = runs[page.stem][0]
    page_cells = extract_cells(page)  # the `pyodide` cells, in the order the runner ran them
    results = page_output[page.stem]
    assert len(results) == len(page_cells)
    compared = 0
    queue = list(zip(page_cells, results))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or _role(cell) or not queue:
            continue
        source = "".join(cell["source"]).rstrip("\n")
        if source != queue[0][0]["code"].rstrip("\n"):
            continue  # a "check it against PyTorch" cell: the page cannot run it
        (_, result), queue = queue[0], queue[1:]
        assert result["ok"], f"the page's own cell failed: {result['error']}"
        got = cell_text(cell)
        assert same_printout(got, result["stdout"]), (
            f"{page.stem}: the notebook printed\n{got}\nwhere the page prints\n{result['stdout']}"
        )
        compared += 1
    assert not queue, f"{len(queue)} page cells have no notebook cell"
    assert compared == len(page_cells)


def _svgs(cell):
    return [
        out["data"]["image/svg+xml"]
        for out in cell.get("outputs", [])
        if out["output_type"] in ("display_data", "execute_result")
        and "image/svg+xml" in out.get("data", {})
    ]


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_figures_show_inline_and_live_ones_update_in_place(runs, page_output, page):
    nb = runs[page.stem][0]
    page_cells = {
        c["code"].rstrip("\n"): r for c, r in zip(extract_cells(page), page_output[page.stem])
    }
    for cell in nb["cells"]:
        result = page_cells.get("".join(cell["source"]).rstrip("\n"))
        if cell["cell_type"] != "code" or result is None:
            continue
        svgs = _svgs(cell)
        # A figure the page draws is drawn here too, never summarised as "<Figure ...>".
        assert bool(svgs) == (result["figures"] > 0), "".join(cell["source"])[:200]
        assert "<Figure " not in cell_text(cell) and "<Progress " not in cell_text(cell)
        # A figure redrawn with the same key is one display, updated: never more displays
        # than the page draws, and a progress bar ends full.
        assert len(svgs) <= result["figures"]
        for svg in svgs:
            for percent in re.findall(r"\((\d+)%\)</text>", svg):
                assert percent == "100"


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_the_check_cell_fails_the_stub_and_passes_the_reference(runs, page):
    nb = runs[page.stem][0]
    checks = [c for c in nb["cells"] if _role(c) == "check"]
    learner, reference = checks[: len(checks) // 2], checks[len(checks) // 2 :]
    assert learner, f"{page.stem} has no check cell"
    for stub_check, solution_check in zip(learner, reference):
        exercise = re.search(r'check\("([\w.]+)"\)', "".join(stub_check["source"]))[1]
        cases = published_cases([exercise])[exercise]
        n = len(cases)
        stub = cell_text(stub_check).splitlines()
        # What the page says under an untouched stub: no check passes, each one named.
        assert stub[0] == f"0 of {n} checks passed.", stub
        for case in cases:
            assert f"✗ {case['case']['name']}" in stub
        assert any(f"of {exercise}): " in line for line in stub)  # "... (line N of file): ..."
        passed = cell_text(solution_check).splitlines()
        assert passed[0] == f"{n} of {n} checks passed.", passed
        assert not [line for line in passed if line.startswith("✗")]


def test_setup_without_an_address_or_a_network_says_what_to_do(
    base_url, shared_python, tmp_path, site_dir
):
    """The committed notebook (no address), then the site unreachable: messages, no error."""
    committed = json.loads(notebooks.target(PAGES[0]).read_text(encoding="utf-8"))
    setup = next(c for c in committed["cells"] if _role(c) == "setup")
    source = "".join(setup["source"])
    closed = f"http://127.0.0.1:{_closed_port()}/"
    offline = source.replace("SITE = None", f"SITE = {closed!r}")
    assert offline != source
    nb = {**committed, "cells": [_code_cell(source, "setup"), _code_cell(offline, "setup")]}
    python = fresh_environment(tmp_path / "venv", shared_python)
    done = execute(nb, python, tmp_path)
    assert errors(done) == []
    no_address, no_network = (cell_text(c) for c in done["cells"])
    assert "does not know the course site's address" in no_address
    assert "%pip install ./course" in no_address
    assert f"Could not reach the course site at {closed}" in no_network
    assert "run this cell again" in no_network
    for cell in done["cells"]:
        assert not [o for o in cell["outputs"] if o.get("name") == "stderr"]


def test_setup_in_plain_python_prints_the_install_command(base_url, shared_python, tmp_path):
    committed = json.loads(notebooks.target(PAGES[0]).read_text(encoding="utf-8"))
    source = "".join(next(c for c in committed["cells"] if _role(c) == "setup")["source"])
    python = fresh_environment(tmp_path / "venv", shared_python)
    run = run_plain(source.replace("SITE = None", f"SITE = {base_url!r}"), python, tmp_path)
    assert run.returncode == 0 and run.stderr == ""
    assert "Outside Jupyter, install them with:" in run.stdout
    command = run.stdout.splitlines()[-1].split()
    assert command[:4] == ["python", "-m", "pip", "install"]
    wheels = command[4:]
    assert [w.rsplit("/", 1)[1].split("-")[0] for w in wheels] == ["engine", "grader"]
    assert all(w.startswith(base_url + "pyodide/") and w.endswith(".whl") for w in wheels)
    run = run_plain(source, python, tmp_path)  # no address, no Jupyter: still a message
    assert run.returncode == 0 and "does not know the course site's address" in run.stdout


def _closed_port():
    from tests.site_server import free_port

    return free_port()  # nothing listens there once the probe socket is closed

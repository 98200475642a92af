"""Fixtures of the notebook tests: the days to run, the kernel's shared packages, and what
the pages' own cells print (run by the Node cell runner, the way the site runs them).

By default (`nox -s tests`) four days run: 1, 4, 15 and 30 (the first, a PyTorch cell, live
figures, the last). COURSE_NOTEBOOKS=all runs all thirty: `nox -s notebooks_run`.
"""

from __future__ import annotations

import os

import pytest

import course
from tests import early
from tests.pyodide.test_lesson_cells import run_pages_in_node

from .kernel import shared_environment

FAST_DAYS = (1, 4, 15, 30)


def days_under_test():
    """The lesson pages whose notebooks run in this session, in day order."""
    everything = os.environ.get("COURSE_NOTEBOOKS") == "all"
    return [course.DOCS / day.lesson for day in course.DAYS if everything or day.day in FAST_DAYS]


@pytest.fixture(scope="session")
def shared_python():
    try:
        return early.result("shared_python", shared_environment)  # maybe started at collection
    except RuntimeError as exc:
        pytest.fail(f"the notebook kernel's packages could not be installed: {exc}")


def _every_page_runs_under_pyodide(session) -> bool:
    """Whether this session also runs tests/pyodide's test of every page's cells."""
    return any(
        getattr(item, "originalname", None) == "test_every_cell_of_the_lesson_runs_under_pyodide"
        for item in session.items
    )


@pytest.fixture(scope="session")
def page_output(request, tmp_path_factory):
    """{page stem: [each `pyodide` cell's result under Pyodide: stdout, figures, ...]}.

    When the session runs every page's cells under Pyodide anyway (tests/pyodide), its
    results are used; else only the days under test run."""
    if _every_page_runs_under_pyodide(request.session):
        every = request.getfixturevalue("lesson_cells_under_pyodide")
        return {page.stem: every[page.stem] for page in days_under_test()}
    return run_pages_in_node(days_under_test(), tmp_path_factory.mktemp("page-cells"))

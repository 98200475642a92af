"""The grading suite of grader.pytest_plugin: one parametrized test, one item per case."""

import pytest

from grader.pytest_plugin import grade_job


def test_case(grading_job, grading_budget):
    passed, message = grade_job(grading_job, grading_budget)
    if not passed:
        pytest.fail(message, pytrace=False)

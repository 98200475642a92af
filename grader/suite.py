"""The grading suite of grader.pytest_plugin: one parametrized test, one item per case."""

import pytest

from grader.pytest_plugin import grade_job


def test_case(grading_job, grading_budget):
    status, message = grade_job(grading_job, grading_budget)
    if status == "error":  # not the learner's code: the case could not be run or judged
        pytest.fail(f"ERROR, not graded: {message}", pytrace=False)
    if status == "failed":
        pytest.fail(message, pytrace=False)

"""The grading suite of grader.pytest_plugin: one parametrized test, one item per case."""

import pytest

from grader.messages import msg, render
from grader.pytest_plugin import grade_job


def test_case(grading_job, grading_budget, grading_lang):
    status, message = grade_job(grading_job, grading_budget, grading_lang)
    if status == "error":  # not the learner's code: the case could not be run or judged
        not_graded = msg("ERROR, not graded: {message}", message=message)
        pytest.fail(render(not_graded, grading_lang), pytrace=False)
    if status == "failed":
        pytest.fail(message, pytrace=False)

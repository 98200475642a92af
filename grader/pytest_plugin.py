"""Grade a submission with pytest: one test per case, every case run in the sandbox.

    python -m pytest -p grader.pytest_plugin grader/suite.py --submission SUBMISSION
        [-k day05] [--grader-seed N] [--grader-budget SECONDS] [--isolation bwrap|uid|process]
        [--grader-lang en|ru|et]

The same cases, sandbox, judges and time budget as `python -m grader` (which adds the
report and the Gradescope JSON): one `grade.Budget` for the whole session, so a
submission that hangs everywhere stops as soon as it does there. Here they are pytest items, so -k, -x, -v,
--junitxml and the rest work as usual. Items are made in this trusted process from
grader/checks; learner code only ever runs in the sandboxed children.
"""

import secrets

import pytest

from .checks import EXERCISES
from .grade import BUDGET_SECONDS, Budget, judge, plan
from .isolation import AUTO, CHOICES
from .messages import LANGUAGES, from_environment, msg, render
from .report import shown
from .sandbox import SandboxError, detect
from .submission import Rejected, load


def pytest_addoption(parser):
    group = parser.getgroup("grader", "grading a submission (grader.pytest_plugin)")
    group.addoption(
        "--submission",
        metavar="PATH",
        help="a folder laid out like exercises/, or a zip of one",
    )
    group.addoption(
        "--grader-seed", type=int, metavar="N", help="draw the hidden cases from this seed"
    )
    group.addoption(
        "--grader-budget",
        type=float,
        default=BUDGET_SECONDS,
        metavar="SECONDS",
        help=f"the whole submission's time (default {BUDGET_SECONDS:g}, as python -m grader)",
    )
    group.addoption(
        "--isolation",
        choices=CHOICES,
        default=AUTO,
        help="the sandbox level (default: the strongest that works)",
    )
    group.addoption(
        "--grader-lang",
        choices=LANGUAGES,
        metavar="|".join(LANGUAGES),
        help="the language of the feedback (default: the environment's, LANGUAGE or LANG, "
        "as python -m grader's report)",
    )


def pytest_configure(config):
    if config.getoption("--submission") is None:
        raise pytest.UsageError(
            "grader.pytest_plugin needs --submission PATH: a folder laid out like exercises/ "
            "or a zip of one"
        )
    seed = config.getoption("--grader-seed")
    config.grader_seed = secrets.randbits(64) if seed is None else seed
    config.grader_lang = config.getoption("--grader-lang") or from_environment()


def pytest_report_header(config):
    return f"grader: submission {config.getoption('--submission')}, seed {config.grader_seed}"


def pytest_generate_tests(metafunc):
    if "grading_job" in metafunc.fixturenames:
        jobs = plan(list(EXERCISES), metafunc.config.grader_seed)
        ids = [f"{exercise[:-3]}: {case['name']}" for exercise, case in jobs]
        metafunc.parametrize("grading_job", jobs, ids=ids)


@pytest.fixture(scope="session")
def grading_files(pytestconfig):
    """The submission's files; a refused submission fails every case with the reason."""
    try:
        return load(pytestconfig.getoption("--submission"))
    except Rejected as exc:
        return exc


@pytest.fixture(scope="session")
def grading_sandbox(pytestconfig):
    try:
        return detect(pytestconfig.getoption("--isolation"))
    except SandboxError as exc:
        pytest.exit(f"grader: {exc}", returncode=1)


@pytest.fixture(scope="session")
def grading_lang(pytestconfig):
    """The language the items' messages are in."""
    return pytestconfig.grader_lang


@pytest.fixture(scope="session")
def grading_budget(pytestconfig, grading_files, grading_sandbox):
    """The time budget and hang count every item of the session shares."""
    if isinstance(grading_files, Rejected):
        return grading_files
    return Budget(grading_files, grading_sandbox, pytestconfig.getoption("--grader-budget"))


def grade_job(job, budget, lang="en"):
    """(status, message in `lang`) for one case of one exercise: "passed", "failed" or
    "error"."""
    exercise, case = job
    if isinstance(budget, Rejected):
        return "failed", shown(
            render(msg("the submission was not graded: {why}", why=budget.message), lang)
        )
    # Learner text (a file name, an exception's words) is escaped as the report escapes
    # it: pytest writes a failure's message to the terminal as it is.
    status, message = judge(exercise, case, budget.run(exercise, case), lang)
    return status, shown(message)

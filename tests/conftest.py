"""Shared by every test that needs them: Debian's Chromium, by path (tests/browser,
tests/explorer), the built site served on 127.0.0.1 (tests/browser, tests/notebooks), and
every lesson's cells run under Pyodide (tests/pyodide, tests/notebooks)."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests import early
from tests.site_server import build_site, free_port, serve
from tools.chromium import CHROMIUM, CHROMIUM_FLAGS


@pytest.fixture(scope="session", autouse=True)
def public_cases_file(tmp_path_factory):
    """grader.public reads the public cases from the file the site build ships beside it;
    in a checkout there is none, so the tests point it at one written the same way."""
    import grader.public
    from hooks.site_build import public_cases_json

    path = tmp_path_factory.mktemp("public") / "public_cases.json"
    path.write_bytes(public_cases_json())
    original, grader.public.CASES_FILE = grader.public.CASES_FILE, path
    yield path
    grader.public.CASES_FILE = original


@pytest.fixture(scope="session")
def lesson_cells_under_pyodide(tmp_path_factory):
    """{page stem: [each cell's result]} of every lesson page, its cells run under Pyodide in
    Node (tests/pyodide/run_cells.mjs): one run per session, whichever tests ask for it."""
    from tests.pyodide.test_lesson_cells import LESSONS, run_pages_in_node

    return run_pages_in_node(LESSONS, tmp_path_factory.mktemp("cells"))


@pytest.fixture(scope="session")
def site_port() -> int:
    """The port of the isolated server; the site is built for it (instant navigation)."""
    return _chosen_port("site_port")


@pytest.fixture(scope="session")
def site_dir(site_port) -> Path:
    # Strict, as `nox -s docs`: a broken link or a bad block fails every test that needs it.
    out = _chosen_folder("site", "course-site-")
    try:
        proc = build_site(out, site_port)
    finally:
        _start_after_site()
    if proc.returncode != 0:
        pytest.fail(f"building the site failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return out


# Chosen once: at collection when the work is started early (tests/early.py), else at first use.
# Each site is a folder of this session's own: a site being rebuilt by another run at the
# same time must not pull files from under this one.
_chosen = {}


def _chosen_port(name) -> int:
    if name not in _chosen:
        _chosen[name] = free_port()
    return _chosen[name]


def _chosen_folder(name, prefix) -> Path:
    if name not in _chosen:
        _chosen[name] = Path(tempfile.mkdtemp(prefix=prefix))
    return _chosen[name]


def _server_port() -> int:
    return _chosen_port("server_port")


def _server_site_dir() -> Path:
    return _chosen_folder("server_site", "course-site-with-server-")


def _build_server_site(out: Path, port: int):
    return build_site(out, port, env={"SUBMIT_URL": f"http://127.0.0.1:{port}/"})


@pytest.fixture(scope="session")
def server_port() -> int:
    """The port of a course server (or of its fake); the server's site is built for it."""
    return _server_port()


@pytest.fixture(scope="session")
def server_site(server_port) -> Path:
    """The site built as `nox -s server` builds it: SITE_URL and SUBMIT_URL its own address.
    One build per session, for the page tests against a fake API and the real server."""
    out = _server_site_dir()
    proc = early.result("server_site", _build_server_site, out, server_port)
    if proc.returncode != 0:
        pytest.fail(f"building the site failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return out


@pytest.fixture(scope="session")
def base_url(site_dir, site_port):
    """The site, served cross-origin isolated (like `nox -s serve`)."""
    server = serve(site_dir, isolation=True, port=site_port)
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if CHROMIUM is None:
        pytest.skip(
            "no `chromium` on PATH: install Debian's chromium package (apt-get install -y chromium)"
        )
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_FLAGS,
        "headless": True,
    }


# Computations of the lesson tests that start as soon as the tests are collected, rather
# than at the first lesson test (tests/lessons/ahead.py): the browser tests run first and
# leave the second core mostly idle while they wait for pages.
START_AT_COLLECTION = {"tests.lessons.test_my_engine", "tests.i18n.test_cells"}


def pytest_collection_finish(session):
    _start_early(session)
    early = [i for i in session.items if getattr(i.module, "__name__", None) in START_AT_COLLECTION]
    if early:
        from tests.lessons import ahead

        # Only what the selected tests ask for (a -k run selects a few days).
        asked = {
            str(value)
            for i in early
            if hasattr(i, "callspec")  # a test of no parameters asks for no computation
            for value in i.callspec.params.values()
        }
        ahead.start(START_AT_COLLECTION, keep=lambda args: str(args[0]) in asked)


# Background jobs (early.start's arguments) that wait for the site's build (see _start_early).
_after_site: list[tuple] = []


def _start_after_site():
    while _after_site:
        early.start(*_after_site.pop(0))


def _start_early(session):
    """Start, in the background, the subprocess work of the session fixtures the selected
    tests use (tests/early.py), in the order the tests will want it."""
    if session.config.option.collectonly:
        return
    used = set()
    for item in session.items:
        used.update(getattr(item, "fixturenames", ()))
    jobs = []
    # Not the site itself: built in a thread while the browser started, its pages broke
    # instant navigation's cells (tests/browser/test_cells.py, moving between two lessons),
    # for a cause not found; built when its first test asks for it, they work.
    if "server_site" in used:
        jobs.append(("server_site", _build_server_site, _server_site_dir(), _server_port()))
    if "shared_python" in used:
        from tests.notebooks.kernel import shared_environment

        jobs.append(("shared_python", shared_environment))
    # When the first test waits for the site's build (the browser tests come first), the
    # build gets a core of its own (the lessons' computations ahead take the other), and
    # this work starts once the site is built.
    first = session.items[0] if session.items else None
    if "site_dir" in getattr(first, "fixturenames", ()):
        _after_site.extend(jobs)
    else:
        for job in jobs:
            early.start(*job)


def pytest_sessionfinish(session):
    _after_site.clear()
    early.stop()
    for name in ("site", "server_site"):
        if name in _chosen:
            shutil.rmtree(_chosen[name], ignore_errors=True)

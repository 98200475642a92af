"""Every workflow of the course: `nox -l` lists them."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nox

nox.needs_version = ">=2026.10.20"
nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["tests"]

TESTS = "requirements/tests.txt"
DOCS = "requirements/docs.txt"
PYODIDE_BUILD = "requirements/pyodide-build.txt"  # the build's `pyodide lockfile` (Python 3.12+)


def install_site_build(session: nox.Session) -> None:
    """What building the site needs: MkDocs and its plugins, pyodide-build, the course plugin
    (`pip install .` registers `course`, hooks/plugin.py), and the npm packages."""
    session.install("-r", DOCS)
    install_pyodide_build(session)
    session.install(".")
    npm_ci(session)


def _python_312() -> str | None:
    """A Python >= 3.12 for pyodide-build: python3.13/python3.12 on PATH, else pyenv's.

    Each is asked its version: a pyenv shim is on PATH even where its version is not selected.
    """
    candidates = [shutil.which(name) for name in ("python3.13", "python3.12")]
    versions = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += sorted(map(str, versions.glob("3.1[2-9]*/bin/python3")), reverse=True)
    probe = "import sys; sys.exit(sys.version_info < (3, 12))"
    for python in filter(None, candidates):
        if subprocess.run([python, "-c", probe], capture_output=True).returncode == 0:
            return python
    return None


def install_pyodide_build(session: nox.Session) -> None:
    """pyodide-build (the build's `pyodide lockfile add-wheels`) needs Python >= 3.12.

    In a 3.12+ session it goes into the session's environment; under 3.11 (the tests' Python)
    into an environment of its own, made once per pin under build/, whose `pyodide` command
    the build finds through COURSE_PYODIDE (hooks/site_build.py).
    """
    if sys.version_info >= (3, 12):
        session.install("-r", PYODIDE_BUILD)
        return
    python = _python_312()
    if python is None:
        session.error(
            "the site build's pyodide-build needs Python 3.12 or newer and none was found "
            "(python3.13/python3.12 on PATH, ~/.pyenv/versions): install one, e.g. "
            "`apt-get install python3.12-venv` or `pyenv install 3.12`, and run nox again"
        )
    pins = hashlib.sha256(Path(PYODIDE_BUILD).read_bytes()).hexdigest()[:12]
    venv = Path("build", "pyodide-build", f"env-{pins}").resolve()
    cli = venv / "bin" / "pyodide"
    if not cli.is_file():
        session.run(python, "-m", "venv", "--clear", str(venv), external=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        session.run(*pip, "-r", PYODIDE_BUILD, external=True)
    session.env["COURSE_PYODIDE"] = str(cli)


def npm_ci(session: nox.Session) -> None:
    """Install the browser runtime's npm packages (Pyodide, CodeMirror, esbuild) from the lockfile."""
    stamp = Path("node_modules/.package-lock.json")
    if stamp.is_file() and stamp.stat().st_mtime >= Path("package-lock.json").stat().st_mtime:
        return  # already installed from this lockfile
    session.run("npm", "ci", "--no-audit", "--no-fund", external=True)


@nox.session
def tests(session: nox.Session) -> None:
    """Run the whole test suite (pass pytest arguments after --)."""
    # requirements/tests.txt includes requirements/server.txt (the server's tests).
    session.install("-r", TESTS)
    install_site_build(session)  # the browser and Pyodide tests build and run the site
    # the slowest tests named at the end: where the suite's time goes, run after run; the
    # load tests at full size are `nox -s heavy`'s
    session.run("pytest", "-m", "not heavy", "--durations=25", *session.posargs)


@nox.session
def heavy(session: nox.Session) -> None:
    """The load tests at full size (a class of 100 compared, 50 submissions across a restart):
    their smaller cousins run in `nox -s tests`."""
    session.install("-r", TESTS)
    install_site_build(session)  # what `nox -s tests` has: every test module imports
    session.run("pytest", "-m", "heavy", *session.posargs)


@nox.session
def accessibility(session: nox.Session) -> None:
    """axe-core on every page of the site in every language (`nox -s tests` checks a sample of
    the notebooks' pages and of each translation: tests/browser/test_accessibility.py)."""
    session.install("-r", TESTS)
    install_site_build(session)
    session.run(
        "pytest",
        "tests/browser/test_accessibility.py::test_axe_finds_no_serious_violation_on_any_page",
        *session.posargs,
        env={"COURSE_A11Y_PAGES": "all"},
    )


@nox.session
def lint(session: nox.Session) -> None:
    """Check style and common mistakes: ruff for Python, Prettier (pinned in package.json) for web/,
    and TypeScript's checker over the worker protocol's JavaScript (tsconfig.json)."""
    session.install("ruff==0.17.5")
    session.run("ruff", "check", ".", *session.posargs)
    session.run("ruff", "format", "--check", ".")
    npm_ci(session)
    session.run(
        "npx", "--no-install", "prettier", "--check", "web/**/*.{js,mjs,css}", external=True
    )
    # web/protocol.js's message types, checked in web/client.js, web/worker.js, web/early.js.
    session.run("npx", "--no-install", "tsc", "-p", "tsconfig.json", external=True)


@nox.session
def bench(session: nox.Session) -> None:
    """Measure the engine against a textbook baseline and print the ratios."""
    # benchmarks/browser.py builds the site and drives Chromium with Playwright.
    session.install("-r", TESTS)
    install_site_build(session)
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def train(session: nox.Session) -> None:
    """Train microGPT on the names and sample new ones (e.g. -- --steps 500 --temperature 0.8).

    `-- --save PATH` also writes a JSON checkpoint; the site's model explorer ships the
    default run's: `nox -s train -- --samples 0 --save explorer/data/microgpt.json`.
    """
    session.install(".")
    session.run("python", "-m", "engine.train", *session.posargs)


@nox.session(name="my-engine")
def my_engine(session: nox.Session) -> None:
    """Run the lesson cells on your own exercise files and compare with the course engine (-- FOLDER [--days 6-14])."""
    if not session.posargs:
        session.error(
            "give a folder of exercise files: nox -s my-engine -- exercises/ [--days 6-14]"
        )
    session.install("pyyaml")  # course.py reads the lessons' front matter
    session.run("python", "-m", "tools.my_engine", *session.posargs)


@nox.session
def grade(session: nox.Session) -> None:
    """Grade exercises in a sandbox: -- [SUBMISSION] [--exercise ID] [--json OUT] (default exercises/)."""
    session.install("-r", "requirements/grader.txt")  # the similarity report's copydetect
    session.run("python", "-m", "grader", *session.posargs)


@nox.session
def gradescope(session: nox.Session) -> None:
    """Build dist/autograder.zip to upload to Gradescope as the course's autograder."""
    session.run("python", "-m", "grader.gradescope", *session.posargs)


@nox.session
def notebooks(session: nox.Session) -> None:
    """Write each lesson's notebook (docs/notebooks/) from its page; -- --check only reports."""
    session.install("pyyaml")
    # From the repository root, so that the tool imports the course manifest (course.py).
    session.run("python", "-m", "tools.notebooks", *session.posargs)


@nox.session
def translations(session: nox.Session) -> None:
    """The catalog of the course's words (translations.py): extract the messages from the code
    into locales/course.pot, merge them into each language's .po (translate what is new there),
    and compile the .mo files gettext reads. tests/i18n/ fails while one of these is stale."""
    session.install("-r", DOCS)
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # translations.py, at the root
    import translations as catalog

    pot = "locales/course.pot"
    env = {"PYTHONPATH": "."}  # babel.cfg's extractors (nav, server templates): tools/catalog.py
    session.run(
        "pybabel",
        "extract",
        "-F",
        "babel.cfg",
        *catalog.EXTRACT_KEYWORDS,
        "-o",
        pot,
        "--sort-output",
        "--project",
        "course",
        ".",
        env=env,
    )
    session.run(
        "pybabel",
        "update",
        "-D",
        catalog.DOMAIN,
        "-i",
        pot,
        "-d",
        "locales",
        "--width",
        "100",
        "--no-fuzzy-matching",
    )
    session.run("pybabel", "compile", "-D", catalog.DOMAIN, "-d", "locales", "--statistics")


@nox.session
def notebooks_run(session: nox.Session) -> None:
    """Run every day's notebook as a learner would: fresh Jupyter kernel, engine from the site."""
    session.install("-r", TESTS)
    install_site_build(
        session
    )  # the site the notebooks install from is built, and the pages' cells run
    # `nox -s tests` runs days 1, 4, 15 and 30 of tests/notebooks; this runs every day.
    session.run("pytest", "tests/notebooks", *session.posargs, env={"COURSE_NOTEBOOKS": "all"})


@nox.session(name="my-engine-pyodide")
def my_engine_pyodide(session: nox.Session) -> None:
    """Compare every lesson's cells from day 6 on, under Pyodide, on solutions/ as my engine.

    Each cell's printed numbers on the solutions as the learner's engine (engine.mine) against
    the same cell on the course engine; `nox -s tests` runs days 6 to 19 of it.
    """
    session.install("-r", TESTS, "-r", DOCS)
    session.install(".")  # the course plugin: the cells are read with the site's Markdown setup
    npm_ci(session)
    session.run(
        "pytest",
        "tests/pyodide/test_my_engine_pyodide.py",
        *session.posargs,
        env={"COURSE_MY_ENGINE_DAYS": "all"},
    )


@nox.session
def docs(session: nox.Session) -> None:
    """Build the course into site/ for SITE_URL, the address it will be published at."""
    build_site(session, env={})


def build_site(session: nox.Session, env: dict[str, str], site_dir: str | None = None) -> None:
    install_site_build(session)
    # The course plugin (hooks/plugin.py) bundles web/, copies Pyodide and registers the wheels.
    # `python -m` from the repository root: the plugin imports hooks/ and course.py from there.
    where = ["--site-dir", site_dir] if site_dir else []
    session.run("python", "-m", "mkdocs", "build", "--strict", *where, env=env)


def _port(posargs: list[str], default: str = "8000") -> str:
    """The N of `-- --port N`, else the default."""
    if "--port" in posargs[:-1]:
        return posargs[posargs.index("--port") + 1]
    return default


@nox.session
def serve(session: nox.Session) -> None:
    """Serve the course at http://127.0.0.1:8000, rebuilt and reloaded on every change (-- --port N).

    `mkdocs serve`: a change to a page, web/, exercises/, engine/ (mkdocs.yml's `watch:`)
    rebuilds the site and reloads the page; the course plugin sends the isolation headers
    (COOP/COEP), so Stop interrupts at once. Other arguments go to `mkdocs serve`. A preview
    keeps nothing offline; `nox -s docs` builds the site as it is published.
    """
    port = _port(session.posargs)
    install_site_build(session)
    args = list(session.posargs)
    if "--port" in args[:-1]:
        del args[args.index("--port") : args.index("--port") + 2]
    address = f"127.0.0.1:{port}"
    env = {"SITE_URL": f"http://{address}/"}
    session.run("python", "-m", "mkdocs", "serve", "--dev-addr", address, *args, env=env)


@nox.session
def server(session: nox.Session) -> None:
    """Serve the course with sign-in and graded submissions at http://127.0.0.1:8000 (-- --port N).

    Other arguments go to `python -m server serve` (e.g. --workers 4). SQLite and local
    workers, everything in server-data/; production settings: docs/instructors/server.md.
    """
    port = _port(session.posargs)
    session.install("-r", "requirements/server.txt", "-r", "requirements/grader.txt")
    address = f"http://127.0.0.1:{port}/"
    site = "build/server-site"
    build_site(session, env={"SITE_URL": address, "SUBMIT_URL": address}, site_dir=site)
    args = list(session.posargs)
    if "--port" not in args[:-1]:
        args = ["--port", port, *args]
    # The server checks each request's Origin against PUBLIC_URL: the address it serves at.
    env = {"PUBLIC_URL": address}
    session.run("python", "-m", "server", "serve", "--site", site, *args, env=env)


@nox.session
def admin(session: nox.Session) -> None:
    """Classes and people of the course server: -- create-class NAME, -- add-learner CODE NAME, ...

    The same as `python -m server admin ...` (its help lists every command), in the
    server's own environment, on the same server-data/ as `nox -s server`.
    """
    session.install("-r", "requirements/server.txt")
    session.run("python", "-m", "server", "admin", *(session.posargs or ["--help"]))


@nox.session
def server_load(session: nox.Session) -> None:
    """Load-test the course server on 127.0.0.1: 200 learners submit 3 exercises in a minute.

    Once on SQLite with two local workers, once on PostgreSQL + Redis with two worker
    processes (Debian's postgresql and redis-server); prints the accepted rate, the time to
    a result, losses and errors. Not part of `nox -s tests`.
    """
    session.install("-r", TESTS)  # the server's requirements, httpx and the test services
    session.install("-r", "requirements/grader.txt")
    session.install(".")
    session.run("python", "-m", "benchmarks.server_load", *session.posargs)


@nox.session
def torch(session: nox.Session) -> None:
    """Run the pages' "Check it against PyTorch" blocks with torch and compare their output."""
    # The CPU wheel: no CUDA packages are pulled in (pip finds torch-2.13.0+cpu locally).
    session.install("torch==2.13.0", "--only-binary", "torch")
    session.install(".")
    session.run("python", "tools/torch_check.py", *session.posargs)


@nox.session(name="public-tree")
def public_tree(session: nox.Session) -> None:
    """Copy the course, without solutions/ and its tests, into a new folder for a public repository (-- OUT)."""
    if not session.posargs:
        session.error("give the new folder: nox -s public-tree -- OUT")
    session.run("python", "-m", "tools.public_tree", *session.posargs)

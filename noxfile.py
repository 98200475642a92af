"""Every workflow of the course: `nox -l` lists them."""

from pathlib import Path

import nox

nox.needs_version = ">=2026.10.20"
nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["tests"]

TESTS = "requirements/tests.txt"
DOCS = "requirements/docs.txt"


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
    session.install("-r", TESTS, "-r", DOCS)
    session.install(".")
    npm_ci(session)  # the browser and Pyodide tests build and run the site from it
    session.run("pytest", *session.posargs)


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
    session.install(".")
    # benchmarks/browser.py builds the site and drives Chromium with Playwright.
    session.install("-r", TESTS, "-r", DOCS)
    npm_ci(session)
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def train(session: nox.Session) -> None:
    """Train microGPT on the names and sample new ones (e.g. -- --steps 500 --temperature 0.8).

    `-- --save PATH` also writes a JSON checkpoint; the site's model explorer ships the
    default run's: `nox -s train -- --samples 0 --save explorer/data/microgpt.json`.
    """
    session.install(".")
    session.run("python", "-m", "engine.train", *session.posargs)


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
def notebooks_run(session: nox.Session) -> None:
    """Run all thirty notebooks as a learner would: fresh Jupyter kernel, engine from the site."""
    session.install("-r", TESTS, "-r", DOCS)
    session.install(".")
    npm_ci(session)  # the site the notebooks install from is built, and the pages' cells run
    # `nox -s tests` runs days 1, 4, 15 and 30 of tests/notebooks; this runs every day.
    session.run("pytest", "tests/notebooks", *session.posargs, env={"COURSE_NOTEBOOKS": "all"})


@nox.session
def docs(session: nox.Session) -> None:
    """Build the course into site/ for SITE_URL, the address it will be published at."""
    build_site(session, env={})


def build_site(session: nox.Session, env: dict[str, str], site_dir: str | None = None) -> None:
    session.install("-r", DOCS)
    session.install(".")
    npm_ci(session)
    # The hook (hooks/course_site.py) bundles web/, copies Pyodide and registers the wheels.
    # `python -m` from the repository root: the hooks import the course manifest (course.py).
    where = ["--site-dir", site_dir] if site_dir else []
    session.run("python", "-m", "mkdocs", "build", "--strict", *where, env=env)


def _port(posargs: list[str], default: str = "8000") -> str:
    """The N of `-- --port N`, else the default."""
    if "--port" in posargs[:-1]:
        return posargs[posargs.index("--port") + 1]
    return default


@nox.session
def serve(session: nox.Session) -> None:
    """Build the course and serve it at http://127.0.0.1:8000 (-- --port N for another)."""
    port = _port(session.posargs)
    build_site(session, env={"SITE_URL": f"http://127.0.0.1:{port}/"})
    # COOP/COEP headers: the page is cross-origin isolated, so Stop interrupts at once.
    session.run("python", "tools/serve.py", "--dir", "site", "--port", port, *session.posargs)


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

"""Every workflow of the course: `nox -l` lists them."""

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["tests"]

TESTS = "requirements/tests.txt"
DOCS = "requirements/docs.txt"


@nox.session
def tests(session: nox.Session) -> None:
    """Run the whole test suite (pass pytest arguments after --)."""
    session.install("-r", TESTS, "-r", DOCS)
    session.install(".")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Check style and common mistakes with ruff."""
    session.install("ruff==0.17.5")
    session.run("ruff", "check", ".", *session.posargs)
    session.run("ruff", "format", "--check", ".")


@nox.session
def bench(session: nox.Session) -> None:
    """Measure the engine against a textbook baseline and print the ratios."""
    session.install(".")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the course site into site/ (strict: warnings fail)."""
    session.install("-r", DOCS)
    session.install(".")
    session.run("mkdocs", "build", "--strict")


@nox.session
def serve(session: nox.Session) -> None:
    """Build the course and serve it at http://127.0.0.1:8000."""
    docs(session)
    session.run("python", "-m", "http.server", "8000", "--bind", "127.0.0.1", "--directory", "site")

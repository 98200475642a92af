"""Fixtures of the server tests: each database test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools
import shutil

import pytest

from server.config import Settings
from server.db import Database

from .services import INSTALL, Postgres, Redis, postgres_bin

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_cluster(tmp_path_factory):
    if postgres_bin() is None:
        pytest.skip(f"PostgreSQL is not installed here: {INSTALL}")
    cluster = Postgres(tmp_path_factory.mktemp("postgres"))
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    if shutil.which("redis-server") is None:
        pytest.skip(f"redis-server is not installed here: {INSTALL}")
    server = Redis(tmp_path_factory.mktemp("redis"))
    yield server.start()
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """An empty database, migrated by whoever uses it: SQLite in a file, or PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'course.db'}"
    cluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database(f"course_{next(_names)}")


@pytest.fixture
def db(database_url):
    """The course's database there, migrated to the newest schema."""
    database = Database(database_url)
    database.migrate()
    yield database
    database.dispose()


@pytest.fixture
def settings(database_url, tmp_path):
    """The server's settings for that database: a data folder of the test's own, a fixed
    grading seed, a 30 s lease."""
    return Settings.from_env(
        env={"COURSE_DATA_DIR": str(tmp_path / "data"), "SECRET_KEY": "test-key"},
        database_url=database_url,
        lease_seconds=30.0,
        grade_seed=1,
    )


@pytest.fixture(scope="module")
def sandbox():
    """The grader's sandbox this machine has (bwrap, else the uid jail), else a skip."""
    from grader.sandbox import SandboxError, detect

    try:
        return detect("auto")
    except SandboxError as exc:
        pytest.skip(f"no sandbox here: {exc}")

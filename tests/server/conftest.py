"""Fixtures of the server tests: each database test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools
import shutil

import pytest

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

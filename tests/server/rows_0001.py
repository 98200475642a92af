"""Rows written straight into the first schema (migration 0001, before submissions had a
language), for the tests of what later migrations do to a class's existing work."""

from __future__ import annotations

from contextlib import contextmanager

from alembic import command
from sqlalchemy import text

from server.db import Database, alembic_config


@contextmanager
def first_schema(database_url):
    """(the database, its Alembic config), migrated to 0001 only, with class 1 and its
    learner 1 in it; disposed of at the end."""
    db = Database(database_url)
    config = alembic_config(database_url)
    try:
        command.upgrade(config, "0001")
        with db.engine.begin() as conn:
            add_class_and_learner(conn)
        yield db, config
    finally:
        db.dispose()


def add_class_and_learner(conn) -> None:
    """Class 1 ("Old") and its learner 1 ("ada")."""
    conn.execute(
        text(
            "INSERT INTO classes (id, name, invite_code, created_at) "
            "VALUES (1, 'Old', 'old-code', CURRENT_TIMESTAMP)"
        )
    )
    conn.execute(
        text(
            "INSERT INTO users (id, login, name, created_at) "
            "VALUES (1, 'ada', 'Ada', CURRENT_TIMESTAMP)"
        )
    )


def add_submission(conn, sub_id: str, code: bytes, **columns) -> None:
    """Learner 1's submission of day 5 to class 1; `columns`: any other column's value."""
    values = {
        "id": sub_id,
        "user_id": 1,
        "class_id": 1,
        "exercise": "day05_add_mul.py",
        "code": code,
        "sha256": "0" * 64,
        "late": False,
        "state": "graded",
        "attempts": 1,
        **columns,
    }
    names = ", ".join(values)
    placeholders = ", ".join(f":{name}" for name in values)
    conn.execute(
        text(
            f"INSERT INTO submissions ({names}, created_at) "
            f"VALUES ({placeholders}, CURRENT_TIMESTAMP)"
        ),
        values,
    )

"""Alembic: the migrations build exactly the tables of server.models, on both databases."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from server.db import Database, alembic_config
from server.models import Base

from .rows_0001 import add_submission, first_schema


def _state(db):
    with db.engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return tables, context.get_current_revision(), compare_metadata(context, Base.metadata)


def test_upgrade_builds_the_models_tables(database_url):
    db = Database(database_url)
    try:
        tables, revision, _ = _state(db)
        assert tables == set() and revision is None
        command.upgrade(alembic_config(database_url), "head")
        tables, revision, diff = _state(db)
        assert set(Base.metadata.tables) <= tables
        assert tables - set(Base.metadata.tables) == {"alembic_version"}
        assert revision is not None
        assert diff == [], diff
    finally:
        db.dispose()


def test_downgrade_to_base_and_upgrade_again(database_url):
    db = Database(database_url)
    config = alembic_config(database_url)
    try:
        db.migrate()
        with db.session() as s:
            from server import people

            people.create_class(s, "Before")
        command.downgrade(config, "base")
        tables, revision, _ = _state(db)
        assert tables <= {"alembic_version"} and revision is None
        db.migrate()
        db.migrate()  # at head already: nothing to do, no error
        tables, revision, diff = _state(db)
        assert set(Base.metadata.tables) <= tables and diff == []
        with db.session() as s:
            from server.models import Course

            assert s.query(Course).count() == 0  # the downgrade dropped the old rows
    finally:
        db.dispose()


def test_the_migrations_form_one_line():
    """One head, and every revision reachable from base: no branch left unmerged."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1
    assert list(script.walk_revisions())[-1].down_revision is None


def test_submissions_made_before_languages_say_english_after_the_upgrade(database_url):
    """0002 adds submissions.language to a class's existing work: each old submission was
    graded in English and says so; going back to 0001 keeps the submissions."""
    from sqlalchemy import text

    with first_schema(database_url) as (db, config):
        with db.engine.begin() as conn:
            add_submission(conn, "old-1", b"print(1)")
        db.migrate()
        with db.session() as s:
            from server.models import Submission

            assert s.get(Submission, "old-1").language == "en"
        _, _, diff = _state(db)
        assert diff == [], diff
        command.downgrade(config, "0001")
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id FROM submissions")).scalars().all() == ["old-1"]
            columns = {c["name"] for c in inspect(conn).get_columns("submissions")}
            assert "language" not in columns

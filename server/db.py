"""The database: one SQLAlchemy engine per process, sessions, and Alembic to head."""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"timeout": 30, "check_same_thread": False},
            json_serializer=_json,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(connection, _record):
            # pysqlite's own BEGIN handling off: the BEGIN IMMEDIATE below is the only one.
            connection.isolation_level = None
            # WAL: readers never wait for the writer; workers in other processes share the file.
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _immediate(connection):
            # Take the write lock at BEGIN: two writers never deadlock upgrading a read lock.
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(
        url, pool_pre_ping=True, pool_size=10, max_overflow=20, json_serializer=_json
    )


def _json(value) -> str:
    # As sent: "é" stays one character, not the six of "\u00e9", so saved work of 5 MB is
    # about 5 MB in the table too.
    return json.dumps(value, ensure_ascii=False)


class Database:
    """The engine and a session factory; `with db.session() as s:` commits or rolls back."""

    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self):
        with self.sessions() as session, session.begin():
            yield session

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (a no-op when it is there).

        Quietly: Alembic's INFO lines (its plugins, "Context impl SQLiteImpl") went to
        stderr on every admin command, burying the one line an error prints there."""
        quiet = logging.getLogger("alembic")
        level = quiet.level
        quiet.setLevel(max(logging.WARNING, level))
        try:
            from alembic import command  # its plugins log as they load

            command.upgrade(alembic_config(self.url), "head")
        finally:
            quiet.setLevel(level)

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(url: str):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


__all__ = ["Database", "Session", "alembic_config"]

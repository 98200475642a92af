"""The server in process for the API tests: an app on a fresh database, and browsers.

A `Browser` is a TestClient with its own cookies that fetches its CSRF token from
/api/session and sends it with every POST and PUT, as the course's pages do.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from starlette.testclient import TestClient

from server import people
from server.app import create_app
from server.config import Settings
from server.db import Database
from server.models import Membership, User
from server.security import SESSION_COOKIE, hash_password, start_session

BASE = "http://127.0.0.1:8000"
SECRET = "k" * 40
PASSWORD = "correct horse battery"
# One hash for every account made here: argon2 takes a while, and tests make many.
PASSWORD_HASH = hash_password(PASSWORD)
EXERCISE = "day05_add_mul.py"
CODE = "def add(a, b):\n    return a + b\n"


@dataclass
class Server:
    settings: Settings
    db: Database
    app: object

    def browser(self, **kwargs) -> Browser:
        return Browser(self, **kwargs)

    def new_class(self, name="Class A") -> tuple[int, str]:
        with self.db.session() as s:
            course = people.create_class(s, name)
            return course.id, course.invite_code

    def new_user(self, login, class_id=None, role="learner", password=True) -> int:
        with self.db.session() as s:
            user = User(login=login, name=login.title(), password_hash=None)
            if password:
                user.password_hash = PASSWORD_HASH
            s.add(user)
            s.flush()
            if class_id is not None:
                s.add(Membership(user_id=user.id, class_id=class_id, role=role))
            return user.id

    def session_token(self, user_id) -> str:
        """A signed-in session for the user, made directly (no password hashing)."""
        with self.db.session() as s:
            return start_session(s, s.get(User, user_id))

    def signed_in(self, login, class_id=None, role="learner", **kwargs) -> Browser:
        user_id = self.new_user(login, class_id, role)
        b = self.browser(**kwargs)
        b.client.cookies.set(SESSION_COOKIE, self.session_token(user_id), domain="127.0.0.1")
        b.user_id = user_id
        return b


class Browser:
    def __init__(self, server: Server, base_url=BASE, raise_server_exceptions=True):
        self.server = server
        self.client = TestClient(
            server.app, base_url=base_url, raise_server_exceptions=raise_server_exceptions
        )
        self.user_id = None

    def csrf(self) -> str:
        r = self.client.get("/api/session")
        assert r.status_code == 200
        return r.json()["csrf"]

    def get(self, url, **kw):
        return self.client.get(url, **kw)

    def post(self, url, json=None, token=None, **kw):
        headers = {"X-CSRF-Token": token if token is not None else self.csrf()}
        headers.update(kw.pop("headers", {}))
        return self.client.post(url, json=json, headers=headers, **kw)

    def put(self, url, json=None, token=None, **kw):
        headers = {"X-CSRF-Token": token if token is not None else self.csrf()}
        headers.update(kw.pop("headers", {}))
        return self.client.put(url, json=json, headers=headers, **kw)

    def submit(self, code=CODE, exercise=EXERCISE, headers=None, **extra):
        body = {"exercise": exercise, "code": code, **extra}
        return self.post("/api/submissions", body, headers=headers or {})


def make_server(tmp_path, database_url, **env) -> Server:
    settings = Settings.from_env(
        {
            "COURSE_DATA_DIR": str(tmp_path),
            "DATABASE_URL": database_url,
            "SECRET_KEY": SECRET,
            **env,
        }
    )
    if database_url.startswith("sqlite:///") and not Path(database_url[10:]).exists():
        # Migrating a SQLite file commits each table on its own (slow where fsync is):
        # start from a copy of one migrated once (test_migrations migrates empty ones).
        shutil.copyfile(_migrated_sqlite(), database_url.removeprefix("sqlite:///"))
    db = Database(settings.database_url)
    db.migrate()
    return Server(settings, db, create_app(settings, db))


@functools.cache
def _migrated_sqlite() -> str:
    path = Path(tempfile.mkdtemp(prefix="course-template-")) / "course.db"
    db = Database(f"sqlite:///{path}")
    db.migrate()
    db.dispose()  # the last connection closed: SQLite folds the WAL into the file
    assert not Path(f"{path}-wal").exists()
    return str(path)

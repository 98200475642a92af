"""Every setting of the server, read from the environment (documented in docs/instructors/server.md)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DATA_DIR = Path("server-data")
PUBLIC_URL_FILE = "public_url"  # written by `serve` when PUBLIC_URL is unset  # the embedded default: everything in one folder


class ConfigError(Exception):
    """A setting that cannot work; the message says which and what to set."""


def _secret_key(data_dir: Path) -> str:
    """SECRET_KEY, or one made once and kept in the data folder (mode 600)."""
    path = data_dir / "secret_key"
    if path.is_file():
        return path.read_text().strip()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


def _course_url(url: str | None, cors: str | None) -> str | None:
    """COURSE_URL: the course's own address when another host serves it (a sign-in there
    comes back to it); it must be on CORS_ORIGIN, the one other origin trusted."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"COURSE_URL={url!r} is not an address: e.g. https://you.github.io/course/"
        )
    if not cors or origin_of(url) != origin_of(cors):
        raise ConfigError(
            f"COURSE_URL={url!r} is on another origin than CORS_ORIGIN={cors!r}: set CORS_ORIGIN "
            "to the course site's origin (scheme://host[:port])"
        )
    return url if url.endswith("/") else url + "/"


def origin_of(url: str) -> str:
    """The origin as a browser writes it in its Origin header: scheme and host in lower
    case, no default port (https://Course.Example.org:443/ is https://course.example.org)."""
    parts = urlsplit(url)
    scheme, host, port = parts.scheme.lower(), parts.hostname or "", parts.port
    if ":" in host:
        host = f"[{host}]"
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


@dataclass(frozen=True)
class Settings:
    database_url: str
    broker_url: str  # "database" (workers poll the database) or redis://...
    secret_key: str
    public_url: str  # where learners reach the server, e.g. https://course.example.org/
    data_dir: Path
    site_dir: Path | None = None  # the built course, served at /
    cors_origin: str | None = None  # a static site on another origin that submits here
    course_url: str | None = None  # where the course is read (default: this server's address)
    lease_seconds: float = 30.0  # a grading job not renewed for this long is taken again
    max_attempts: int = 3  # a submission whose grading killed this many workers is an error
    max_code_bytes: int = 256 * 1024
    max_body_bytes: int = 1024 * 1024
    signin_per_minute: int = 10  # per login
    # Per address: a class behind one school address signs in at once at a lesson's start.
    signin_per_address_per_minute: int = 60
    submit_per_minute: int = 20
    grade_seed: int | None = None  # tests only: the hidden cases' seed

    @property
    def secure_cookies(self) -> bool:
        """Secure cookies on https; plain http is allowed on this machine's loopback only."""
        return urlsplit(self.public_url).scheme == "https"

    @property
    def home(self) -> str:
        """Where a learner goes after signing in: the course, wherever it is served."""
        return self.course_url or self.public_url

    @property
    def origin(self) -> str:
        return origin_of(self.public_url)

    @classmethod
    def from_env(cls, env=None, **override) -> Settings:
        env = os.environ if env is None else env
        data_dir = Path(env.get("COURSE_DATA_DIR", DATA_DIR)).resolve()
        # Unset: the address `serve` last ran at (so the admin commands' links point at the
        # port it serves), else http://127.0.0.1:8000/.
        served = data_dir / PUBLIC_URL_FILE
        public = env.get("PUBLIC_URL") or (
            served.read_text().strip() if served.is_file() else "http://127.0.0.1:8000/"
        )
        if urlsplit(public).scheme not in ("http", "https") or not urlsplit(public).netloc:
            raise ConfigError(
                f"PUBLIC_URL={public!r} is not an address: e.g. https://course.example.org/"
            )
        parts = urlsplit(public)
        if parts.scheme == "http" and parts.hostname not in LOOPBACK:
            raise ConfigError(
                f"PUBLIC_URL={public!r} is plain http on a network: serve it behind a reverse proxy "
                "with TLS and set PUBLIC_URL=https://... (see docs/instructors/server.md)"
            )
        if not public.endswith("/"):
            public += "/"
        database = env.get("DATABASE_URL") or f"sqlite:///{data_dir / 'course.db'}"
        if database.startswith("postgresql://"):
            database = "postgresql+psycopg://" + database[len("postgresql://") :]
        broker = env.get("BROKER_URL", "database")
        if broker != "database" and not broker.startswith(("redis://", "rediss://")):
            raise ConfigError(
                f"BROKER_URL={broker!r}: use 'database' (the default) or redis://HOST:6379/0"
            )
        cors = env.get("CORS_ORIGIN") or None
        if cors and (cors == "*" or urlsplit(cors).scheme not in ("http", "https")):
            raise ConfigError(
                f"CORS_ORIGIN={cors!r}: give the one origin of the course site, e.g. https://you.github.io"
            )
        if cors and urlsplit(cors).scheme == "http" and urlsplit(cors).hostname not in LOOPBACK:
            # A plain-http page anyone on the network can rewrite would get the learners'
            # cookies (SameSite=None), credentialed CORS and a pass on the origin check.
            raise ConfigError(
                f"CORS_ORIGIN={cors!r} is plain http on a network: serve the course site over "
                "https and give its https origin"
            )
        values = dict(
            database_url=database,
            broker_url=broker,
            secret_key=env.get("SECRET_KEY") or _secret_key(data_dir),
            public_url=public,
            data_dir=data_dir,
            site_dir=Path(env["COURSE_SITE_DIR"]).resolve() if env.get("COURSE_SITE_DIR") else None,
            cors_origin=origin_of(cors) if cors else None,
            course_url=_course_url(env.get("COURSE_URL"), cors),
            lease_seconds=float(env.get("COURSE_LEASE_SECONDS", 30)),
        )
        if env.get("COURSE_GRADE_SEED"):
            values["grade_seed"] = int(env["COURSE_GRADE_SEED"])
        values.update(override)
        return cls(**values)

"""PostgreSQL and Redis for the server tests: Debian's own binaries, started in a
temporary folder on a free port on 127.0.0.1 and stopped after. Where a binary is
missing the tests that need it are skipped, saying how to get it."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

INSTALL = "apt-get install postgresql redis-server (.ci/run does it)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    return Path(found[-1]).parent if found else None


def _wait_port(port, seconds, proc=None, what="server"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {seconds} s")


class Postgres:
    """A throwaway PostgreSQL cluster. PostgreSQL refuses to run as root, so as root it
    runs as Debian's `postgres` user (or `nobody`) from a folder that user owns."""

    def __init__(self, folder: Path):
        self.bin = postgres_bin()
        # pytest's folders are root's alone (mode 700): the postgres user could not enter.
        self.folder = Path(tempfile.mkdtemp(prefix="course-pg-")) if os.getuid() == 0 else folder
        self.data = self.folder / "data"
        self.port = free_port()
        self.proc = None

    def _as_owner(self):
        if os.getuid() != 0:
            return None
        for name in ("postgres", "nobody"):
            try:
                return pwd.getpwnam(name)
            except KeyError:
                continue
        raise RuntimeError("running as root with neither a postgres nor a nobody user")

    def start(self) -> str:
        owner = self._as_owner()
        self.folder.mkdir(parents=True, exist_ok=True)
        if owner:
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)

        def demote():
            if owner:
                os.setgid(owner.pw_gid)
                os.setuid(owner.pw_uid)

        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": str(self.folder)}
        subprocess.run(
            [self.bin / "initdb", "-D", self.data, "-U", "course", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            preexec_fn=demote,
            env=env,
        )
        self.proc = subprocess.Popen(
            [
                self.bin / "postgres",
                "-D",
                self.data,
                "-p",
                str(self.port),
                "-h",
                "127.0.0.1",
                "-k",
                self.folder,
                "-c",
                "fsync=off",
                "-c",
                "max_connections=200",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "postgres.log", "wb"),
            preexec_fn=demote,
            env=env,
        )
        _wait_port(self.port, 30, self.proc, "postgres")
        # The socket answers a moment before the cluster accepts queries.
        for _ in range(100):
            ready = subprocess.run(
                [self.bin / "pg_isready", "-h", "127.0.0.1", "-p", str(self.port)],
                capture_output=True,
            )
            if ready.returncode == 0:
                break
            time.sleep(0.1)
        return f"postgresql+psycopg://course@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str) -> str:
        """A fresh, empty database in the cluster; its URL."""
        import psycopg

        with psycopg.connect(
            f"postgresql://course@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://course@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if os.getuid() == 0:
            shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.proc = None

    def start(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server"),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, 20, self.proc, "redis-server")
        return f"redis://127.0.0.1:{self.port}/0"

    def flush(self):
        import redis

        redis.Redis(host="127.0.0.1", port=self.port).flushall()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

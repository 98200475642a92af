"""python -m server: run the course server, its workers, and the admin commands.

    python -m server serve [--host 127.0.0.1] [--port 8000] [--site DIR] [--workers 2]
    python -m server worker [--isolation auto]
    python -m server migrate
    python -m server admin create-class NAME
    python -m server admin add-learner INVITE_CODE NAME
    python -m server admin add-instructor INVITE_CODE NAME
    python -m server admin signin-link LOGIN
    python -m server admin set-deadline INVITE_CODE EXERCISE 2026-12-01T23:59Z [--late accept|penalty|refuse] [--penalty 20]

Settings come from the environment (DATABASE_URL, BROKER_URL, SECRET_KEY, PUBLIC_URL,
CORS_ORIGIN, COURSE_DATA_DIR): docs/instructors/server.md. The admin commands print
what a person needs last: the invite code, or the sign-in link.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from .config import PUBLIC_URL_FILE, ConfigError, Settings


def _parser():
    p = argparse.ArgumentParser(prog="python -m server", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the course and the API, with local workers")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--site", help="the built course to serve at / (default: none)")
    serve.add_argument(
        "--workers",
        type=int,
        default=2,
        help="local worker processes to start (0: workers run elsewhere)",
    )
    serve.add_argument("--isolation", default="auto", choices=["auto", "bwrap", "uid"])
    worker = sub.add_parser("worker", help="grade submissions until stopped")
    worker.add_argument("--isolation", default="auto", choices=["auto", "bwrap", "uid"])
    sub.add_parser("migrate", help="bring the database's tables to the newest revision")
    admin = sub.add_parser("admin", help="classes and people")
    acts = admin.add_subparsers(dest="action", required=True)
    acts.add_parser("create-class").add_argument("name")
    for role in ("learner", "instructor"):
        a = acts.add_parser(f"add-{role}")
        a.add_argument("code", help="the class's invite code")
        a.add_argument("name", help="the person's name, as the gradebook shows it")
        a.add_argument(
            "--login",
            help="the login (default: made from the name); an existing login puts that "
            "person into this class too, with the same account",
        )
    acts.add_parser("signin-link", help="a new one-time sign-in link").add_argument("login")
    d = acts.add_parser("set-deadline")
    d.add_argument("code")
    d.add_argument("exercise", help="e.g. day05_add_mul.py")
    d.add_argument("due", help="ISO 8601 with a zone, e.g. 2026-12-01T23:59Z")
    d.add_argument("--late", default="accept", choices=["accept", "penalty", "refuse"])
    d.add_argument(
        "--penalty", type=int, default=0, help="percent off a late score (--late penalty)"
    )
    return p


def _admin(settings, args) -> int:
    from grader.checks import EXERCISES

    from . import people
    from .db import Database
    from .models import Deadline, User

    db = Database(settings.database_url)
    db.migrate()
    try:
        with db.session() as s:
            if args.action == "create-class":
                course = people.create_class(s, args.name)
                print(f"Class {course.name!r} created. Its invite code:")
                print(course.invite_code)
            elif args.action in ("add-learner", "add-instructor"):
                course = people.class_by_code(s, args.code)
                role = args.action.removeprefix("add-")
                known = args.login and people.login_exists(s, args.login)
                if known:  # someone with a login already: into this class too, same account
                    user = people.add_existing(s, course, args.login, role)
                else:
                    user = people.add_member(s, course, args.name, role, login=args.login)
                link = people.signin_link(s, user, settings.public_url)
                print(
                    f"{role.title()} {user.name!r} (login {user.login}) added to {course.name!r}."
                )
                print(f"Their one-time sign-in link (valid {people.LINK_DAYS} days):")
                print(link)
            elif args.action == "signin-link":
                from sqlalchemy import select

                user = s.scalar(select(User).where(User.login == args.login.strip().lower()))
                if user is None:
                    raise people.PeopleError(f"No one has the login {args.login!r}.")
                print(f"A one-time sign-in link for {user.name!r}:")
                print(people.signin_link(s, user, settings.public_url))
            elif args.action == "set-deadline":
                course = people.class_by_code(s, args.code)
                if args.exercise not in EXERCISES:
                    raise people.PeopleError(
                        f"No exercise {args.exercise!r}; e.g. {next(iter(EXERCISES))}"
                    )
                try:
                    due = datetime.fromisoformat(args.due.replace("Z", "+00:00"))
                except ValueError:
                    raise people.PeopleError(
                        f"{args.due!r} is not a date: write e.g. 2026-12-01T23:59Z"
                    ) from None
                if due.tzinfo is None:
                    raise people.PeopleError("Give the deadline's zone, e.g. 2026-12-01T23:59Z")
                if not 0 <= args.penalty <= 100:
                    raise people.PeopleError("--penalty is a percent from 0 to 100.")
                row = s.get(Deadline, (course.id, args.exercise)) or Deadline(
                    class_id=course.id, exercise=args.exercise
                )
                row.due_at, row.late_policy = due.astimezone(UTC), args.late
                row.penalty_percent = args.penalty
                s.add(row)
                print(
                    f"{args.exercise} in {course.name!r} is due {row.due_at:%Y-%m-%d %H:%M} UTC ({args.late})."
                )
    except people.PeopleError as exc:
        print(f"server: {exc}", file=sys.stderr)
        return 2
    finally:
        db.dispose()
    return 0


def _can_grade(isolation: str) -> bool:
    """Whether local workers could grade here; if not, say so once (not once a second)."""
    from grader.sandbox import SandboxError, detect

    try:
        detect(isolation)
    except SandboxError as exc:
        print(
            f"server: no sandbox to grade in, so no local worker starts ({exc}); submissions "
            "are stored and wait for a worker on a machine that can grade them.",
            file=sys.stderr,
        )
        return False
    return True


def _serve(settings, args) -> int:
    import uvicorn

    from .app import create_app
    from .db import Database
    from .worker import supervise

    if args.site and not (Path(args.site) / "index.html").is_file():
        print(
            f"server: {args.site} holds no built course (index.html): run `nox -s server`.",
            file=sys.stderr,
        )
        return 2
    override = {"site_dir": Path(args.site).resolve()} if args.site else {}
    if not os.environ.get("PUBLIC_URL"):
        # On this machine: the address is where it serves.
        override["public_url"] = f"http://127.0.0.1:{args.port}/"
    settings = Settings.from_env(**override)
    # The admin commands, run without PUBLIC_URL, make their links for this address.
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / PUBLIC_URL_FILE).write_text(settings.public_url)
    db = Database(settings.database_url)
    db.migrate()  # once, here, before any worker or web request touches the tables
    stop = threading.Event()
    supervisor = None
    if args.workers and not _can_grade(args.isolation):
        args.workers = 0  # the server still takes submissions; they wait for a worker
    if args.workers:
        env = {
            **os.environ,
            "COURSE_DATA_DIR": str(settings.data_dir),
            "DATABASE_URL": settings.database_url,
            "SECRET_KEY": settings.secret_key,
        }
        supervisor = threading.Thread(
            target=supervise, args=(settings, args.workers, args.isolation, stop, env), daemon=True
        )
        supervisor.start()
    print(
        f"The course server: {settings.public_url}  (database {db.dialect}, "
        f"queue {settings.broker_url.split('://')[0]}, {args.workers} local workers)",
        flush=True,
    )
    # uvicorn shuts down gracefully on SIGTERM or Ctrl-C, then raises the signal again with
    # the handlers it found: these note it, so that the local workers are stopped below (each
    # finishes the job in hand) instead of the process dying with them left running.
    signals = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda signum, _frame: signals.append(signum))
    try:
        uvicorn.run(
            create_app(settings, db),
            host=args.host,
            port=args.port,
            log_level="warning",
            # Behind a reverse proxy only: X-Forwarded-For from anyone else would let a
            # client pick a new address per request and slip past the sign-in limits.
            proxy_headers=bool(os.environ.get("FORWARDED_ALLOW_IPS")),
            forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS") or None,
        )
    finally:
        stop.set()
        if supervisor is not None:
            supervisor.join()  # it waits for the workers (a minute at most), then kills them
        db.dispose()
    return 0


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    args = _parser().parse_args(argv)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"server: {exc}", file=sys.stderr)
        return 2
    if args.command == "serve":
        return _serve(settings, args)
    if args.command == "worker":
        from grader.sandbox import SandboxError

        from .worker import run_worker

        try:
            return run_worker(settings, args.isolation)
        except SandboxError as exc:
            print(
                f"server: no sandbox to grade in, so this worker will not start: {exc}",
                file=sys.stderr,
            )
            return 1
    if args.command == "migrate":
        from .db import Database

        Database(settings.database_url).migrate()
        print("The database is at the newest revision.")
        return 0
    return _admin(settings, args)


if __name__ == "__main__":
    sys.exit(main())

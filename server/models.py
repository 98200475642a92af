"""The server's tables. Every change to them is an Alembic revision in migrations/versions/."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from grader.messages import DEFAULT, LANGUAGES


def now() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """A moment in UTC, stored without a zone (SQLite keeps none) and read back aware."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None:
            if value.tzinfo is None:
                raise ValueError("a naive datetime: use models.now() or an aware datetime")
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map = {datetime: UTCDateTime()}


class Course(Base):
    """A class: learners and instructors, an invite code, deadlines."""

    __tablename__ = "classes"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    invite_code: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(80), unique=True)  # what they sign in with
    name: Mapped[str] = mapped_column(String(200))  # what the gradebook shows
    password_hash: Mapped[str | None] = mapped_column(String(200))  # None: link sign-in only
    created_at: Mapped[datetime] = mapped_column(default=now)


class Membership(Base):
    __tablename__ = "memberships"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(20))  # "learner" | "instructor"


class SignInLink(Base):
    """A one-time sign-in link; only its token's SHA-256 is kept."""

    __tablename__ = "signin_links"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class SignInSession(Base):
    """A signed-in browser; the cookie holds the token, the table its SHA-256."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    expires_at: Mapped[datetime]


class Deadline(Base):
    """An exercise's deadline in a class, and what happens after it."""

    __tablename__ = "deadlines"
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id"), primary_key=True)
    exercise: Mapped[str] = mapped_column(String(80), primary_key=True)
    due_at: Mapped[datetime]
    # "accept": late work is graded and marked late; "penalty": marked late and its score
    # multiplied by (100 - penalty_percent) / 100; "refuse": not accepted after the deadline.
    late_policy: Mapped[str] = mapped_column(String(20), default="accept")
    penalty_percent: Mapped[int] = mapped_column(Integer, default=0)


class Regrade(Base):
    """Every submission of one exercise in one class, graded again."""

    __tablename__ = "regrades"
    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id"))
    exercise: Mapped[str] = mapped_column(String(80))
    total: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=now)


class Submission(Base):
    """One file a learner submitted, and (once graded) its one result.

    state: queued -> grading -> graded | error. A worker claims a job by writing its own
    `claim` and a `lease_until`, which it renews while grading; a job whose lease ran out
    (its worker died) is claimed again, and only the holder of the current claim may
    write the result, so a submission never gets two.
    """

    __tablename__ = "submissions"
    id: Mapped[str] = mapped_column(String(36), primary_key=True)  # random: never guessable
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id"), index=True)
    exercise: Mapped[str] = mapped_column(String(80))
    code: Mapped[bytes] = mapped_column(LargeBinary)
    sha256: Mapped[str] = mapped_column(String(64))
    # The language of the page it was submitted from: the grader's report speaks it, re-grades too.
    language: Mapped[str] = mapped_column(String(5), default="en", server_default="en")
    created_at: Mapped[datetime] = mapped_column(default=now, index=True)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(10), default="queued", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claim: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[datetime | None]
    enqueued_at: Mapped[datetime | None]  # when the broker last got it (Redis only)
    regrade_id: Mapped[int | None] = mapped_column(ForeignKey("regrades.id"))
    score: Mapped[float | None] = mapped_column(Float)  # after the late penalty
    raw_score: Mapped[float | None] = mapped_column(Float)
    max_score: Mapped[float | None] = mapped_column(Float)
    feedback: Mapped[str | None] = mapped_column(Text)  # the grader's text report
    results: Mapped[dict | None] = mapped_column(
        JSON
    )  # the grader's results (hidden cases' seed included)
    graded_at: Mapped[datetime | None]

    @property
    def report_language(self) -> str:
        """The language its report speaks: `language`, or English where a row written by hand
        or by an older server holds one the course does not speak."""
        return self.language if self.language in LANGUAGES else DEFAULT


class Progress(Base):
    """A learner's saved work (web/transfer.js's format), one per learner, with a revision."""

    __tablename__ = "progress"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    work: Mapped[dict | None] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(default=now)


__all__ = [
    "Base",
    "Course",
    "Deadline",
    "Membership",
    "Progress",
    "Regrade",
    "SignInLink",
    "SignInSession",
    "Submission",
    "User",
    "now",
]

"""One submission's grading, the same on every queue: claim, grade in the sandbox, store.

A worker claims a job by writing a claim token and a lease into the submission's row in
one UPDATE that only a queued job (or one whose lease ran out: its worker died) matches;
it renews the lease while the grader runs, and writes the result with an UPDATE that
matches only its own claim. So a dead worker's job is graded again by another, and a
submission never gets two results. Learner code runs only in the grader's sandbox, in
children of the worker, never in the web process.
"""

from __future__ import annotations

import logging
import secrets
import tempfile
import threading
from datetime import timedelta
from pathlib import Path

from sqlalchemy import or_, select, update

from grader import report
from grader.grade import grade_one
from grader.messages import DEFAULT, msg, render

from .models import Deadline, Submission, now

log = logging.getLogger("server.jobs")


def claimable(lease_expired_before=None):
    """The condition a job must meet to be claimed now."""
    moment = lease_expired_before or now()
    return or_(
        Submission.state == "queued",
        (Submission.state == "grading") & (Submission.lease_until < moment),
    )


def claim(db, submission_id: str, lease_seconds: float) -> str | None:
    """Take the job; its claim token, or None if it is not queued (or another holds it)."""
    token = secrets.token_hex(16)
    with db.session() as s:
        taken = s.execute(
            update(Submission)
            .where(Submission.id == submission_id, claimable())
            .values(
                state="grading",
                claim=token,
                lease_until=now() + timedelta(seconds=lease_seconds),
                attempts=Submission.attempts + 1,
            )
            .returning(Submission.attempts)
        ).first()
    return token if taken else None


def next_claimable(db) -> list[str]:
    """Ids of jobs that may be claimed, oldest first (a few: others may take them first)."""
    with db.session() as s:
        return list(
            s.scalars(
                select(Submission.id).where(claimable()).order_by(Submission.created_at).limit(8)
            )
        )


def renew(db, submission_id: str, token: str, lease_seconds: float) -> bool:
    with db.session() as s:
        result = s.execute(
            update(Submission)
            .where(Submission.id == submission_id, Submission.claim == token)
            .values(lease_until=now() + timedelta(seconds=lease_seconds))
        )
    return result.rowcount == 1


def finish(db, submission_id: str, token: str, values: dict) -> bool:
    """Store the result if this worker still holds the claim; False when it does not."""
    with db.session() as s:
        result = s.execute(
            update(Submission)
            .where(
                Submission.id == submission_id,
                Submission.claim == token,
                Submission.state == "grading",
            )
            .values(**values, claim=None, lease_until=None, graded_at=now())
        )
    return result.rowcount == 1


class Lease:
    """Renews a claim every third of the lease while the grader runs."""

    def __init__(self, db, submission_id, token, lease_seconds):
        self.args = (db, submission_id, token, lease_seconds)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(self.args[3] / 3):
            try:
                if not renew(*self.args):
                    return  # another worker took it over (we were too slow): let it
            except Exception:  # a database hiccup: try again at the next beat
                log.exception("renewing the lease of %s", self.args[1])

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def late_factor(deadline: Deadline | None, late: bool) -> float:
    if not late or deadline is None or deadline.late_policy != "penalty":
        return 1.0
    return max(0, 100 - deadline.penalty_percent) / 100


def grade_files(exercise: str, code: bytes, sandbox, seed=None, lang=DEFAULT):
    """(score, max_score, feedback text, results) of one exercise file, graded in the sandbox;
    the text and the results' messages in `lang`."""
    with tempfile.TemporaryDirectory(prefix="course-submission-") as folder:
        (Path(folder) / exercise).write_bytes(code)
        gradescope, text, results = grade_one(Path(folder), sandbox, [exercise], seed, lang)
    # The text names the temporary folder: the learner knows the file by its exercise name.
    text = text.replace(folder, f"exercises/{exercise}")
    if results is None:  # refused before running (not UTF-8, not Python...): 0, with the reason
        return 0.0, float(gradescope.get("max_score") or 0), text, gradescope.get("extra_data")
    return float(gradescope["score"]), float(gradescope["max_score"]), text, results


def grade_submission(db, settings, sandbox, submission_id: str) -> str:
    """Claim, grade and store one submission; what happened ("graded", "error", "busy")."""
    with db.session() as s:
        sub = s.get(Submission, submission_id)
        if sub is None:
            return "missing"
        attempts, lang = sub.attempts, sub.report_language
    if attempts >= settings.max_attempts:
        # Its grading has ended a worker each time: record an error instead of a fourth try.
        token = claim(db, submission_id, settings.lease_seconds)
        if token is None:
            return "busy"
        finish(
            db,
            submission_id,
            token,
            {
                "state": "error",
                "feedback": render(
                    msg(
                        "Grading stopped without a result on every try (tries: {count}). "
                        "Tell your instructor; submitting again is safe.",
                        count=attempts,
                    ),
                    lang,
                ),
            },
        )
        return "error"
    token = claim(db, submission_id, settings.lease_seconds)
    if token is None:
        return "busy"
    with db.session() as s:
        sub = s.get(Submission, submission_id)
        exercise, code, late = sub.exercise, sub.code, sub.late
        deadline = s.get(Deadline, (sub.class_id, sub.exercise))
        factor = late_factor(deadline, late)
    with Lease(db, submission_id, token, settings.lease_seconds):
        try:
            raw, max_score, text, results = grade_files(
                exercise, code, sandbox, settings.grade_seed, lang
            )
        except Exception as exc:  # the grader's own failure: an error result, never a 0
            log.exception("grading %s", submission_id)
            values = {
                "state": "error",
                "feedback": render(
                    msg(
                        "The grader failed ({error}); this is not a fault of your code. "
                        "Submit again later or tell your instructor.",
                        error=type(exc).__name__,
                    ),
                    lang,
                ),
            }
        else:
            broken = report.errors(results) if results and "tests" in results else []
            if broken:
                values = {
                    "state": "error",
                    "feedback": text,
                    "results": results,
                    "max_score": max_score,
                }
            else:
                values = {
                    "state": "graded",
                    "raw_score": raw,
                    "score": round(raw * factor, 4),
                    "max_score": max_score,
                    "feedback": text,
                    "results": results,
                }
    if not finish(db, submission_id, token, values):
        log.warning("%s: another worker holds the job now; this result is dropped", submission_id)
        return "busy"
    return values["state"]

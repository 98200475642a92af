"""A submission's grading job in process, on SQLite and PostgreSQL: the claim is exclusive,
a lease that ran out is taken over and its old holder stores nothing, a renewed lease
holds, a job that ended three workers is an error, and the late penalty is applied."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from server import jobs, people
from server.models import Deadline, Submission, now

ROOT = Path(__file__).resolve().parents[2]


def learner(db):
    """A class and a learner in it: (class id, user id)."""
    with db.session() as s:
        course = people.create_class(s, "Jobs")
        user = people.add_member(s, course, "Ada Lovelace")
        return course.id, user.id


def stored(db, exercise="day05_add_mul.py", code=None, late=False, language="en") -> str:
    """A submission stored as submissions.submit stores it (queued); its id."""
    class_id, user_id = learner(db)
    if code is None:
        code = (ROOT / "solutions" / exercise).read_bytes()
    sub_id = str(uuid.uuid4())
    with db.session() as s:
        s.add(
            Submission(
                id=sub_id,
                user_id=user_id,
                class_id=class_id,
                exercise=exercise,
                code=code,
                sha256="0" * 64,
                late=late,
                language=language,
                state="queued",
                attempts=0,
            )
        )
    return sub_id


def row(db, sub_id) -> Submission:
    with db.session() as s:
        return s.get(Submission, sub_id)


def test_two_claims_of_one_job_one_wins(db):
    sub_id = stored(db)
    first = jobs.claim(db, sub_id, 30)
    assert first is not None
    assert jobs.claim(db, sub_id, 30) is None
    sub = row(db, sub_id)
    assert (sub.state, sub.claim, sub.attempts) == ("grading", first, 1)


def test_claims_racing_in_threads_one_wins(db):
    """Eight threads claim each of ten jobs at once: every job has exactly one holder."""
    ids = [stored(db) for _ in range(10)]
    for sub_id in ids:
        barrier = threading.Barrier(8)
        won = []

        def race(sub_id=sub_id, barrier=barrier, won=won):
            barrier.wait()
            token = jobs.claim(db, sub_id, 30)
            if token:
                won.append(token)

        threads = [threading.Thread(target=race) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(won) == 1, f"{sub_id}: {len(won)} claims won"
        sub = row(db, sub_id)
        assert (sub.claim, sub.attempts) == (won[0], 1)


def test_an_expired_lease_is_claimed_again_and_its_old_holder_stores_nothing(db):
    sub_id = stored(db)
    old = jobs.claim(db, sub_id, 30)
    assert jobs.claim(db, sub_id, 30) is None  # the lease holds
    with db.session() as s:  # the holder died: its lease runs out
        s.execute(
            update(Submission)
            .where(Submission.id == sub_id)
            .values(lease_until=now() - timedelta(seconds=1))
        )
    assert sub_id in jobs.next_claimable(db)
    new = jobs.claim(db, sub_id, 30)
    assert new is not None and new != old
    assert row(db, sub_id).attempts == 2
    # The old holder wakes up: it can neither renew nor store its result.
    assert not jobs.renew(db, sub_id, old, 30)
    assert not jobs.finish(db, sub_id, old, {"state": "graded", "score": 99.0})
    sub = row(db, sub_id)
    assert (sub.state, sub.score, sub.claim, sub.graded_at) == ("grading", None, new, None)
    assert jobs.finish(db, sub_id, new, {"state": "graded", "score": 1.0})
    sub = row(db, sub_id)
    assert (sub.state, sub.score, sub.claim, sub.lease_until) == ("graded", 1.0, None, None)
    # Finished: no one holds it, so no one may write again, the new holder included.
    assert not jobs.finish(db, sub_id, new, {"state": "graded", "score": 2.0})
    assert jobs.claim(db, sub_id, 30) is None
    assert row(db, sub_id).score == 1.0


def test_renew_keeps_a_lease_alive(db):
    sub_id = stored(db)
    token = jobs.claim(db, sub_id, 0.5)
    with jobs.Lease(db, sub_id, token, 0.5):
        threading.Event().wait(2.0)  # four leases long: renewed every third of one
        assert jobs.claim(db, sub_id, 30) is None
        assert sub_id not in jobs.next_claimable(db)
    assert jobs.renew(db, sub_id, token, 30)
    assert row(db, sub_id).lease_until > now() + timedelta(seconds=20)


def test_a_job_that_ended_three_workers_is_an_error(db, settings):
    sub_id = stored(db)
    for _ in range(settings.max_attempts):  # each worker claims it and dies mid-grading
        assert jobs.claim(db, sub_id, -1) is not None  # a lease already over
    assert row(db, sub_id).attempts == 3
    # No sandbox is needed: the job is not graded a fourth time.
    assert jobs.grade_submission(db, settings, None, sub_id) == "error"
    sub = row(db, sub_id)
    assert sub.state == "error" and sub.score is None and sub.claim is None
    assert "without a result on every try (tries: 3)" in sub.feedback
    assert "submitting again is safe" in sub.feedback
    # The page says "Not graded: <the first line>": the feedback does not say it again.
    assert not sub.feedback.startswith("Not graded")
    assert sub_id not in jobs.next_claimable(db)


# The sentences of the server's own feedback, and one of every grader report.
STOPPED = (
    "Grading stopped without a result on every try (tries: {count}). "
    "Tell your instructor; submitting again is safe."
)
FAILED = (
    "The grader failed ({error}); this is not a fault of your code. "
    "Submit again later or tell your instructor."
)
GRADED_LINE = "Graded: the cases marked [hidden], with inputs drawn afresh on every run."


def said(english, lang, **values):
    """`english` as the course's catalog says it in `lang` (a translation that exists)."""
    from grader.messages import catalog

    translated = catalog(lang).gettext(english)
    assert lang == "en" or translated != english, f"no {lang} translation of {english!r}"
    return translated.format(**values)


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_servers_own_feedback_speaks_the_submissions_language(db, settings, lang, monkeypatch):
    stopped = stored(db, language=lang)
    for _ in range(settings.max_attempts):
        jobs.claim(db, stopped, -1)
    assert jobs.grade_submission(db, settings, None, stopped) == "error"
    assert row(db, stopped).feedback == said(STOPPED, lang, count=3)

    def broken(*args):
        raise RuntimeError("the grader's own bug")

    monkeypatch.setattr(jobs, "grade_files", broken)
    failed = stored(db, language=lang)
    assert jobs.grade_submission(db, settings, None, failed) == "error"
    assert row(db, failed).feedback == said(FAILED, lang, error="RuntimeError")


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_grader_reports_in_the_submissions_language(db, settings, sandbox, lang):
    from tests.i18n.test_grader_feedback_words import english_left

    stub = (ROOT / "exercises" / "day05_add_mul.py").read_bytes()
    english, translated = stored(db, code=stub), stored(db, code=stub, language=lang)
    for sub_id in (english, translated):
        assert jobs.grade_submission(db, settings, sandbox, sub_id) == "graded"
    english, translated = row(db, english), row(db, translated)
    # The same grade, told in another language.
    assert (translated.score, translated.max_score) == (english.score, english.max_score)
    assert said(GRADED_LINE, lang) in translated.feedback.splitlines()
    assert GRADED_LINE in english.feedback.splitlines()
    assert english_left(english.feedback, translated.feedback, "day05_add_mul.py", lang) == {}
    # The results the gradebook keeps are in it too (each case's message).
    messages = [t["message"] for t in translated.results["tests"] if t.get("message")]
    assert messages and all(m in translated.feedback for m in messages)


def test_a_language_the_course_does_not_speak_is_graded_in_english(db, settings):
    sub_id = stored(db, language="xx")
    for _ in range(settings.max_attempts):
        jobs.claim(db, sub_id, -1)
    jobs.grade_submission(db, settings, None, sub_id)
    assert row(db, sub_id).feedback == said(STOPPED, "en", count=3)


@pytest.mark.parametrize("late, factor", [(False, 1.0), (True, 0.8)])
def test_late_penalty_applied(db, settings, sandbox, late, factor):
    sub_id = stored(db, "day05_add_mul.py", late=late)
    with db.session() as s:
        sub = s.get(Submission, sub_id)
        s.add(
            Deadline(
                class_id=sub.class_id,
                exercise=sub.exercise,
                due_at=now() - timedelta(days=1),
                late_policy="penalty",
                penalty_percent=20,
            )
        )
    assert jobs.grade_submission(db, settings, sandbox, sub_id) == "graded"
    sub = row(db, sub_id)
    assert sub.raw_score == sub.max_score > 0
    assert sub.score == pytest.approx(factor * sub.raw_score)
    assert sub.attempts == 1 and sub.graded_at is not None and sub.claim is None


def test_late_factor_policies():
    due = now()
    assert jobs.late_factor(None, True) == 1.0
    assert jobs.late_factor(Deadline(due_at=due, late_policy="accept"), True) == 1.0
    penalty = Deadline(due_at=due, late_policy="penalty", penalty_percent=20)
    assert jobs.late_factor(penalty, False) == 1.0
    assert jobs.late_factor(penalty, True) == pytest.approx(0.8)
    full = Deadline(due_at=due, late_policy="penalty", penalty_percent=100)
    assert jobs.late_factor(full, True) == 0.0


def test_a_database_worker_outlives_a_database_error(db, settings, sandbox, monkeypatch):
    """The database fails once (a restart): the worker logs it, waits and grades on."""
    import signal

    from server import worker

    sub_id = stored(db, "day05_add_mul.py")
    real = worker.next_claimable
    failures = []

    def flaky(database):
        if not failures:
            failures.append(1)
            raise ConnectionError("the database restarted")
        return real(database)

    monkeypatch.setattr(worker, "next_claimable", flaky)
    monkeypatch.setattr(worker, "RETRY_SECONDS", 0.1)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        assert worker.run_worker(settings, "auto", once=True) == 0
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    assert failures and row(db, sub_id).state == "graded"

"""Where grading jobs wait: the database itself (the default), or Dramatiq on Redis.

Either way the submission's row is the truth: a job is "queued" in the database before
any broker hears of it, workers claim it there (jobs.claim), and `sweep` hands the broker
again every job that should be moving and is not (never sent: the web process died
between storing and sending; or its worker died mid-grading). A job sent twice is
claimed once.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy import or_, select, update

from .models import Submission, now

log = logging.getLogger("server.queue")
ACTOR = "grade_submission"
SEND_GRACE_SECONDS = 5.0  # a job stored this long ago and never sent is sent by a sweep


class DatabaseQueue:
    """Workers poll the submissions table; sending is storing."""

    name = "database"

    def __init__(self, settings):
        self.settings = settings

    def send(self, db, submission_ids) -> None:
        pass  # stored as queued is queued

    def sweep(self, db) -> int:
        return 0


class DramatiqQueue:
    """Dramatiq on Redis: workers on any machine that reaches Redis and the database."""

    name = "redis"

    def __init__(self, settings):
        import dramatiq
        from dramatiq.brokers.redis import RedisBroker

        self.settings = settings
        self.broker = RedisBroker(url=settings.broker_url)
        dramatiq.set_broker(self.broker)
        self.actor = None

    def declare(self, fn):
        """The grading actor (workers call this with the function that grades an id)."""
        import dramatiq

        # No retries of Dramatiq's own: a job that failed is in the database, and `sweep`
        # sends it again; a time limit above the grader's own budget (50 s) and the lease.
        self.actor = dramatiq.actor(
            fn, actor_name=ACTOR, broker=self.broker, max_retries=0, time_limit=10 * 60_000
        )
        return self.actor

    def _message(self, submission_id):
        import dramatiq

        return dramatiq.Message(
            queue_name="default", actor_name=ACTOR, args=(submission_id,), kwargs={}, options={}
        )

    def send(self, db, submission_ids) -> None:
        sent = []
        for submission_id in submission_ids:
            try:
                self.broker.enqueue(self._message(submission_id))
                sent.append(submission_id)
            except Exception:  # Redis away: the job stays queued in the database; sweep sends it
                log.exception("sending %s to Redis", submission_id)
        if sent:
            with db.session() as s:
                s.execute(
                    update(Submission).where(Submission.id.in_(sent)).values(enqueued_at=now())
                )

    def waiting(self) -> int:
        """How many messages wait in Redis for a worker (not those a worker holds)."""
        return self.broker.client.llen(f"{self.broker.namespace}:default")

    def sweep(self, db) -> int:
        """Send again the jobs the broker does not have: never sent (the web process died
        between storing and sending), sent but lost (Redis restarted without its data, or
        a worker died holding them), and jobs whose worker died mid-grading.

        A job sent over a lease ago and still queued is usually waiting behind others:
        sending it again on every sweep would add a copy per sweep to a long backlog. So
        those are sent again only when nothing waits in Redis, where they would be.
        """
        moment = now()
        stale = moment - timedelta(seconds=self.settings.lease_seconds)
        never_sent = (Submission.state == "queued") & Submission.enqueued_at.is_(None)
        # A moment for the web process that stored it to send it itself.
        never_sent &= Submission.created_at < moment - timedelta(seconds=SEND_GRACE_SECONDS)
        abandoned = (
            (Submission.state == "grading")
            & (Submission.lease_until < moment)
            & (Submission.enqueued_at.is_(None) | (Submission.enqueued_at < stale))
        )
        stuck = [never_sent, abandoned]
        if self.waiting() == 0:
            stuck.append((Submission.state == "queued") & (Submission.enqueued_at < stale))
        with db.session() as s:
            ids = list(
                s.scalars(
                    select(Submission.id)
                    .where(or_(*stuck))
                    .order_by(Submission.created_at)
                    .limit(500)
                )
            )
        self.send(db, ids)
        return len(ids)


def make_queue(settings):
    return DatabaseQueue(settings) if settings.broker_url == "database" else DramatiqQueue(settings)

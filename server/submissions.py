"""Submit, list and read submissions: the learner's JSON API.

A submission is stored (state "queued") in the same transaction that accepts it, before
the server answers: nothing accepted is ever lost. Grading happens in a worker.
"""

from __future__ import annotations

import hashlib
import re
import uuid

from sqlalchemy import select
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.routing import Route

from grader.checks import EXERCISES
from grader.messages import msg

from .models import Deadline, Submission, now
from .pages import page_language
from .security import check_csrf, require_viewer
from .web import read_json

SUBMISSION_ID = re.compile(  # a submission id: uuid4 text
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
)


def as_json(sub: Submission, code: bool = False) -> dict:
    data = {
        "id": sub.id,
        "exercise": sub.exercise,
        "class_id": sub.class_id,
        "state": sub.state,
        "created_at": sub.created_at.isoformat(),
        "late": sub.late,
        "score": sub.score,
        "max_score": sub.max_score,
        "feedback": sub.feedback,
        "language": sub.report_language,  # the feedback's language (what it was graded in)
        "attempts": sub.attempts,
    }
    if code:
        data["code"] = sub.code.decode("utf-8", "replace")
    return data


def _class_for(viewer, wanted) -> int:
    """The class a submission goes to: the one asked for, or the viewer's only class."""
    learning = [cid for cid, role in viewer.roles.items() if role == "learner"]
    if wanted is not None:
        # bool is an int in Python: true would be class 1.
        if type(wanted) is not int or wanted not in learning:
            raise HTTPException(403, msg("You are not a learner in that class."))
        return wanted
    if len(learning) == 1:
        return learning[0]
    if not learning:
        raise HTTPException(
            403, msg("You are in no class as a learner: join one with its invite code.")
        )
    raise HTTPException(400, msg("You are in several classes: say which (class_id)."))


def submit(request):
    app = request.app.state
    check_csrf(request)
    viewer = require_viewer(request)
    if not app.limits.hit(app.limits.submit, f"submit:{viewer.user.id}"):
        raise HTTPException(
            429, msg("Too many submissions in a minute: wait a little and submit again.")
        )
    body = read_json(request)
    exercise, code = body.get("exercise"), body.get("code")
    if exercise not in EXERCISES:
        raise HTTPException(
            400, msg("Unknown exercise: submit from the exercise's block on its lesson page.")
        )
    if not isinstance(code, str):
        raise HTTPException(400, msg("The request has no code: submit the exercise file's text."))
    data = code.encode("utf-8", "surrogatepass")
    if len(data) > app.settings.max_code_bytes:
        raise HTTPException(
            413,
            msg(
                "The file is over {size} kB: submit the exercise file alone.",
                size=app.settings.max_code_bytes // 1024,
            ),
        )
    class_id = _class_for(viewer, body.get("class_id"))
    with app.db.session() as s:
        deadline = s.get(Deadline, (class_id, exercise))
        late = deadline is not None and now() > deadline.due_at
        if late and deadline.late_policy == "refuse":
            raise HTTPException(
                403,
                msg(
                    "The deadline for {exercise} was {due} UTC: late work is not accepted.",
                    exercise=exercise,
                    due=f"{deadline.due_at:%Y-%m-%d %H:%M}",
                ),
            )
        sub = Submission(
            id=str(uuid.uuid4()),
            user_id=viewer.user.id,
            class_id=class_id,
            exercise=exercise,
            code=data,
            sha256=hashlib.sha256(data).hexdigest(),
            late=late,
            # The page's language (web/server.js sends it; ?lang= as the pages negotiate):
            # the grader's report will speak it.
            language=page_language(request),
            state="queued",
            attempts=0,
        )
        s.add(sub)
    # Stored and committed: now tell the broker (if it misses it, the sweep sends it again).
    app.queue.send(app.db, [sub.id])
    return JSONResponse({"submission": as_json(sub)}, status_code=202)


def list_own(request):
    viewer = require_viewer(request)
    exercise = request.query_params.get("exercise")
    query = select(Submission).where(Submission.user_id == viewer.user.id)
    if exercise:
        if exercise not in EXERCISES:  # none of those (and a NUL byte made PostgreSQL fail)
            return JSONResponse({"submissions": []})
        query = query.where(Submission.exercise == exercise)
    with request.app.state.db.session() as s:
        rows = s.scalars(query.order_by(Submission.created_at.desc()).limit(200)).all()
        return JSONResponse({"submissions": [as_json(r) for r in rows]})


def read_one(request):
    viewer = require_viewer(request)
    with request.app.state.db.session() as s:
        sub = (
            s.get(Submission, sid)
            if SUBMISSION_ID.fullmatch(sid := request.path_params["id"])
            else None
        )
        # Someone else's submission is "not found", not "forbidden": ids say nothing.
        if sub is None or not (sub.user_id == viewer.user.id or viewer.teaches(sub.class_id)):
            raise HTTPException(404, msg("No such submission."))
        return JSONResponse({"submission": as_json(sub, code=True)})


routes = [
    Route("/api/submissions", submit, methods=["POST"]),
    Route("/api/submissions", list_own, methods=["GET"]),
    Route("/api/submissions/{id}", read_one, methods=["GET"]),
]

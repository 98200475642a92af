"""The deadlines a learner works to: their classes' deadlines, for the exercise blocks."""

from __future__ import annotations

from sqlalchemy import select
from starlette.responses import JSONResponse
from starlette.routing import Route

from .models import Deadline
from .security import require_viewer


def as_json(row: Deadline) -> dict:
    return {
        "class_id": row.class_id,
        "exercise": row.exercise,
        "due_at": row.due_at.isoformat(),
        "late_policy": row.late_policy,
        "penalty_percent": row.penalty_percent,
    }


def own_deadlines(request):
    viewer = require_viewer(request)
    classes = [cid for cid, role in viewer.roles.items() if role == "learner"]
    with request.app.state.db.session() as s:
        rows = s.scalars(
            select(Deadline).where(Deadline.class_id.in_(classes)).order_by(Deadline.due_at)
        ).all()
        return JSONResponse({"deadlines": [as_json(r) for r in rows]})


routes = [Route("/api/deadlines", own_deadlines, methods=["GET"])]

"""What every route shares: reading a JSON body, and errors as JSON."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException

from grader.messages import msg


def read_json(request) -> dict:
    """The request's JSON object (the body was read by the size-limit middleware)."""
    body = request.state.body if hasattr(request.state, "body") else None
    if body is None:
        raise HTTPException(400, msg("Send a JSON body."))
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the stack
        raise HTTPException(400, msg("The body is not JSON.")) from None
    if not isinstance(data, dict):
        raise HTTPException(400, msg("The body must be a JSON object."))
    try:
        # JSON may escape half a surrogate pair ("\ud800"): no text is made of that, and
        # the database cannot store it.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        raise HTTPException(400, msg("The body holds text that is not valid Unicode.")) from None
    return data

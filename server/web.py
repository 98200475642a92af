"""What every route shares: reading a JSON body, and errors as JSON."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException


def read_json(request) -> dict:
    """The request's JSON object (the body was read by the size-limit middleware)."""
    body = request.state.body if hasattr(request.state, "body") else None
    if body is None:
        raise HTTPException(400, "Send a JSON body.")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(400, "The body is not JSON.") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "The body must be a JSON object.")
    return data

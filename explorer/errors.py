"""`ExpressionError`: what the explorer says when it refuses an expression."""

from __future__ import annotations

__all__ = ["ExpressionError"]


class ExpressionError(ValueError):
    """An expression the explorer refuses, with the character span to underline."""

    def __init__(self, message: str, start: int = 0, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start + 1 if end is None or end <= start else end

    def to_dict(self) -> dict:
        return {"message": self.message, "start": self.start, "end": self.end}

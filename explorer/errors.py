"""`ExpressionError`: what the explorer says when it refuses an expression."""

from __future__ import annotations

__all__ = ["ExpressionError"]


class ExpressionError(ValueError):
    """An expression the explorer refuses, with the character span to underline.

    `message` is the English sentence (what Python prints); `key` and `values`, when given,
    name the same sentence in the page's messages (web/locales/*.json), which the page shows
    in the reader's language: t(key, values) renders `message` in English.
    """

    def __init__(
        self,
        message: str,
        start: int = 0,
        end: int | None = None,
        key: str | None = None,
        values: dict | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start + 1 if end is None or end <= start else end
        self.key = key
        self.values = dict(values or {})

    def to_dict(self) -> dict:
        out = {"message": self.message, "start": self.start, "end": self.end}
        if self.key is not None:
            out.update(key=self.key, values=self.values)
        return out

"""The `explorer` fence: a computation-graph explorer in a lesson.

    ```explorer
    (a + b) * c
    ```

The body is the starting expression (one line). The fence renders a plain block
that reads fine without JavaScript (the expression in a <pre>); the browser runtime
mounts the explorer on it (web/explorer/). The expression is checked at build time
with the same parser the explorer uses, so a lesson cannot ship a refused one.
"""

from __future__ import annotations

import html

from pymdownx.superfences import SuperFencesException

from explorer import ExpressionError, parse  # the course's package: mkdocs runs from its root

__all__ = ["ExplorerError", "explorer_fence", "format_explorer"]


class ExplorerError(SuperFencesException):
    """A broken `explorer` block: the build stops and says why."""


def format_explorer(source, language, class_name, options, md, **kwargs):
    expression = source.strip()
    if "\n" in expression:
        raise ExplorerError("explorer block: write the starting expression on one line")
    try:
        parse(expression)
    except ExpressionError as exc:
        raise ExplorerError(f"explorer block: {expression!r} is refused: {exc.message}") from exc
    text = html.escape(expression, quote=True)
    return (
        f'<div class="course-explorer" data-explorer data-expression="{text}">'
        f'<pre class="course-source"><code>{text}</code></pre>'
        "<p>The graph explorer needs JavaScript to run.</p></div>"
    )


def explorer_fence() -> dict:
    """The superfences `custom_fences` entry."""
    return {"name": "explorer", "class": "course-explorer", "format": format_explorer}

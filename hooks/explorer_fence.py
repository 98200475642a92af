"""The `explorer` fence: a computation-graph explorer in a lesson.

    ```explorer
    (a + b) * c
    ```

    ```explorer values='{"a": 2, "b": 3}'
    a*b + a
    ```

The body is the starting expression (one line); `values` (optional) sets the starting
value of some variables, as a JSON object. The expression is checked at build time with
the same parser the explorer uses, so a lesson cannot ship a refused one.

The block carries its first graph: `explorer.explore(expression, values)` is run here, in
the build's CPython with the same engine the page's Python runs, and its JSON is embedded
in the block's `data-explorer-trace` attribute (not in a <script>: Material's instant
navigation re-creates a page's inline scripts without their type, and would run the JSON as
JavaScript). The page draws it at once, while Python boots in
the worker; the sliders and the expression box go live once Python answers.
"""

from __future__ import annotations

import html
import json
import math

from pymdownx.superfences import SuperFencesException

# The course's package: mkdocs runs from its root.
from explorer import ExpressionError, explore, is_variable, parse

__all__ = [
    "ExplorerError",
    "explorer_fence",
    "format_explorer",
    "trace_attribute",
    "validate_explorer",
]


class ExplorerError(SuperFencesException):
    """A broken `explorer` block: the build stops and says why."""


_VALUES_HELP = """values='{"a": 2, "w1": 3}' (variable names, numbers)"""


def _start_values(text: str) -> dict[str, float]:
    """The `values` option: a JSON object of variable names to finite numbers."""
    try:
        given = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExplorerError(
            f"explorer block: values is not JSON ({exc.msg}); write {_VALUES_HELP}"
        ) from exc
    if not isinstance(given, dict):
        raise ExplorerError(f"explorer block: values must be a JSON object; write {_VALUES_HELP}")
    for name, x in given.items():
        if not is_variable(name):
            raise ExplorerError(
                f"explorer block: {name!r} in values is not a variable "
                "(one letter, optionally followed by digits, such as a or w1)"
            )
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ExplorerError(f"explorer block: the value of {name} must be a finite number")
    return {name: float(x) for name, x in given.items()}


def validate_explorer(language, inputs, options, attrs, md):
    """Accept `values='{...}'` on the fence; anything else is a mistake."""
    for key, value in inputs.items():
        if key != "values":
            raise ExplorerError(
                f"explorer block: unknown option {key!r}; the only one is {_VALUES_HELP}"
            )
        options["values"] = _start_values(value)
    return True


def trace_attribute(data) -> str:
    """The JSON of `data` as an HTML attribute's value (quotes, `<` and `&` escaped)."""
    return html.escape(json.dumps(data, separators=(",", ":"), allow_nan=False), quote=True)


def format_explorer(source, language, class_name, options, md, **kwargs):
    expression = source.strip()
    if "\n" in expression:
        raise ExplorerError("explorer block: write the starting expression on one line")
    try:
        parse(expression)
    except ExpressionError as exc:
        raise ExplorerError(f"explorer block: {expression!r} is refused: {exc.message}") from exc
    values = (options or {}).get("values", {})
    result = explore(expression, values)
    if not result["ok"]:  # parsed, but the values leave a function's domain
        message = result["error"]["message"]
        raise ExplorerError(f"explorer block: {expression!r} with values {values}: {message}")
    text = html.escape(expression, quote=True)
    given = ""
    if values:
        given = f' data-explorer-values="{html.escape(json.dumps(values), quote=True)}"'
    return (
        f'<div class="course-explorer" data-explorer data-expression="{text}"{given}'
        f' data-explorer-trace="{trace_attribute(result)}">'
        f'<pre class="course-source"><code>{text}</code></pre>'
        "<p>The graph explorer needs JavaScript to run.</p></div>"
    )


def explorer_fence() -> dict:
    """The superfences `custom_fences` entry."""
    return {
        "name": "explorer",
        "class": "course-explorer",
        "format": format_explorer,
        "validator": validate_explorer,
    }

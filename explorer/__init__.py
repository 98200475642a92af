"""explorer: the graph explorer's Python side, an expression typed by a learner made a graph.

The course's graph explorer (web/explorer/, docs/explorer.md) calls `explore(text,
values)` in the page's Python worker. Nothing typed is run: the text is checked
against a whitelist, then built with the engine's operations, so the numbers, the
local derivatives and the gradients shown are the engine's (via `engine.graph.trace`).

One job a module:

- explorer.parsing: `parse(text)`, the whitelist, returning the tree of explorer.tree;
  refusals are an `ExpressionError` (explorer.errors) with the span to underline;
- explorer.labels: the canonical text (label) of every node;
- explorer.graph: the Values, built with the engine's primitives; `-`, `/` and unary
  minus are derived here from them, as the engine defines them;
- explorer.view: `explore`, the derived and the primitive views the page draws;
- explorer.presets: the example expressions (presets.json, which the page bundles too).

This is not part of `engine`, the package a learner reads and imports: the site ships
it as a wheel of its own (hooks/site_build.py), and no grading sandbox holds it.

>>> result = explore("(a + b) * c", {"a": 2, "b": -3, "c": 10})
>>> result["expression"], [n["grad"] for n in result["trace"]["nodes"]][-1]
('(a+b)*c', 1.0)
"""

from .errors import ExpressionError
from .graph import DEFAULT_VALUES, MAX_NODES, Graph, build
from .labels import label
from .parsing import FUNCTIONS, MAX_LENGTH, is_variable, parse
from .presets import PRESETS
from .tree import variables
from .view import explore

__all__ = [
    "is_variable",
    "DEFAULT_VALUES",
    "FUNCTIONS",
    "MAX_LENGTH",
    "MAX_NODES",
    "PRESETS",
    "ExpressionError",
    "Graph",
    "build",
    "explore",
    "label",
    "parse",
    "variables",
]

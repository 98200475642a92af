"""`build(text, values)`: the `Value`s of an expression, made with the engine's primitives.

The engine's operations are `+`, `*`, `**` with a constant exponent, and relu, exp,
log and tanh. `-` and `/` are not among them: the engine defines `a - b` as
`a + b*-1`, `-a` as `a*-1` and `a / b` as `a * b**-1`. The explorer builds these
*derived* operations here, from the same primitives and in the same way, so it knows
which Values make up each one (a `Group`) without reading how the engine built them;
the page can then show each as one node or expanded into its primitives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import Value

from .errors import ExpressionError
from .labels import label, wrapped
from .parsing import parse
from .tree import BinOp, Call, Neg, Num, Pow, Var, variables

__all__ = ["DEFAULT_VALUES", "MAX_NODES", "Graph", "Group", "build"]

# Starting values: the lessons' running example (a=2, b=-3, c=10, f=-2); other letters
# start at 1 (which every function accepts), the learner moves the sliders from there.
DEFAULT_VALUES = {"a": 2.0, "b": -3.0, "c": 10.0, "f": -2.0}
MAX_NODES = 60  # Values in the engine's graph, constants of derived ops included


@dataclass
class Group:
    """A derived operation: `root` is its result; `hidden` the Values inside it.

    `operands` has one entry per input of the derived operation: (the input's Value,
    the path from it up to `root` as [(Value, input slot of that Value), ...]). The
    local derivative of `root` with respect to the input is the product of the
    engine's local derivatives along that path.
    """

    op: str  # "-", "/", "neg"
    root: Value
    hidden: list
    operands: list


class Graph:
    """The Values built from a checked tree, with what the explorer needs to draw them."""

    def __init__(self, tree, values: dict[str, float]):
        self.tree = tree
        self.names = variables(tree)
        self.leaves = {n: Value(values[n], label=n) for n in self.names}
        self.kinds: dict[int, str] = {}  # id(Value) -> "variable" | "constant" | "operation"
        self.spans: dict[int, tuple[int, int]] = {}
        self.ops: dict[int, dict] = {}  # id(Value) -> {"op": ..., "exponent": ...}
        self.groups: list[Group] = []
        self.count = 0
        self.root = self.build(tree)

    def made(self, value, kind, node=None, **op):
        self.count += 1
        if self.count > MAX_NODES:
            raise ExpressionError(
                f"the graph would have more than {MAX_NODES} nodes; try a shorter expression",
                *(node.span if node else (0, 1)),
                key="explorer.error.tooManyNodes",
                values={"max": MAX_NODES},
            )
        self.kinds[id(value)] = kind
        if node is not None:
            self.spans[id(value)] = node.span
        if op:
            self.ops[id(value)] = op
        return value

    def build(self, node):
        if isinstance(node, Var):
            leaf = self.leaves[node.name]
            if id(leaf) not in self.kinds:
                self.made(leaf, "variable", node)
            return leaf
        if isinstance(node, Num):
            return self.made(Value(node.value, label=label(node)), "constant", node)
        text = label(node)
        if isinstance(node, BinOp):
            left, right = self.build(node.left), self.build(node.right)
            return self.binop(node, text, left, right)
        if isinstance(node, Neg):
            return self.negate(node, text, self.build(node.operand))
        if isinstance(node, Pow):
            x = self.build(node.base)
            out = self.engine(node, lambda: x**node.exponent, x)
            return self.result(out, node, text, op="**", exponent=node.exponent)
        x = self.build(node.arg)
        out = self.engine(node, getattr(x, node.func), x)
        return self.result(out, node, text, op=node.func)

    def binop(self, node, text, left, right):
        if node.op == "+":
            return self.result(self.engine(node, lambda: left + right), node, text, op="+")
        if node.op == "*":
            return self.result(self.engine(node, lambda: left * right), node, text, op="*")
        if node.op == "-":
            return self.subtract(node, text, left, right)
        return self.divide(node, text, left, right)

    # -- the derived operations, each from the primitives the engine defines it by -------

    def negate(self, node, text, x):
        """-x as the engine computes it: x * -1."""
        const = Value(-1.0, label="-1")
        out = self.engine(node, lambda: x * const)
        self.made(const, "constant")
        self.groups.append(Group("neg", out, [const], [(x, [(out, 0)])]))
        return self.result(out, node, text, op="*", derived="neg")

    def subtract(self, node, text, left, right):
        """left - right as the engine computes it: left + right*-1."""
        const = Value(-1.0, label="-1")
        neg = self.engine(node, lambda: right * const)
        neg.label = f"{wrapped(node.right, 2)}*-1"
        out = self.engine(node, lambda: left + neg)
        self.made(const, "constant")
        self.made(neg, "operation", op="*")
        operands = [(left, [(out, 0)]), (right, [(neg, 0), (out, 1)])]
        self.groups.append(Group("-", out, [neg, const], operands))
        return self.result(out, node, text, op="+", derived="-")

    def divide(self, node, text, left, right):
        """left / right as the engine computes it: left * right**-1."""
        inv = self.engine(node, lambda: right**-1.0)
        inv.label = f"{wrapped(node.right, 5)}**-1"
        out = self.engine(node, lambda: left * inv)
        self.made(inv, "operation", op="**", exponent=-1.0)
        operands = [(left, [(out, 0)]), (right, [(inv, 0), (out, 1)])]
        self.groups.append(Group("/", out, [inv], operands))
        return self.result(out, node, text, op="*", derived="/")

    def result(self, out, node, text, **op):
        out.label = text
        return self.made(out, "operation", node, **op)

    @staticmethod
    def zero_division(node) -> ExpressionError:
        base = node.right if isinstance(node, BinOp) else node.base
        what = label(base)
        values = {"expression": label(node), "divisor": what}
        if isinstance(base, Num):
            key, why = "divideByZero", f"{label(node)} divides by 0"
        elif isinstance(base, Var):
            key = "divideByVariable"
            why = f"{label(node)} divides by {what}, which is 0 here: move its slider away from 0"
        else:
            key = "divideByZeroValue"
            why = f"{label(node)} divides by {what}, which is 0 here: change the values"
        return ExpressionError(
            f"division by zero: {why}", *base.span, key=f"explorer.error.{key}", values=values
        )

    def engine(self, node, compute, x=None):
        """Run one engine operation (on the Value `x`, for a function or a power); its errors
        point at the part of the text that failed."""
        try:
            out = compute()
        except ZeroDivisionError:
            raise self.zero_division(node) from None
        except (ValueError, OverflowError) as exc:
            key, values = _engine_refusal(node, exc, x)
            values["expression"] = label(node)
            raise ExpressionError(
                f"{label(node)}: {exc}", *node.span, key=f"explorer.error.{key}", values=values
            ) from None
        if not math.isfinite(out.data):
            raise ExpressionError(
                f"{label(node)} is too large for a float here; use smaller values",
                *node.span,
                key="explorer.error.tooLarge",
                values={"expression": label(node)},
            )
        return out


def _engine_refusal(node, exc, x):
    """Which of the engine's refusals `exc` is, as the page's message key (explorer.error.*)
    and its values; "engine" (the engine's English words) for any other."""
    data = None if x is None else x.data
    if isinstance(node, Call) and node.func == "log" and isinstance(exc, ValueError):
        return "logNotPositive", {"x": str(data)}
    if isinstance(node, Call) and node.func == "exp" and isinstance(exc, OverflowError):
        return "expTooLarge", {"x": str(data)}
    if isinstance(node, Pow):
        k = float(node.exponent)
        numbers = {"x": str(data), "k": str(k)}
        if isinstance(exc, OverflowError):
            return "powerTooLarge", numbers
        if data == 0.0:
            return "powerInfiniteSlope", numbers
        if data is not None and data < 0.0:
            return "powerNotReal", numbers
    return "engine", {"error": str(exc)}


def _values_for(names, values) -> dict[str, float]:
    given = {} if values is None else values
    if not isinstance(given, dict):
        raise ExpressionError(
            "values must map variable names to numbers, e.g. {'a': 2}",
            key="explorer.error.valuesNotMapping",
        )
    out = {}
    for name in names:
        x = given.get(name, DEFAULT_VALUES.get(name, 1.0))
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ExpressionError(
                f"the value of {name} must be a finite number, got {x!r}",
                key="explorer.error.valueNotFinite",
                values={"name": name, "value": repr(x)},
            )
        out[name] = float(x)
    return out


def build(text: str, values: dict[str, float] | None = None) -> Graph:
    """Parse `text` and build its Values with the engine (no backward pass yet)."""
    tree = parse(text)
    return Graph(tree, _values_for(variables(tree), values))

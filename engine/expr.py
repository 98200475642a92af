"""Expressions typed by a learner, turned into a graph of `Value`s without running any code.

The graph explorer calls `explore(text, values)`. The text is parsed with Python's
own parser (`ast.parse`, which only reads) and every node of the tree is checked
against a short whitelist: numbers, one-letter variables, `+ - * / **`, unary minus,
parentheses and the calls `relu(x)`, `exp(x)`, `log(x)`, `tanh(x)`. Anything else is
refused with an `ExpressionError` that says where and why; nothing is evaluated.
The accepted tree is then built with the engine's own operations, so the numbers,
the local derivatives and the gradients shown are the engine's, via `engine.graph.trace`.

`-` and `/` are not primitives of the engine: `a - b` is `a + (b * -1)` and `a / b`
is `a * b**-1`. The explorer can show them either as one *derived* node or expanded
into those primitives; `explore` returns both views.
"""

from __future__ import annotations

import ast
import math
import warnings
from dataclasses import dataclass

from .graph import trace
from .value import Value

__all__ = [
    "DEFAULT_VALUES",
    "FUNCTIONS",
    "MAX_LENGTH",
    "MAX_NODES",
    "PRESETS",
    "ExpressionError",
    "Graph",
    "explore",
    "parse",
    "variables",
]

FUNCTIONS = ("relu", "exp", "log", "tanh")
PRESETS = ("(a + b) * c", "relu(a * b)", "a * a", "(a*b + c) * f", "a*b + a")
# Starting values: the lessons' running example (a=2, b=-3, c=10, f=-2); other letters
# start at 1 (which every function accepts), the learner moves the sliders from there.
DEFAULT_VALUES = {"a": 2.0, "b": -3.0, "c": 10.0, "f": -2.0}
MAX_LENGTH = 200  # characters: longer expressions do not fit a readable drawing
MAX_NODES = 60  # Values in the engine's graph, constants of derived ops included

_ALLOWED = "numbers, one-letter variables, + - * / **, parentheses and relu(), exp(), log(), tanh()"


def _grouped(text, node):
    """`text` in parentheses unless it is one name, number or call (for a hint's formula)."""
    return text if type(node) in (ast.Name, ast.Constant, ast.Call) else f"({text})"


class ExpressionError(ValueError):
    """An expression the explorer refuses, with the character span to underline."""

    def __init__(self, message: str, start: int = 0, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start + 1 if end is None or end <= start else end

    def to_dict(self) -> dict:
        return {"message": self.message, "start": self.start, "end": self.end}


# -- the checked tree ------------------------------------------------------------------
# A small tree of our own, made only from whitelisted parts; `span` is the
# (start, end) character range of the source it came from.


@dataclass(frozen=True)
class Var:
    name: str
    span: tuple[int, int]


@dataclass(frozen=True)
class Num:
    value: float
    span: tuple[int, int]


@dataclass(frozen=True)
class BinOp:
    op: str  # "+", "-", "*", "/"
    left: object
    right: object
    span: tuple[int, int]


@dataclass(frozen=True)
class Neg:
    operand: object
    span: tuple[int, int]


@dataclass(frozen=True)
class Pow:
    base: object
    exponent: float
    span: tuple[int, int]


@dataclass(frozen=True)
class Call:
    func: str
    arg: object
    span: tuple[int, int]


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_REFUSED_BINOPS = {
    ast.FloorDiv: "// (floor division) is not an operation of the engine: use /",
    ast.Mod: "% (remainder) is not an operation of the engine",
    ast.MatMult: "@ (matrix product) is not an operation on single numbers: use *",
    ast.BitXor: "^ is not a power in Python: write a**2 for a squared",
    ast.BitAnd: "& is not an operation of the engine",
    ast.BitOr: "| is not an operation of the engine",
    ast.LShift: "<< is not an operation of the engine",
    ast.RShift: ">> is not an operation of the engine",
}
_REFUSED_NODES = {
    ast.Attribute: "attributes such as x.y are not allowed: call functions as relu(a), exp(a)",
    ast.Subscript: "indexing such as x[0] is not allowed",
    ast.Compare: "comparisons are not allowed: the explorer builds arithmetic only",
    ast.BoolOp: "and/or are not allowed: the explorer builds arithmetic only",
    ast.IfExp: "if/else is not allowed: the explorer builds arithmetic only",
    ast.Lambda: "lambda is not allowed",
    ast.NamedExpr: ":= is not allowed",
    ast.Tuple: "a comma or empty parentheses make a tuple: type one expression",
    ast.List: "lists are not allowed",
    ast.Dict: "dicts are not allowed",
    ast.Set: "sets are not allowed",
    ast.JoinedStr: "text in quotes is not an expression here",
    ast.Starred: "* unpacking is not allowed",
}


class _Checker:
    """Turn a Python `ast` into our checked tree, refusing everything not whitelisted."""

    def __init__(self, text: str):
        self.text = text
        self.encoded = text.encode("utf-8")

    def char(self, col: int) -> int:
        # ast offsets count UTF-8 bytes; the page counts characters.
        return len(self.encoded[:col].decode("utf-8", errors="ignore"))

    def span(self, node) -> tuple[int, int]:
        return self.char(node.col_offset), self.char(node.end_col_offset)

    def fail(self, message: str, node) -> None:
        start, end = self.span(node)
        raise ExpressionError(message, start, end)

    def operator_span(self, node) -> tuple[int, int]:
        """Where the operator of a BinOp sits: the first symbol after the left operand."""
        start = self.char(node.left.end_col_offset)
        stop = self.char(node.right.col_offset)
        i = start
        while i < stop and self.text[i] in " \t)":
            i += 1
        j = i
        while j < stop and self.text[j] not in " \t(":
            j += 1
        return (i, j) if j > i else self.span(node)

    def check(self, node):
        kind = type(node)
        if kind is ast.Constant:
            return Num(self.number(node), self.span(node))
        if kind is ast.Name:
            return Var(self.name(node), self.span(node))
        if kind is ast.UnaryOp:
            return self.unary(node)
        if kind is ast.BinOp:
            return self.binop(node)
        if kind is ast.Call:
            return self.call(node)
        message = _REFUSED_NODES.get(kind)
        if message is None:
            snippet = ast.get_source_segment(self.text, node) or type(node).__name__
            message = f"{snippet!s} is not allowed here: use {_ALLOWED}"
        self.fail(message, node)

    def number(self, node) -> float:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            if isinstance(value, str):
                self.fail("text in quotes is not an expression here", node)
            if isinstance(value, complex):
                self.fail(
                    "complex numbers are not allowed: the engine works with real numbers", node
                )
            self.fail(f"{value!r} is not a number: use {_ALLOWED}", node)
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            self.fail("this number is too large for a float", node)
        return x

    def name(self, node) -> str:
        name = node.id
        if name in FUNCTIONS:
            self.fail(f"{name} is a function: call it on something, e.g. {name}(a)", node)
        if len(name) != 1 or not ("a" <= name.lower() <= "z"):
            hint = ""
            if name.isascii() and name.isalpha() and 1 < len(name) <= 6:
                hint = f" (for a product write {'*'.join(name)})"
            self.fail(
                f"{name!r} is not a variable: variables are single letters a-z or A-Z{hint}", node
            )
        return name

    def unary(self, node):
        if isinstance(node.op, ast.USub):
            operand = node.operand
            # A signed literal is one number, -3, not the operation -(3).
            if type(operand) is ast.Constant:
                return Num(-self.number(operand), self.span(node))
            return Neg(self.check(operand), self.span(node))
        if isinstance(node.op, ast.UAdd):
            return self.check(node.operand)
        symbol = "not" if isinstance(node.op, ast.Not) else "~"
        self.fail(f"{symbol} is not allowed: the explorer builds arithmetic only", node)

    def binop(self, node):
        kind = type(node.op)
        if kind is ast.Pow:
            return Pow(self.check(node.left), self.exponent(node.right, node.left), self.span(node))
        if kind in _BINOPS:
            left, right = self.check(node.left), self.check(node.right)
            return BinOp(_BINOPS[kind], left, right, self.span(node))
        start, end = self.operator_span(node)
        raise ExpressionError(_REFUSED_BINOPS.get(kind, "this operator is not allowed"), start, end)

    def exponent(self, node, base) -> float:
        """`**` takes a plain number only: the engine's pow differentiates the base alone."""
        sign = 1.0
        inner = node
        if type(inner) is ast.UnaryOp and isinstance(inner.op, (ast.USub, ast.UAdd)):
            sign = -1.0 if isinstance(inner.op, ast.USub) else 1.0
            inner = inner.operand
        if type(inner) is ast.Constant:
            return sign * self.number(inner)
        if any(isinstance(n, ast.Name) and n.id not in FUNCTIONS for n in ast.walk(node)):
            segment = ast.get_source_segment(self.text, node) or "the exponent"
            b = ast.get_source_segment(self.text, base) or "x"
            b_, e_ = _grouped(b, base), _grouped(segment, node)
            self.fail(
                f"** needs a number as its exponent, not {segment}: the engine's pow "
                f"differentiates only the base, so {segment}.grad would silently stay 0. "
                f"Use a number such as 2, or write {b_}**{e_} as exp({e_}*log({b}))",
                node,
            )
        self.fail("the exponent of ** must be a plain number, such as 2, -1 or 0.5", node)

    def call(self, node):
        func = node.func
        if type(func) is ast.Attribute:
            method = func.attr
            if method in FUNCTIONS:
                self.fail(f"write {method}(x) instead of x.{method}()", node)
            self.fail(_REFUSED_NODES[ast.Attribute], node)
        if type(func) is ast.Name and len(func.id) == 1:
            self.fail(
                f"{func.id} is a variable, not a function: write {func.id}*(...) for a product",
                func,
            )
        if type(func) is not ast.Name or func.id not in FUNCTIONS:
            if type(func) is not ast.Name:
                self.fail("only relu, exp, log and tanh can be called: write * for a product", node)
            self.fail(f"{func.id}() is not one of the functions: use relu, exp, log or tanh", func)
        if node.keywords or len(node.args) != 1 or type(node.args[0]) is ast.Starred:
            self.fail(f"{func.id}() takes exactly one argument, e.g. {func.id}(a)", node)
        return Call(func.id, self.check(node.args[0]), self.span(node))


def parse(text: str):
    """Check `text` and return its tree (Var, Num, BinOp, Neg, Pow, Call); nothing runs.

    Raises ExpressionError with the character span of the first problem.
    """
    if not isinstance(text, str):
        raise ExpressionError(f"the expression must be text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"the expression is {len(text)} characters long; keep it under {MAX_LENGTH} "
            "so its graph stays readable",
            MAX_LENGTH,
            len(text),
        )
    for i, ch in enumerate(text):
        if ch in "\r\n":
            raise ExpressionError("write the expression on one line", i)
        if ch == "\0" or (not ch.isprintable() and ch != "\t"):
            raise ExpressionError(f"unexpected control character {ch!r}", i)
    body = text.lstrip()
    lead = len(text) - len(body)
    if not body.strip():
        raise ExpressionError("type an expression, for example (a + b) * c", 0, max(len(text), 1))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(body, mode="eval")
    except SyntaxError as exc:
        raise _syntax_error(exc, body, lead) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ExpressionError(
            f"this cannot be read as an expression ({exc})", 0, len(text)
        ) from None
    checker = _Checker(body)
    try:
        checked = checker.check(tree.body)
    except ExpressionError as exc:
        raise ExpressionError(exc.message, exc.start + lead, exc.end + lead) from None
    except RecursionError:
        raise ExpressionError("the expression is nested too deeply", 0, len(text)) from None
    return _shift(checked, lead) if lead else checked


def _shift(node, by):
    """The same tree with spans moved right by `by` characters (leading spaces)."""
    span = (node.span[0] + by, node.span[1] + by)
    if isinstance(node, (Var, Num)):
        return type(node)(node.value if isinstance(node, Num) else node.name, span)
    if isinstance(node, BinOp):
        return BinOp(node.op, _shift(node.left, by), _shift(node.right, by), span)
    if isinstance(node, Neg):
        return Neg(_shift(node.operand, by), span)
    if isinstance(node, Pow):
        return Pow(_shift(node.base, by), node.exponent, span)
    return Call(node.func, _shift(node.arg, by), span)


def _syntax_error(exc: SyntaxError, body: str, lead: int) -> ExpressionError:
    msg = exc.msg or "invalid syntax"
    generic = msg == "invalid syntax" or msg.startswith("invalid syntax.")
    tail = body.rstrip()
    if generic and tail and tail[-1] in "+-*/(,^%@":
        # Python points at the start for "a +"; the learner needs the dangling operator.
        i = len(tail) - 1
        while i > 0 and tail[i - 1] == "*" and tail[i] == "*":
            i -= 1
        return ExpressionError(
            f"the expression ends too early: something must follow {tail[i:]}",
            i + lead,
            len(tail) + lead,
        )
    start = min(max((exc.offset or 1) - 1, 0), len(body))
    before = body[:start].rstrip()
    if generic and before and (before[-1].isalnum() or before[-1] in "._)") and start < len(body):
        if body[start].isalnum() or body[start] in "(.":
            return ExpressionError(
                "an operator is missing here: write a*b for a product, a+b for a sum",
                start + lead,
                start + lead + 1,
            )
    if generic and body[start : start + 1] in ("=", ":"):
        return ExpressionError(
            "assignments are not allowed: type only the expression, e.g. a*b + c",
            start + lead,
            start + lead + (2 if body[start : start + 2] == ":=" else 1),
        )
    if generic:
        msg = "this is not a complete expression"
    # SyntaxError offsets are 1-based characters; 0 or None means "somewhere".
    start = (exc.offset or 1) - 1
    start = min(max(start, 0), len(body))
    end = exc.end_offset - 1 if exc.end_offset and exc.end_offset > exc.offset else start + 1
    if start >= len(body.rstrip()):
        msg = f"{msg}: the expression ends too early"
    if msg.startswith("invalid decimal literal") or msg.startswith("invalid imaginary literal"):
        msg = "a number runs into a letter: write 2*a for a product"
    return ExpressionError(msg[0].lower() + msg[1:], start + lead, end + lead)


def variables(tree) -> list[str]:
    """The variable names of a checked tree, in order of first appearance."""
    names: list[str] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            if node.name not in names:
                names.append(node.name)
        elif isinstance(node, BinOp):
            stack += [node.right, node.left]
        elif isinstance(node, Neg):
            stack.append(node.operand)
        elif isinstance(node, Pow):
            stack.append(node.base)
        elif isinstance(node, Call):
            stack.append(node.arg)
    return names


# -- canonical text: the label of every node -------------------------------------------

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


def number_text(x: float) -> str:
    """2.0 -> "2", 0.5 -> "0.5": how a number is written in labels."""
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(x)


def _prec(node) -> int:
    if isinstance(node, BinOp):
        return _PREC[node.op]
    if isinstance(node, Neg) or (isinstance(node, Num) and node.value < 0):
        return 3
    if isinstance(node, Pow):
        return 4
    return 5


def _wrap(node, at_least: int) -> str:
    text = label(node)
    return text if _prec(node) >= at_least else f"({text})"


def label(node) -> str:
    """The sub-expression a node computes, written compactly: (a+b)*c, relu(a*b), a**2."""
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Num):
        return number_text(node.value)
    if isinstance(node, BinOp):
        p = _PREC[node.op]
        return f"{_wrap(node.left, p)}{node.op}{_wrap(node.right, p + 1)}"
    if isinstance(node, Neg):
        return f"-{_wrap(node.operand, 4)}"
    if isinstance(node, Pow):
        return f"{_wrap(node.base, 5)}**{number_text(node.exponent)}"
    return f"{node.func}({label(node.arg)})"


# -- building the graph with the engine --------------------------------------------------


@dataclass
class Group:
    """A derived operation: `root` is its result; `hidden` the Values inside it."""

    op: str  # "-", "/", "neg"
    root: Value
    hidden: list
    operands: list  # [(operand Value, local derivative of root w.r.t. it)]


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
            x = self.build(node.operand)
            out = self.engine(node, lambda: -x)  # the engine's x * -1
            const = out._children[1]
            const.label = "-1"
            self.made(const, "constant")
            self.groups.append(Group("neg", out, [const], [(x, out._local_grads[0])]))
            return self.result(out, node, text, op="*", derived="neg")
        if isinstance(node, Pow):
            x = self.build(node.base)
            out = self.engine(node, lambda: x**node.exponent)
            return self.result(out, node, text, op="**", exponent=node.exponent)
        x = self.build(node.arg)
        out = self.engine(node, getattr(x, node.func))
        return self.result(out, node, text, op=node.func)

    def binop(self, node, text, left, right):
        if node.op == "+":
            return self.result(self.engine(node, lambda: left + right), node, text, op="+")
        if node.op == "*":
            return self.result(self.engine(node, lambda: left * right), node, text, op="*")
        if node.op == "-":
            out = self.engine(node, lambda: left - right)  # the engine's left + right*-1
            neg = out._children[1]
            const = neg._children[1]
            neg.label = f"{_wrap(node.right, 2)}*-1"
            const.label = "-1"
            self.made(const, "constant")
            self.made(neg, "operation", op="*")
            operands = [
                (left, out._local_grads[0]),
                (right, neg._local_grads[0] * out._local_grads[1]),
            ]
        else:
            out = self.engine(node, lambda: left / right)  # the engine's left * right**-1
            inv = out._children[1]
            inv.label = f"{_wrap(node.right, 5)}**-1"
            self.made(inv, "operation", op="**", exponent=-1.0)
            operands = [
                (left, out._local_grads[0]),
                (right, inv._local_grads[0] * out._local_grads[1]),
            ]
            neg = inv
            const = None
        hidden = [v for v in (neg, const) if v is not None]
        self.groups.append(Group(node.op, out, hidden, operands))
        primitive = "+" if node.op == "-" else "*"
        return self.result(out, node, text, op=primitive, derived=node.op)

    def result(self, out, node, text, **op):
        out.label = text
        return self.made(out, "operation", node, **op)

    @staticmethod
    def zero_division(node) -> ExpressionError:
        base = node.right if isinstance(node, BinOp) else node.base
        what = label(base)
        if isinstance(base, Num):
            why = f"{label(node)} divides by 0"
        elif isinstance(base, Var):
            why = f"{label(node)} divides by {what}, which is 0 here: move its slider away from 0"
        else:
            why = f"{label(node)} divides by {what}, which is 0 here: change the values"
        return ExpressionError(f"division by zero: {why}", *base.span)

    def engine(self, node, compute):
        """Run one engine operation; its errors point at the part of the text that failed."""
        try:
            out = compute()
        except ZeroDivisionError:
            raise self.zero_division(node) from None
        except (ValueError, OverflowError) as exc:
            raise ExpressionError(f"{label(node)}: {exc}", *node.span) from None
        if not math.isfinite(out.data):
            raise ExpressionError(
                f"{label(node)} is too large for a float here; use smaller values", *node.span
            )
        return out


def _values_for(names, values) -> dict[str, float]:
    given = {} if values is None else values
    if not isinstance(given, dict):
        raise ExpressionError("values must map variable names to numbers, e.g. {'a': 2}")
    out = {}
    for name in names:
        x = given.get(name, DEFAULT_VALUES.get(name, 1.0))
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ExpressionError(f"the value of {name} must be a finite number, got {x!r}")
        out[name] = float(x)
    return out


def build(text: str, values: dict[str, float] | None = None) -> Graph:
    """Parse `text` and build its Values with the engine (no backward pass yet)."""
    tree = parse(text)
    return Graph(tree, _values_for(variables(tree), values))


# -- what the explorer draws -----------------------------------------------------------


def _view(graph: Graph, data: dict, ids: dict[int, int], derived: bool) -> dict:
    """Nodes, edges and the forward/backward schedules of one view of the graph.

    With `derived`, each `-`, `/` and unary minus is one node whose edges carry the
    local derivative through its hidden primitives (the product along the path).
    """
    order = graph.root.topological_order()
    hidden = set()
    collapsed = {}
    if derived:
        for group in graph.groups:
            hidden.update(id(v) for v in group.hidden)
            collapsed[id(group.root)] = group
    trace_nodes = data["nodes"]
    group_of = {}
    for group in graph.groups:
        for v in (group.root, *group.hidden):
            group_of.setdefault(id(v), ids[id(group.root)])

    nodes = []
    for value in order:
        if id(value) in hidden:
            continue
        i = ids[id(value)]
        info = dict(graph.ops.get(id(value), {}))
        op = info.get("op", "")
        if derived and id(value) in collapsed:
            op = collapsed[id(value)].op
        nodes.append(
            {
                "id": i,
                "label": trace_nodes[i]["label"],
                "kind": graph.kinds[id(value)],
                "op": op,
                "exponent": info.get("exponent"),
                "derived": derived and id(value) in collapsed,
                "group": group_of.get(id(value)),
                "data": trace_nodes[i]["data"],
                "grad": trace_nodes[i]["grad"],
                "span": list(graph.spans[id(value)]) if id(value) in graph.spans else None,
            }
        )

    edges = []
    for value in order:
        if id(value) in hidden or not value._children:
            continue
        target = ids[id(value)]
        if id(value) in collapsed:
            pairs = collapsed[id(value)].operands
        else:
            pairs = list(zip(value._children, value._local_grads))
        for slot, (child, local) in enumerate(pairs):
            edges.append(
                {
                    "id": len(edges),
                    "source": ids[id(child)],
                    "target": target,
                    "slot": slot,
                    "local_grad": local,
                    "contribution": local * value.grad,
                }
            )

    by_target: dict[int, list[int]] = {}
    for e in edges:
        by_target.setdefault(e["target"], []).append(e["id"])
    visible = [n["id"] for n in nodes]
    forward = [n["id"] for n in nodes if n["kind"] == "operation"]
    # Backward: the root first (seeded with 1), then reverse topological order, so a
    # node's gradient is complete (every parent has sent its share) when it is reached.
    backward = [
        {"node": i, "grad": trace_nodes[i]["grad"], "sends": by_target.get(i, [])}
        for i in reversed(visible)
    ]
    groups = []
    if not derived:
        groups = [
            {
                "id": ids[id(g.root)],
                "op": g.op,
                "label": g.root.label,
                "members": [ids[id(v)] for v in (g.root, *g.hidden)],
            }
            for g in graph.groups
        ]
    return {
        "nodes": nodes,
        "edges": edges,
        "forward": forward,
        "backward": backward,
        "groups": groups,
    }


def explore(text, values=None) -> dict:
    """Everything the explorer shows for `text` with the variables set to `values`.

    Returns {"ok": True, "expression", "variables": [{"name", "value"}], "trace" (the
    engine's `trace` of the root after backward), "views": {"derived", "primitive"}}
    or {"ok": False, "error": {"message", "start", "end"}}. Never raises for bad input.
    """
    try:
        graph = build(text, values)
        root = graph.root
        root.backward()
        data = trace(root)
        for node in data["nodes"]:
            if not math.isfinite(node["grad"]):
                raise ExpressionError(
                    f"the gradient of {node['label'] or 'a node'} is too large for a float here; "
                    "use smaller values",
                    0,
                    len(text),
                )
        ids = {id(v): i for i, v in enumerate(root.topological_order())}
    except ExpressionError as exc:
        return {"ok": False, "error": exc.to_dict()}
    return {
        "ok": True,
        "expression": label(graph.tree),
        "variables": [{"name": n, "value": graph.leaves[n].data} for n in graph.names],
        "trace": data,
        "views": {
            "derived": _view(graph, data, ids, derived=True),
            "primitive": _view(graph, data, ids, derived=False),
        },
    }

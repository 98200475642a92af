"""`parse(text)`: a learner's expression, checked against a whitelist; nothing runs.

The text is parsed with Python's own parser (`ast.parse`, which only reads) and every
node of the tree is checked against a short whitelist: numbers, variables (one letter,
optionally followed by digits: a, x, w1), `+ - * / **`, unary minus, parentheses and the calls `relu(x)`, `exp(x)`, `log(x)`,
`tanh(x)`. Anything else is refused with an `ExpressionError` that says where and
why. What is accepted becomes a tree of our own (explorer.tree).
"""

from __future__ import annotations

import ast
import math
import re
import warnings

from .errors import ExpressionError
from .tree import BinOp, Call, Neg, Num, Pow, Var, shifted

__all__ = ["FUNCTIONS", "MAX_LENGTH", "parse"]

FUNCTIONS = ("relu", "exp", "log", "tanh")
MAX_LENGTH = 200  # characters: longer expressions do not fit a readable drawing

_ALLOWED = "numbers, variables such as a, x or w1, + - * / **, parentheses and relu(), exp(), log(), tanh()"
# A variable is one ASCII letter, optionally followed by digits: a, x, W, x1, w12. Digits
# let a lesson number its inputs and weights (w1*x1 + w2*x2) as its formulas do.
_VARIABLE = re.compile(r"[A-Za-z][0-9]*")
_VARIABLE_RULE = "a variable is one letter, optionally followed by digits, such as a, x or w1"


def is_variable(name: str) -> bool:
    """True for a name the explorer reads as a variable (a, x, w1)."""
    return bool(_VARIABLE.fullmatch(name))


def _grouped(text, node):
    """`text` in parentheses unless it is one name, number or call (for a hint's formula)."""
    return text if type(node) in (ast.Name, ast.Constant, ast.Call) else f"({text})"


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
# Each refusal: its words, and its key among the page's messages (explorer.error.*).
_REFUSED_BINOPS = {
    ast.FloorDiv: ("// (floor division) is not an operation of the engine: use /", "floorDivision"),
    ast.Mod: ("% (remainder) is not an operation of the engine", "remainder"),
    ast.MatMult: ("@ (matrix product) is not an operation on single numbers: use *", "matmul"),
    ast.BitXor: ("^ is not a power in Python: write a**2 for a squared", "caret"),
    ast.BitAnd: ("& is not an operation of the engine", "bitAnd"),
    ast.BitOr: ("| is not an operation of the engine", "bitOr"),
    ast.LShift: ("<< is not an operation of the engine", "shiftLeft"),
    ast.RShift: (">> is not an operation of the engine", "shiftRight"),
}
_REFUSED_NODES = {
    ast.Attribute: (
        "attributes such as x.y are not allowed: call functions as relu(a), exp(a)",
        "attribute",
    ),
    ast.Subscript: ("indexing such as x[0] is not allowed", "indexing"),
    ast.Compare: ("comparisons are not allowed: the explorer builds arithmetic only", "compare"),
    ast.BoolOp: ("and/or are not allowed: the explorer builds arithmetic only", "andOr"),
    ast.IfExp: ("if/else is not allowed: the explorer builds arithmetic only", "ifElse"),
    ast.Lambda: ("lambda is not allowed", "lambda"),
    ast.NamedExpr: (":= is not allowed", "walrus"),
    ast.Tuple: ("a comma or empty parentheses make a tuple: type one expression", "tuple"),
    ast.List: ("lists are not allowed", "list"),
    ast.Dict: ("dicts are not allowed", "dict"),
    ast.Set: ("sets are not allowed", "set"),
    ast.JoinedStr: ("text in quotes is not an expression here", "text"),
    ast.Starred: ("* unpacking is not allowed", "unpacking"),
}


def _refusal(message, start=0, end=None, key=None, **values):
    """ExpressionError with the page's message explorer.error.`key` and its `values`."""
    return ExpressionError(message, start, end, f"explorer.error.{key}", values)


def _name_hint(name: str) -> tuple[str, str, dict]:
    """What the learner probably meant by a refused name: a product, or w1 for w_1; with the
    key of the page's message that says it, and its values."""
    if "_" in name and _VARIABLE.fullmatch(name.replace("_", "")):
        written = name.replace("_", "")
        return f" (write {written}, without the _)", "notVariableUnderscore", {"written": written}
    parts = _VARIABLE.findall(name)
    if 1 < len(parts) <= 6 and "".join(parts) == name:
        product = "*".join(parts)
        return f" (for a product write {product})", "notVariableProduct", {"product": product}
    return "", "notVariable", {}


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

    def fail(self, message: str, node, key: str, **values) -> None:
        """Refuse `node` with `message`, the page's explorer.error.`key` with `values`."""
        start, end = self.span(node)
        raise _refusal(message, start, end, key, **values)

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
        if kind in _REFUSED_NODES:
            message, key = _REFUSED_NODES[kind]
            self.fail(message, node, key)
        snippet = ast.get_source_segment(self.text, node) or type(node).__name__
        self.fail(
            f"{snippet!s} is not allowed here: use {_ALLOWED}", node, "notAllowed", what=snippet
        )

    def number(self, node) -> float:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            if isinstance(value, str):
                self.fail("text in quotes is not an expression here", node, "text")
            if isinstance(value, complex):
                self.fail(
                    "complex numbers are not allowed: the engine works with real numbers",
                    node,
                    "complex",
                )
            self.fail(
                f"{value!r} is not a number: use {_ALLOWED}", node, "notNumber", value=repr(value)
            )
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            self.fail("this number is too large for a float", node, "numberTooLarge")
        return x

    def name(self, node) -> str:
        name = node.id
        if name in FUNCTIONS:
            self.fail(
                f"{name} is a function: call it on something, e.g. {name}(a)",
                node,
                "functionNotCalled",
                name=name,
            )
        if not _VARIABLE.fullmatch(name):
            hint, key, values = _name_hint(name)
            message = f"{name!r} is not a variable: {_VARIABLE_RULE}{hint}"
            self.fail(message, node, key, name=repr(name), **values)
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
        self.fail(
            f"{symbol} is not allowed: the explorer builds arithmetic only",
            node,
            "notArithmetic",
            symbol=symbol,
        )

    def binop(self, node):
        kind = type(node.op)
        if kind is ast.Pow:
            return Pow(self.check(node.left), self.exponent(node.right, node.left), self.span(node))
        if kind in _BINOPS:
            left, right = self.check(node.left), self.check(node.right)
            return BinOp(_BINOPS[kind], left, right, self.span(node))
        start, end = self.operator_span(node)
        message, key = _REFUSED_BINOPS.get(kind, ("this operator is not allowed", "operator"))
        raise _refusal(message, start, end, key)

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
                "exponentVariable",
                exponent=segment,
                power=f"{b_}**{e_}",
                rewritten=f"exp({e_}*log({b}))",
            )
        self.fail(
            "the exponent of ** must be a plain number, such as 2, -1 or 0.5", node, "exponent"
        )

    def call(self, node):
        func = node.func
        if type(func) is ast.Attribute:
            method = func.attr
            if method in FUNCTIONS:
                self.fail(f"write {method}(x) instead of x.{method}()", node, "method", name=method)
            self.fail(_REFUSED_NODES[ast.Attribute][0], node, "attribute")
        if type(func) is ast.Name and _VARIABLE.fullmatch(func.id):
            self.fail(
                f"{func.id} is a variable, not a function: write {func.id}*(...) for a product",
                func,
                "variableCalled",
                name=func.id,
            )
        if type(func) is not ast.Name or func.id not in FUNCTIONS:
            if type(func) is not ast.Name:
                self.fail(
                    "only relu, exp, log and tanh can be called: write * for a product",
                    node,
                    "onlyFunctions",
                )
            self.fail(
                f"{func.id}() is not one of the functions: use relu, exp, log or tanh",
                func,
                "notFunction",
                name=func.id,
            )
        if node.keywords or len(node.args) != 1 or type(node.args[0]) is ast.Starred:
            self.fail(
                f"{func.id}() takes exactly one argument, e.g. {func.id}(a)",
                node,
                "oneArgument",
                name=func.id,
            )
        return Call(func.id, self.check(node.args[0]), self.span(node))


def parse(text: str):
    """Check `text` and return its tree (Var, Num, BinOp, Neg, Pow, Call); nothing runs.

    Raises ExpressionError with the character span of the first problem.
    """
    if not isinstance(text, str):
        kind = type(text).__name__
        raise _refusal(f"the expression must be text, got {kind}", key="notText", type=kind)
    if len(text) > MAX_LENGTH:
        raise _refusal(
            f"the expression is {len(text)} characters long; keep it under {MAX_LENGTH} "
            "so its graph stays readable",
            MAX_LENGTH,
            len(text),
            "tooLong",
            length=len(text),
            max=MAX_LENGTH,
        )
    for i, ch in enumerate(text):
        if ch in "\r\n":
            raise _refusal("write the expression on one line", i, key="oneLine")
        if ch == "\0" or (not ch.isprintable() and ch != "\t"):
            message = f"unexpected control character {ch!r}"
            raise _refusal(message, i, key="controlCharacter", character=repr(ch))
    body = text.lstrip()
    lead = len(text) - len(body)
    if not body.strip():
        message = "type an expression, for example (a + b) * c"
        raise _refusal(message, 0, max(len(text), 1), "empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(body, mode="eval")
    except SyntaxError as exc:
        raise _syntax_error(exc, body, lead) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        message = f"this cannot be read as an expression ({exc})"
        raise _refusal(message, 0, len(text), "unreadable", error=str(exc)) from None
    checker = _Checker(body)
    try:
        checked = checker.check(tree.body)
    except ExpressionError as exc:
        raise ExpressionError(
            exc.message, exc.start + lead, exc.end + lead, exc.key, exc.values
        ) from None
    except RecursionError:
        message = "the expression is nested too deeply"
        raise _refusal(message, 0, len(text), "nestedTooDeeply") from None
    return shifted(checked, lead) if lead else checked


def _syntax_error(exc: SyntaxError, body: str, lead: int) -> ExpressionError:
    msg = exc.msg or "invalid syntax"
    generic = msg == "invalid syntax" or msg.startswith("invalid syntax.")
    tail = body.rstrip()
    if generic and tail and tail[-1] in "+-*/(,^%@":
        # Python points at the start for "a +"; the learner needs the dangling operator.
        i = len(tail) - 1
        while i > 0 and tail[i - 1] == "*" and tail[i] == "*":
            i -= 1
        return _refusal(
            f"the expression ends too early: something must follow {tail[i:]}",
            i + lead,
            len(tail) + lead,
            "endsTooEarly",
            operator=tail[i:],
        )
    start = min(max((exc.offset or 1) - 1, 0), len(body))
    before = body[:start].rstrip()
    if generic and before and (before[-1].isalnum() or before[-1] in "._)") and start < len(body):
        if body[start].isalnum() or body[start] in "(.":
            return _refusal(
                "an operator is missing here: write a*b for a product, a+b for a sum",
                start + lead,
                start + lead + 1,
                "operatorMissing",
            )
    if generic and body[start : start + 1] in ("=", ":"):
        return _refusal(
            "assignments are not allowed: type only the expression, e.g. a*b + c",
            start + lead,
            start + lead + (2 if body[start : start + 2] == ":=" else 1),
            "assignment",
        )
    key, values = "syntax", {"error": msg[0].lower() + msg[1:]}  # Python's own words
    if generic:
        msg = "this is not a complete expression"
        key, values = "incomplete", {}
    # SyntaxError offsets are 1-based characters; 0 or None means "somewhere".
    start = (exc.offset or 1) - 1
    start = min(max(start, 0), len(body))
    end = exc.end_offset - 1 if exc.end_offset and exc.end_offset > exc.offset else start + 1
    if start >= len(body.rstrip()):
        msg = f"{msg}: the expression ends too early"
        key += "AtEnd"
    bracket = re.fullmatch(r"('.') was never closed|unmatched ('.')", msg)
    if bracket:  # Python's words, but common enough for the page to say them in its language
        key = "neverClosed" if bracket[1] else "unmatched"
        values = {"bracket": bracket[1] or bracket[2]}
    if msg.startswith("invalid decimal literal") or msg.startswith("invalid imaginary literal"):
        msg = "a number runs into a letter: write 2*a for a product"
        key, values = "numberRunsIntoLetter", {}
    return _refusal(msg[0].lower() + msg[1:], start + lead, end + lead, key, **values)

"""Canonical text: the label of every node, the sub-expression it computes.

Labels are written compactly, without spaces and without redundant parentheses:
(a+b)*c, relu(a*b), a**2. A label read back by `parse` gives the same label.
"""

from __future__ import annotations

from .tree import BinOp, Neg, Num, Pow, Var

__all__ = ["label", "number_text", "wrapped"]

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


def wrapped(node, at_least: int) -> str:
    """The label of `node`, in parentheses when it binds less tightly than `at_least`."""
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
        return f"{wrapped(node.left, p)}{node.op}{wrapped(node.right, p + 1)}"
    if isinstance(node, Neg):
        return f"-{wrapped(node.operand, 4)}"
    if isinstance(node, Pow):
        return f"{wrapped(node.base, 5)}**{number_text(node.exponent)}"
    return f"{node.func}({label(node.arg)})"

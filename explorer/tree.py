"""The checked tree: what `parse` returns, made only from the parts the explorer accepts.

Every node carries `span`, the (start, end) character range of the text it came from,
so an error found later (a division by zero, say) can underline the right part.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BinOp", "Call", "Neg", "Num", "Pow", "Var", "shifted", "variables"]


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


def shifted(node, by):
    """The same tree with spans moved right by `by` characters (leading spaces)."""
    span = (node.span[0] + by, node.span[1] + by)
    if isinstance(node, (Var, Num)):
        return type(node)(node.value if isinstance(node, Num) else node.name, span)
    if isinstance(node, BinOp):
        return BinOp(node.op, shifted(node.left, by), shifted(node.right, by), span)
    if isinstance(node, Neg):
        return Neg(shifted(node.operand, by), span)
    if isinstance(node, Pow):
        return Pow(shifted(node.base, by), node.exponent, span)
    return Call(node.func, shifted(node.arg, by), span)

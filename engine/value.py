"""`Value`: one number in a computation graph, and the gradient that flows back to it.

Every operation does three things: compute the output, record which Values it came
from (`_children`), and record how much the output moves when each child moves
(`_local_grads`, the local derivatives). `backward()` then applies the chain rule:
every child receives `local_grad * parent.grad`.

Storing numbers instead of a closure per node keeps the graph free of reference
cycles and makes the backward pass a single loop (see the "making it fast" lesson).
"""

import math
from numbers import Real

from .errors import said

__all__ = ["Value", "zero_grad"]


def _as_float(data, what="Value", about="value"):
    """Return `data` as a float, or raise a TypeError that says what was wrong. `what` names
    the number in the English message, `about` its page messages (value.* or exponent.*)."""
    if type(data) is float:
        return data
    if isinstance(data, Value):
        raise said(
            TypeError,
            f"{about}.gotValue",
            f"{what} got a Value ({data!r}); pass a plain number, e.g. its .data.",
            data=repr(data),
        )
    if isinstance(data, Real):
        return float(data)
    raise said(
        TypeError,
        f"{about}.notReal",
        f"{what} needs a real number (int or float), got {data!r} of type "
        f"{type(data).__name__}. Convert it first, e.g. Value(float(x)).",
        data=repr(data),
        type=type(data).__name__,
    )


class Value:
    """A scalar that remembers how it was computed, so gradients can flow back to it.

    `grad` holds d(root)/d(self) after `root.backward()`. Leaf Values (those you
    create yourself, such as weights) *accumulate* gradients across backward calls,
    as in PyTorch: call `zero_grad` (or a module's / optimiser's `zero_grad()`)
    before each new backward pass. Intermediate Values show the gradient of the
    latest pass only.
    """

    __slots__ = ("data", "grad", "_children", "_local_grads", "_op", "label")

    def __init__(self, data, _children=(), _local_grads=(), _op="", label=""):
        self.data = data if type(data) is float else _as_float(data)
        self.grad = 0.0
        self._children = _children
        self._local_grads = _local_grads
        self._op = _op
        self.label = label

    def __repr__(self):
        name = f"{self.label}: " if self.label else ""
        return f"Value({name}data={self.data}, grad={self.grad})"

    # -- primitive operations: value forward, local derivatives for backward ----------

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data), "*")

    def __pow__(self, k):
        if isinstance(k, Value):
            raise said(
                TypeError,
                "value.powValue",
                "Value ** Value is not supported: the exponent would get no gradient. "
                "Use a plain number as the exponent, or write b ** x as (x * math.log(b)).exp().",
            )
        k = _as_float(k, "the exponent of **", "exponent")
        x = self.data
        if x == 0.0 and k < 0:
            raise said(
                ZeroDivisionError,
                "value.zeroToNegative",
                f"0.0 ** {k} is undefined: the base is zero and the power negative.",
                k=k,
            )
        if x == 0.0 and 0 < k < 1:
            raise said(
                ValueError,
                "value.infiniteSlope",
                f"0.0 ** {k} has an infinite slope, so no gradient can flow back: "
                f"keep the base away from zero, e.g. (x + 1e-8) ** {k}.",
                k=k,
            )
        if x < 0.0 and not k.is_integer():
            raise said(
                ValueError,
                "value.notRealPower",
                f"{x} ** {k} is not a real number: a negative base needs a whole-number exponent.",
                x=x,
                k=k,
            )
        try:
            # x ** 0 is 1 everywhere, so its slope is 0 (even at x = 0, where x ** -1 is not).
            local = k * x ** (k - 1) if k != 0.0 else 0.0
            return Value(x**k, (self,), (local,), f"**{k:g}")
        except OverflowError:
            raise said(
                OverflowError,
                "value.powOverflow",
                f"{x} ** {k} is too large for a float. Scale the input down first.",
                x=x,
                k=k,
            ) from None

    def exp(self):
        try:
            e = math.exp(self.data)
        except OverflowError:
            raise said(
                OverflowError,
                "value.expOverflow",
                f"exp({self.data}) is too large for a float (inputs above about 709.78 overflow). "
                "Scale the input down, e.g. subtract the maximum before exp as in softmax.",
                x=self.data,
            ) from None
        return Value(e, (self,), (e,), "exp")

    def log(self):
        x = self.data
        if x <= 0.0:
            raise said(
                ValueError,
                "value.logNotPositive",
                f"log({x}) is undefined: log needs a positive input. "
                "Clamp it first, e.g. add a small epsilon to probabilities.",
                x=x,
            )
        return Value(math.log(x), (self,), (1.0 / x,), "log")

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, (self,), (1.0 - t * t,), "tanh")

    def relu(self):
        x = self.data
        # relu'(0) is taken as 0: a unit exactly at the kink passes no gradient.
        return Value(x if x > 0.0 else 0.0, (self,), (1.0 if x > 0.0 else 0.0,), "relu")

    # -- backward pass -------------------------------------------------------------------

    def topological_order(self):
        """Every Value this one depends on, each after all of its children, self last.

        An iterative depth-first search, so a graph of any depth works (no recursion
        limit). A node is placed once all its children are placed: `None` on the stack
        marks the moment the children of the innermost `waiting` node are done.
        """
        order, seen = [], set()
        waiting = []
        stack = [self]
        while stack:
            node = stack.pop()
            if node is None:
                order.append(waiting.pop())
            elif node not in seen:
                seen.add(node)
                waiting.append(node)
                stack.append(None)
                for child in node._children:
                    if child not in seen:
                        stack.append(child)
        return order

    def backward(self):
        """Fill `.grad` of every Value this one depends on with d(self)/d(that Value).

        Leaves accumulate (`+=`) across calls; zero them between training steps.
        """
        order = self.topological_order()
        for node in order:
            if node._children:
                node.grad = 0.0  # intermediate results hold this pass's gradient only
        self.grad += 1.0
        for node in reversed(order):
            children = node._children
            if children:  # leaves have nothing to pass on
                g = node.grad
                for child, local_grad in zip(children, node._local_grads):
                    child.grad += local_grad * g

    # -- operations built from the primitives above --------------------------------------

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        if not isinstance(other, Value):
            other = _as_float(other)  # a plain constant stays one leaf; a non-number is refused
        return self + (-other)

    def __truediv__(self, other):
        if isinstance(other, Value):
            return self * other**-1.0
        other = _as_float(other)  # a plain constant stays one leaf
        if other == 0.0:
            raise said(
                ZeroDivisionError,
                "value.divideByZero",
                f"{self.data} / {other}: division by zero.",
                x=self.data,
                y=other,
            )
        return self * (1.0 / other)

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return other + (-self)

    def __rtruediv__(self, other):
        return other * self**-1.0

    def __rpow__(self, base):
        raise said(
            TypeError,
            "value.numberPowValue",
            f"{base!r} ** Value is not supported: the exponent would get no gradient. "
            f"Write it as (x * math.log({base!r})).exp() instead.",
            base=repr(base),
        )


def zero_grad(values):
    """Set `.grad` of every Value in `values` back to 0 before a new backward pass."""
    for v in values:
        v.grad = 0.0

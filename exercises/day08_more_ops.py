"""Day 8 · More operations: pow, exp, tanh and relu; neg, sub and div from primitives.

Lesson: docs/lessons/day08_more_ops.md

Each new operation computes its output (written for you) and needs a `_backward`
that adds local derivative * out.grad into the child's .grad:

  x ** k     k * x ** (k - 1)       (k is a plain number, never a Value)
  exp(x)     exp(x), which is out.data
  tanh(x)    1 - tanh(x) ** 2, which is 1 - out.data ** 2
  relu(x)    1 where x > 0, else 0 (also at exactly 0: a dead unit passes nothing back)

Then build -a, a - b and a / b from the operations you already have, with no
_backward of their own: their gradients come for free through + , * and **.

Check your work:  python -m grader --exercise day08_more_ops.py
"""

import math


class Value:
    """A number that remembers the numbers it was computed from."""

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None  # a leaf has nothing to pass back
        self._prev = tuple(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    # -- the primitives of days 5 and 6 -----------------------------------------------

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def backward(self):
        # Count how many times each node is used as an input (once per edge).
        uses, stack = {self: 0}, [self]
        while stack:
            for child in stack.pop()._prev:
                if child not in uses:
                    uses[child] = 0
                    stack.append(child)
                uses[child] += 1
        # An intermediate result holds this pass's gradient only (day 7); leaves add up.
        for v in uses:
            if v._prev:
                v.grad = 0.0
        self.grad += 1.0
        # A node is ready once every node that uses it has passed its gradient back.
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for child in v._prev:
                uses[child] -= 1
                if uses[child] == 0:
                    ready.append(child)

    # -- new operations: you write each _backward -----------------------------------------

    def __pow__(self, k):
        assert isinstance(k, (int, float)), "only a plain number may be the exponent"
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            """The power rule: d(x**k)/dx = k * x**(k-1)."""
            raise NotImplementedError(
                "Day 8: write _backward of **. Read docs/lessons/day08_more_ops.md"
            )

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            """exp is its own derivative."""
            raise NotImplementedError(
                "Day 8: write _backward of exp. Read docs/lessons/day08_more_ops.md"
            )

        out._backward = _backward
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), (self,), "tanh")

        def _backward():
            """d tanh(x)/dx = 1 - tanh(x)**2."""
            raise NotImplementedError(
                "Day 8: write _backward of tanh. Read docs/lessons/day08_more_ops.md"
            )

        out._backward = _backward
        return out

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")

        def _backward():
            """The gate: gradient passes where the input was positive, nowhere else."""
            raise NotImplementedError(
                "Day 8: write _backward of relu. Read docs/lessons/day08_more_ops.md"
            )

        out._backward = _backward
        return out

    # -- built from primitives: no _backward of their own ------------------------------

    def __neg__(self):
        """-a, built from *."""
        raise NotImplementedError(
            "Day 8: build __neg__ from *. Read docs/lessons/day08_more_ops.md"
        )

    def __sub__(self, other):
        """a - b, built from + and neg."""
        raise NotImplementedError(
            "Day 8: build __sub__ from + and neg. Read docs/lessons/day08_more_ops.md"
        )

    def __truediv__(self, other):
        """a / b, built from * and ** -1."""
        raise NotImplementedError(
            "Day 8: build __truediv__ from * and **. Read docs/lessons/day08_more_ops.md"
        )

    def __rsub__(self, other):  # 2 - a
        return other + (-self)

    def __rtruediv__(self, other):  # 2 / a
        return other * self**-1


if __name__ == "__main__":
    x, y = Value(1.5), Value(-0.5)
    L = (x / y - x.exp()).tanh() + (x - 2 * y).relu() ** 2
    L.backward()
    print(f"L = {L.data:.6f}, dL/dx = {x.grad:.6f}, dL/dy = {y.grad:.6f}")

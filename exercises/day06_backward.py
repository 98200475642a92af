"""Day 6 · Topological order and backward().

Lesson: docs/lessons/day06_backward.md

Your `Value` now knows its local derivatives: the `_backward` of + and * (day 5) are
written, and so is a ready-made tanh, whose local derivative day 8 explains. What is
missing is the loop that runs them in the right order:

  topological_order()  every Value this one depends on, each listed once and only
                       after all of its children; self comes last.
  backward()           set self.grad to 1, then call _backward of every node in the
                       reverse of that order, so a node passes its gradient on only
                       once everything that feeds on it has passed theirs.

Check your work:  python -m grader --exercise day06_backward.py
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

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1.0 - t * t) * out.grad

        out._backward = _backward
        return out

    def topological_order(self):
        """Return a list of every Value self depends on (self included), children first."""
        # your code: a depth-first search that appends a node after all of its children
        raise NotImplementedError(
            "Day 6: write topological_order. Read docs/lessons/day06_backward.md"
        )

    def backward(self):
        """Fill .grad of every Value self depends on with d(self)/d(that Value)."""
        # your code: seed self.grad, then run every _backward in reverse topological order
        raise NotImplementedError("Day 6: write backward. Read docs/lessons/day06_backward.md")


if __name__ == "__main__":
    a = Value(0.5)
    b = a * a  # a feeds b twice, and c feeds on both a and b: a diamond
    c = (b + a).tanh()
    c.backward()
    print([v._op or "leaf" for v in c.topological_order()])  # children before parents
    print(f"dc/da = {a.grad:.6f} (expect {(1 - math.tanh(0.75) ** 2) * 2.0:.6f})")

"""Day 3 · A Value that remembers its children and its operation.

Lesson: docs/lessons/day03_value.md

Every Value keeps its number (.data), the Values it was computed from (._prev, a
tuple; empty for a leaf), the operation that made it (._op, "+" or "*"; "" for a
leaf) and an optional name (.label). Write:

  a + b, a * b   new Values whose _prev is (a, b) and whose _op is "+" or "*"
  2 + a, a * 2   plain numbers on either side are wrapped in a Value first
  expression(v)  the formula that made v, rebuilt from the graph:
                 a leaf gives its label (or f"{v.data:g}" when it has none),
                 any other node "(" + left + " " + op + " " + right + ")",
                 e.g. "((a * b) + c)" for a * b + c.

Check your work:  python -m grader --exercise day03_value.py
"""


class Value:
    """A number that remembers the numbers it was computed from."""

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = float(data)
        self._prev = tuple(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        name = f"{self.label}: " if self.label else ""
        return f"Value({name}data={self.data})"

    def __add__(self, other):
        """self + other, remembering both operands and the operation "+"."""
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        """self * other, remembering both operands and the operation "*"."""
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), "*")

    def __radd__(self, other):
        """other + self, when other is a plain number (2 + a)."""
        return Value(other) + self

    def __rmul__(self, other):
        """other * self, when other is a plain number (2 * a)."""
        return Value(other) * self


def expression(v):
    """The formula that produced v, as text, e.g. "((a * b) + c)"."""
    # your code: a leaf is its own text; any other node wraps its two children's texts
    if not v._prev:
        return v.label or f"{v.data:g}"
    left, right = v._prev
    return f"({expression(left)} {v._op} {expression(right)})"


if __name__ == "__main__":
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    d = a * b + c
    print(d, d._op, d._prev)  # Value(data=4.0) + (Value(data=-6.0), Value(c: data=10.0))
    print(expression(d))  # ((a * b) + c)
    print(expression(2 * a + 1))  # ((2 * a) + 1)

"""Day 5 · The distributor and the swapper: `_backward` of add and mul.

Lesson: docs/lessons/day05_add_mul.md

This is your own small `Value`. Its forward pass is written, and so is `backward()`
(you will write that yourself on day 6). Your job: the two `_backward` functions.

  out = a + b   the distributor: a and b each receive out.grad, unchanged.
  out = a * b   the swapper: a receives b.data * out.grad, b receives a.data * out.grad.

Always ADD (+=) into a child's .grad: a Value used twice must collect both shares.

Check your work:  python -m grader --exercise day05_add_mul.py
"""


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
            """Pass out.grad on to self and to other (the distributor)."""
            # your code: two lines, one per child
            for child in (self, other):
                child.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            """Give each factor the other factor times out.grad (the swapper)."""
            # your code: two lines, one per child
            self.grad += out.grad * other.data
            other.grad += out.grad * self.data

        out._backward = _backward
        return out

    def __radd__(self, other):  # 2 + a
        return self + other

    def __rmul__(self, other):  # 2 * a
        return self * other

    def backward(self):
        """Given: call every node's _backward, each after all the nodes it feeds into."""
        # Count how many times each node is used as an input (once per edge).
        uses, stack = {self: 0}, [self]
        while stack:
            for child in stack.pop()._prev:
                if child not in uses:
                    uses[child] = 0
                    stack.append(child)
                uses[child] += 1
        # A node is ready once every node that uses it has passed its gradient back.
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for child in v._prev:
                uses[child] -= 1
                if uses[child] == 0:
                    ready.append(child)


if __name__ == "__main__":
    a, b = Value(2.0), Value(-3.0)
    L = a * b + a
    L.backward()
    print(f"L = {L.data}, dL/da = {a.grad} (expect -2.0), dL/db = {b.grad} (expect 2.0)")

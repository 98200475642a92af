"""Day 7 · The accumulation trap: gradients add up.

Lesson: docs/lessons/day07_accumulation.md

When a value reaches the output along several roads, its gradient is the SUM over
the roads, and along each road the local ratios MULTIPLY. Write:

  gradient_by_roads(roads)      roads is a list of roads, each a list of the local
                                ratios along it; return the sum over the roads of the
                                product of each road's ratios.
  challenge_gradients(a, b, c)  (dL/da, dL/db, dL/dc) for L = (a*b + c) * (a + b),
                                worked out on paper: plain arithmetic, no Value.
  zero_grad(values)             set .grad of every Value in values back to 0.0, so
                                that the next backward() starts from nothing.

Check your work:  python -m grader --exercise day07_accumulation.py
"""

from engine import Value


def gradient_by_roads(roads):
    """Sum over the roads of the product of the local ratios along each road."""
    total = 0.0
    for road in roads:
        product = 1.0
        for ratio in road:
            product *= ratio
        total += product
    return total


def challenge_gradients(a, b, c):
    """(dL/da, dL/db, dL/dc) for L = (a*b + c) * (a + b), as three floats."""
    # your code: name u = a*b + c and s = a + b; then follow every road to L
    u = a * b + c
    s = a + b
    return s * b + u, s * a + u, s


def zero_grad(values):
    """Set .grad of every Value in `values` to 0.0."""
    for v in values:
        v.grad = 0.0


if __name__ == "__main__":
    # d = a*b + a at a = 2, b = 3: a reaches d directly (ratio 1) and through a*b (ratios 3, 1)
    print(gradient_by_roads([[1.0], [3.0, 1.0]]), "(expect 4.0)")
    print(challenge_gradients(2.0, -3.0, 10.0), "(expect (7.0, 2.0, -1.0))")
    a, b = Value(2.0), Value(3.0)
    d = a * b + a
    d.backward()
    d.backward()
    zero_grad([a, b])
    d.backward()
    print(a.grad, b.grad, "(expect 4.0 2.0)")

"""Day 4 · The backward pass by hand.

Lesson: docs/lessons/day04_manual_backward.md

For L = (a * b + c) * f, with e = a * b and d = e + c, work out every gradient with
the chain rule, as plain arithmetic on floats (no Value, no backward()):

  manual_gradients(a, b, c, f)  {"L": dL/dL, "d": dL/dd, "f": dL/df, "e": dL/de,
                                 "c": dL/dc, "a": dL/da, "b": dL/db}
  one_step(a, b, c, f, step)    move a, b, c and f by step * (their gradient), then
                                return L computed again at the new values.

At a = 2, b = -3, c = 10, f = -2: L = -8, the gradients of a, b, c, f are 6, -4, -2, 4,
and one_step(..., 0.01) returns -7.286496 (to rounding).

Check your work:  python -m grader --exercise day04_manual_backward.py
"""


def forward(a, b, c, f):
    """Given: L = (a * b + c) * f."""
    return (a * b + c) * f


def manual_gradients(a, b, c, f):
    """Every dL/d(node) of L = (a * b + c) * f, from the output back to the leaves."""
    # your code: start from dL/dL = 1.0; each line uses only gradients already known
    raise NotImplementedError(
        "Day 4: write manual_gradients. Read docs/lessons/day04_manual_backward.md"
    )


def one_step(a, b, c, f, step):
    """L after moving every leaf by step * its gradient (gradients taken at the old point)."""
    raise NotImplementedError("Day 4: write one_step. Read docs/lessons/day04_manual_backward.md")


if __name__ == "__main__":
    print(manual_gradients(2.0, -3.0, 10.0, -2.0))
    print(f"{one_step(2.0, -3.0, 10.0, -2.0, 0.01):.6f} (expect -7.286496)")

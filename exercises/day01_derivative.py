"""Day 1 · The derivative as a sensitivity dial, measured by nudging.

Lesson: docs/lessons/day01_derivative.md

Turn the dial x by a small h and watch the needle f(x) move:

  forward_difference(f, x, h)     (f(x + h) - f(x)) / h            error ~ h
  central_difference(f, x, h)     (f(x + h) - f(x - h)) / (2 h)    error ~ h**2
  partial_derivative(f, inputs, i, h)
      the central difference of f(*inputs) when only inputs[i] is turned;
      every other input stays where it is, and `inputs` itself is not changed.

Check your work:  python -m grader --exercise day01_derivative.py
"""


def forward_difference(f, x, h=1e-5):
    """Slope of f at x from f(x) and f(x + h)."""
    raise NotImplementedError(
        "Day 1: write forward_difference. Read docs/lessons/day01_derivative.md"
    )


def central_difference(f, x, h=1e-5):
    """Slope of f at x from f(x + h) and f(x - h)."""
    raise NotImplementedError(
        "Day 1: write central_difference. Read docs/lessons/day01_derivative.md"
    )


def partial_derivative(f, inputs, i, h=1e-5):
    """Slope of f(*inputs) along inputs[i] alone (central difference)."""
    # your code: two copies of inputs, one with inputs[i] + h and one with inputs[i] - h
    raise NotImplementedError(
        "Day 1: write partial_derivative. Read docs/lessons/day01_derivative.md"
    )


if __name__ == "__main__":

    def f(x):
        return 3 * x**2 - 4 * x + 5

    print(f"forward: {forward_difference(f, 3.0, 0.001):.6f} (expect 14.003)")
    print(f"central: {central_difference(f, 3.0, 0.001):.6f} (expect 14.000)")
    print(
        f"dd/da:   {partial_derivative(lambda a, b, c: a * b + c, [2.0, -3.0, 10.0], 0):.6f} (expect -3)"
    )

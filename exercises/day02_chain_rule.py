"""Day 2 · The chain rule as gear ratios.

Lesson: docs/lessons/day02_chain_rule.md

A chain is a list of links; each link is a pair (f, df): f computes the next value
from the current one, and df(v) is the link's local ratio (its derivative) at the
value v that goes IN to the link. For x0 = x and x_k = f_k(x_{k-1}):

  chain_derivative(links, x)   (x_n, d x_n / d x), walking forwards: the ratios multiply.
  sensitivities(links, x)      [d x_n / d x_0, d x_n / d x_1, ..., d x_n / d x_n = 1.0],
                               walking backwards from the output.

Check your work:  python -m grader --exercise day02_chain_rule.py
"""


def chain_derivative(links, x):
    """Return (output, derivative of the output with respect to x)."""
    # your code: carry the value and the running product of the ratios together
    raise NotImplementedError(
        "Day 2: write chain_derivative. Read docs/lessons/day02_chain_rule.md"
    )


def sensitivities(links, x):
    """Return the sensitivity of the output to every value of the chain, input first."""
    # your code: a forward pass that keeps every value, then a backward sweep from 1.0
    raise NotImplementedError("Day 2: write sensitivities. Read docs/lessons/day02_chain_rule.md")


if __name__ == "__main__":
    gears = [
        (lambda v: v**2, lambda v: 2 * v),  # y = x^2
        (lambda v: 3 * v + 1, lambda v: 3.0),  # z = 3y + 1
        (lambda v: -2 * v, lambda v: -2.0),  # w = -2z
    ]
    print(chain_derivative(gears, 2.0), "(expect (-26.0, -24.0))")
    print(sensitivities(gears, 2.0), "(expect [-24.0, -6.0, -2.0, 1.0])")

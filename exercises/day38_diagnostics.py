"""Day 38 · Looking inside training: saturation, spread and the update-to-data ratio.

Lesson: docs/lessons/day38_diagnostics.md

Everything here works on plain lists of floats.

1. saturation(hs, threshold=0.97): the share of the numbers of hs whose size is
   strictly above threshold, |h| > threshold: a number from 0 to 1.
2. std(xs): the standard deviation of xs, dividing by n = len(xs):
       sigma = sqrt( (1/n) * sum over i of (x_i - mu)^2 ),  mu = (1/n) * sum over i of x_i
3. update_ratio(before, after): one step's update-to-data ratio,
       r = log10( sigma(after - before) / sigma(before) )
   with after - before taken number by number. (before's numbers are not all equal,
   so sigma(before) > 0; the step is not 0.)

Check your work:  python -m grader --exercise day38_diagnostics.py
"""

import math  # noqa: F401 (the code you write uses it)


def saturation(hs, threshold=0.97):
    """The share of the numbers with abs(h) > threshold."""
    raise NotImplementedError("Day 38: write saturation. Read docs/lessons/day38_diagnostics.md")


def std(xs):
    """The standard deviation of xs, dividing by len(xs)."""
    raise NotImplementedError("Day 38: write std. Read docs/lessons/day38_diagnostics.md")


def update_ratio(before, after):
    """log10(std(after - before) / std(before))."""
    raise NotImplementedError("Day 38: write update_ratio. Read docs/lessons/day38_diagnostics.md")


if __name__ == "__main__":
    print(round(saturation([0.99, -0.5, 0.97, -0.98, 0.1, 0.2]), 4))  # expect 0.3333
    print(round(std([1.0, -1.0, 2.0, -2.0]), 4))  # expect 1.5811
    print(round(update_ratio([1.0, -1.0, 2.0, -2.0], [1.01, -1.01, 2.02, -1.99]), 4))
    # expect -2.1617

"""Numbers to watch while a model trains (day 38): activations, gradients, updates.

Each function takes a Tensor or a plain list of numbers.

    h = model.hidden(xb)
    saturation(h)                 # the share of tanh outputs with |h| > 0.97
    std(model.W1.grad)            # the typical size of W1's gradient
    before = copy_data(model.parameters()); optimizer.step()
    update_ratio(before[1], model.W1)    # log10(std(update) / std(data)) of W1

`std` divides by n, the number of values (torch.Tensor.std divides by n - 1 unless told
otherwise). In `update_ratio` the choice cancels: both standard deviations are taken
over the same number of values.
"""

import math

from .errors import said

__all__ = ["mean", "std", "saturation", "update_ratio", "histogram", "copy_data"]


def _numbers(xs, what="values"):
    data = getattr(xs, "data", xs)
    try:
        data = [float(x) for x in data]
    except TypeError:
        raise said(
            TypeError,
            "diagnostics.notNumbers",
            f"{what} must be a Tensor or a list of numbers, got {xs!r:.60}",
            what=what,
            xs=f"{xs!r:.60}",
        ) from None
    if not data:
        raise said(
            ValueError,
            "diagnostics.empty",
            f"{what} is empty: there is nothing to measure",
            what=what,
        )
    return data


def mean(xs):
    """The average of the numbers."""
    data = _numbers(xs)
    return math.fsum(data) / len(data)


def std(xs):
    """The standard deviation: the square root of the average squared distance from the mean."""
    data = _numbers(xs)
    mu = math.fsum(data) / len(data)
    return math.sqrt(math.fsum((x - mu) ** 2 for x in data) / len(data))


def saturation(h, threshold=0.97):
    """The share of the numbers of `h` whose size is above `threshold`: for tanh outputs, the
    neurons in a flat part of tanh, where 1 - h**2 < 1 - threshold**2 lets little gradient back."""
    data = _numbers(h, "h")
    return sum(abs(x) > threshold for x in data) / len(data)


def update_ratio(before, after):
    """log10(std(after - before) / std(before)): how big one step was, next to the numbers it
    changed. `before` is a copy of the data taken before the step (see `copy_data`)."""
    old, new = _numbers(before, "before"), _numbers(after, "after")
    if len(old) != len(new):
        raise said(
            ValueError,
            "diagnostics.lengths",
            f"before has {len(old)} numbers and after {len(new)}: give the same tensor",
            before=len(old),
            after=len(new),
        )
    spread = std(old)
    if spread == 0:
        raise said(
            ValueError,
            "diagnostics.zeroSpread",
            "the data's standard deviation is 0 (a bias that starts at 0?): the ratio is undefined",
        )
    step = std([b - a for a, b in zip(old, new)])
    return math.log10(step / spread) if step > 0 else float("-inf")


def histogram(xs, bins=40, lo=None, hi=None):
    """(centres, shares): `bins` equal bins from lo to hi (default: the smallest and largest
    number), each with the share of the numbers that fall in it. Numbers outside are left out;
    hi itself goes in the last bin. Plot the shares against the centres as a line."""
    data = _numbers(xs)
    lo = min(data) if lo is None else lo
    hi = max(data) if hi is None else hi
    if not bins >= 1 or not hi > lo:
        raise said(
            ValueError,
            "diagnostics.histogram",
            f"a histogram needs bins >= 1 and hi > lo, got {bins}, {lo}, {hi}",
            bins=bins,
            lo=lo,
            hi=hi,
        )
    width = (hi - lo) / bins
    counts = [0] * bins
    for x in data:
        if lo <= x <= hi:
            counts[min(int((x - lo) / width), bins - 1)] += 1
    centres = [lo + (i + 0.5) * width for i in range(bins)]
    return centres, [c / len(data) for c in counts]


def copy_data(params):
    """A plain copy of each parameter's numbers (a list of lists), to compare with after a step.

    (Not to be confused with day 26's `engine.snapshot.snapshot`, a picture of a GPT in training.)
    """
    return [list(p.data) for p in params]

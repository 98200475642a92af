"""Learning-rate schedules: how the rate changes over a run (day 36).

The course's schedule is a linear warmup followed by a decay to a floor, as in nanoGPT:

    rate
    lr_max |    .---.._
           |   /       ``-._            cosine (default) or a straight line
           |  /              ``-._
    lr_min | /                     ``---
           +--------------------------------> step
             0   warmup                 steps

    from engine.schedule import lr_at
    for step in range(steps):
        optimizer.lr = lr_at(step, warmup=20, steps=steps, lr_max=0.01, lr_min=0.001)
        ...

>>> [round(lr_at(s, 2, 10, 1.0), 4) for s in (0, 1, 2, 6, 10)]
[0.5, 1.0, 1.0, 0.5, 0.0]
"""

import math

from .errors import said

__all__ = ["lr_at"]

DECAYS = ("cosine", "linear", "constant")


def lr_at(step, warmup, steps, lr_max, lr_min=0.0, decay="cosine"):
    """The learning rate at `step` (counting from 0) of a run of `steps` steps.

    Warmup: during the first `warmup` steps the rate grows in a straight line,
    lr_max * (step + 1) / warmup, so step warmup - 1 is the first at lr_max.
    Decay: from step `warmup` to step `steps` the rate falls from lr_max to lr_min,
    along half a cosine (`decay="cosine"`), a straight line ("linear"), or not at all
    ("constant"); at and after `steps` it stays at lr_min.
    """
    if not (isinstance(warmup, int) and isinstance(steps, int)) or not 0 <= warmup < steps:
        raise said(
            ValueError,
            "schedule.warmup",
            f"need whole numbers 0 <= warmup < steps, got warmup={warmup!r}, steps={steps!r}",
            warmup=repr(warmup),
            steps=repr(steps),
        )
    if step < 0:
        raise said(
            ValueError, "schedule.step", f"step counts from 0, got {step!r}", step=repr(step)
        )
    if not 0 <= lr_min <= lr_max:
        raise said(
            ValueError,
            "schedule.lrRange",
            f"need 0 <= lr_min <= lr_max, got lr_min={lr_min!r}, lr_max={lr_max!r}",
            lr_min=repr(lr_min),
            lr_max=repr(lr_max),
        )
    if decay not in DECAYS:
        raise said(
            ValueError,
            "schedule.decay",
            f"decay must be one of {DECAYS}, got {decay!r}",
            decays=DECAYS,
            decay=repr(decay),
        )
    if step < warmup:
        return lr_max * (step + 1) / warmup
    if step >= steps:
        return lr_min
    progress = (step - warmup) / (steps - warmup)  # 0 at the end of warmup, 1 at `steps`
    if decay == "constant":
        return lr_max
    if decay == "linear":
        return lr_max - (lr_max - lr_min) * progress
    return lr_min + (lr_max - lr_min) * 0.5 * (1.0 + math.cos(math.pi * progress))

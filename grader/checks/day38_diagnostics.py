"""Checks of exercises/day38_diagnostics.py: saturation, a standard deviation, and the
update-to-data ratio.

The three have closed forms, computed here with math.fsum. Likely bugs (>= at the
threshold, one side only, n - 1, the variance without its square root, no log10, the
natural log, the ratio turned over, the spread of `after` instead of `before`) are
recognised by their values.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 38: saturation, spread and the update-to-data ratio")
ENGINE = {}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case(
            "saturation",
            "the lesson's six activations",
            hs=[0.99, -0.5, 0.97, -0.98, 0.1, 0.2],
            threshold=0.97,
        ),
        case("saturation", "none saturated", hs=[0.5, -0.2, 0.0, 0.96], threshold=0.97),
        case(
            "saturation",
            "another threshold, both signs",
            hs=[-0.995, 0.999, 0.9, -0.99, 0.99],
            threshold=0.99,
        ),
        case("std", "the lesson's weights", xs=[1.0, -1.0, 2.0, -2.0]),
        case("std", "a mean that is not 0", xs=[3.0, 5.0, 7.0]),
        case(
            "ratio",
            "the lesson's step",
            before=[1.0, -1.0, 2.0, -2.0],
            after=[1.01, -1.01, 2.02, -1.99],
        ),
        case(
            "ratio",
            "a step of a thousandth",
            before=[0.5, -0.25, 0.75, 0.0],
            after=[0.5005, -0.2505, 0.7505, 0.0005],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^20 or more each: 6 to 20 activations in [-1, 1] to 4 decimals with a threshold in "
    "[0.9, 0.99] to 3 (one activation exactly on it, 1 to n // 3 above it on each side); 3 to 10 "
    "numbers in [-3, 3] to 3 decimals; 3 to 10 weights in [-2, 2] to 3 decimals and steps of "
    "size 10^-4 to 10^-1 to 6 decimals"
)


def _nonzero(rng, lo, hi, places=3):
    return uniform(rng, lo, hi, places) or hi / 2


def hidden_cases(rng):
    threshold = uniform(rng, 0.9, 0.99)
    n = rng.randint(6, 20)
    hs = [uniform(rng, -1, 1, 4) for _ in range(n)]
    # 1 to n // 3 saturated on each side (not always one: 2 / n would pass most seeds)
    ups, downs = rng.randint(1, n // 3), rng.randint(1, n // 3)
    *flat, edge = rng.sample(range(n), ups + downs + 1)
    for k, i in enumerate(flat):
        hs[i] = uniform(rng, threshold + 0.001, 0.9999, 4) * (1 if k < ups else -1)
    hs[edge] = threshold * rng.choice((1, -1))
    xs = [_nonzero(rng, -3, 3) for _ in range(rng.randint(3, 10))]
    before = [_nonzero(rng, -2, 2) for _ in range(rng.randint(3, 10))]
    size = 10 ** uniform(rng, -4, -1, 2)
    after = [round(b + size * rng.uniform(-1, 1), 6) for b in before]
    return [
        case(
            "saturation",
            "random activations, one on the threshold",
            public=False,
            hs=hs,
            threshold=threshold,
        ),
        case("std", "random numbers", public=False, xs=xs),
        case("ratio", "a random step", public=False, before=before, after=after),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _std(xs, ddof=0):
    mu = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mu) ** 2 for x in xs) / (len(xs) - ddof))


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "saturation":
        hs, threshold = inputs["hs"], inputs["threshold"]
        setup = f"hs = {hs}, threshold = {threshold}"
        n = len(hs)
        right = sum(abs(h) > threshold for h in hs) / n
        bugs = [
            (
                sum(abs(h) >= threshold for h in hs) / n,
                msg("a number exactly at the threshold is not above it: use abs(h) > threshold"),
            ),
            (
                sum(h > threshold for h in hs) / n,
                msg("count both sides: abs(h) > threshold, the neurons near -1 are as flat"),
            ),
            (
                float(sum(abs(h) > threshold for h in hs)),
                msg("return the share (count / len(hs)), not the count"),
            ),
        ]
        bugs = [(v, a) for v, a in bugs if abs(v - right) > 1e-12]
        return Expectation(
            [Want("saturation", right, CLOSED, setup, bugs, label=msg("saturation"))]
        )
    if kind == "std":
        xs = inputs["xs"]
        setup = f"xs = {xs}"
        right = _std(xs)
        bugs = [
            (_std(xs, 1), msg("divide by n = len(xs), not n - 1")),
            (right**2, msg("this is the variance: take its square root")),
        ]
        return Expectation([Want("std", right, CLOSED, setup, bugs, label=msg("std"))])
    before, after = inputs["before"], inputs["after"]
    setup = f"before = {before}, after = {after}"
    step = _std([b - a for a, b in zip(before, after)])
    spread = _std(before)
    right = math.log10(step / spread)
    bugs = [
        (step / spread, msg("take math.log10 of the ratio")),
        (math.log(step / spread), msg("use the base-10 logarithm, math.log10, not math.log")),
        (-right, msg("the ratio is std(update) / std(before), not the other way round")),
        (
            math.log10(step / _std(after)),
            msg("divide by the spread of the numbers BEFORE the step"),
        ),
    ]
    return Expectation([Want("ratio", right, CLOSED, setup, bugs, label=msg("ratio"))])

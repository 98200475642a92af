"""Checks of exercises/day04_manual_backward.py: the gradients of L = (a*b + c)*f by hand.

The judge uses the closed forms dL/da = b f, dL/db = a f, dL/dc = f, dL/df = a b + c,
dL/de = dL/dd = f, and for one_step the forward pass at the moved point.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 4: the backward pass by hand")
ENGINE = {}
ENGINE_BY_KIND = {}

SEED = {"a": 2.0, "b": -3.0, "c": 10.0, "f": -2.0}
NAMES = ("L", "d", "f", "e", "c", "a", "b")


def public_cases():
    return [
        case("grads", "the lesson's point a = 2, b = -3, c = 10, f = -2", **SEED),
        case("grads", "another point: a = 0.5, b = 4, c = -1, f = 3", a=0.5, b=4.0, c=-1.0, f=3.0),
        case("step", "one step of 0.01 from the lesson's point", step=0.01, **SEED),
        case("step", "one step of -0.01 (downhill) from the lesson's point", step=-0.01, **SEED),
    ]


HIDDEN_SPACE = "≈10^15 each: a, b, c, f in [-4, 4] to 3 decimals (and a step in ±0.05 to 4)"


def hidden_cases(rng):
    def point():
        return {k: uniform(rng, -4, 4) or 1.0 for k in "abcf"}

    def step():
        return uniform(rng, -0.05, 0.05, 4) or 0.01

    return [
        case("grads", "a random point", public=False, **point()),
        case("grads", "another random point", public=False, **point()),
        case("step", "a random step from a random point", public=False, step=step(), **point()),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _grads(a, b, c, f):
    return {"L": 1.0, "d": f, "f": a * b + c, "e": f, "c": f, "a": b * f, "b": a * f}


def expect(case):
    inp = case["inputs"]
    a, b, c, f = inp["a"], inp["b"], inp["c"], inp["f"]
    setup = msg("a = {a}, b = {b}, c = {c}, f = {f}", a=a, b=b, c=c, f=f)
    g = _grads(a, b, c, f)
    if case["kind"] == "step":
        s = inp["step"]
        moved = [x + s * g[n] for x, n in zip((a, b, c, f), "abcf")]
        expected = (moved[0] * moved[1] + moved[2]) * moved[3]
        back = [x - s * g[n] for x, n in zip((a, b, c, f), "abcf")]
        bugs = [
            (
                (back[0] * back[1] + back[2]) * back[3],
                msg("the leaves moved against their gradients: move each by +step * gradient"),
            ),
            (
                (a * b + c) * f,
                msg("L did not change: recompute the forward pass at the moved values"),
            ),
        ]
        return Expectation(
            [
                Want(
                    "L after the step",
                    expected,
                    CLOSED,
                    msg("{setup}, step = {step}", setup=setup, step=s),
                    bugs,
                    label=msg("L after the step"),
                )
            ]
        )
    swap = msg("the gradient of a product is the OTHER factor times the gradient above")
    no_up = msg("multiply the local ratio by the gradient of the node above (the chain rule)")
    bugs = {
        "L": [(0.0, msg("dL/dL is 1.0: L moves exactly as much as L"))],
        "d": [(a * b + c, swap)],
        "f": [(f, swap)],
        "e": [(1.0, no_up)],
        "c": [(1.0, no_up)],
        "a": [(a * f, swap), (b, no_up)],
        "b": [(b * f, swap), (a, no_up)],
    }
    wants = [
        Want(
            f"dL/d{n}",
            g[n],
            EXACT if n == "L" else CLOSED,
            setup,
            [bug for bug in bugs[n] if abs(bug[0] - g[n]) > 1e-12],
        )
        for n in NAMES
    ]
    keys = '"L", "d", "f", "e", "c", "a", "b"'
    return Expectation(wants, hint=msg("Return a dict with the keys {keys}.", keys=keys))

"""Checks of exercises/day01_derivative.py: forward, central and partial differences.

Expected values are closed forms. For a cubic p(x) = k3 x^3 + k2 x^2 + k1 x + k0 the
estimates are exact polynomials in h: the central difference is p'(x) + k3 h^2 and the
forward difference p'(x) + (3 k3 x + k2) h + k3 h^2, so a learner's estimate can be
judged to rounding, and a forward difference handed in as a central one is caught.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, NUMERIC, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 1: the derivative, measured by nudging")
ENGINE = {}
ENGINE_BY_KIND = {}

LESSON_CUBIC = [0.0, 3.0, -4.0, 5.0]  # [k3, k2, k1, k0]: the lesson's 3x^2 - 4x + 5


def _dp(k, x):
    return (3 * k[0] * x + 2 * k[1]) * x + k[2]


def _central(k, x, h):
    return _dp(k, x) + k[0] * h * h


def _forward(k, x, h):
    return _dp(k, x) + (3 * k[0] * x + k[1]) * h + k[0] * h * h


def public_cases():
    return [
        case(
            "forward",
            "forward difference of 3x^2 - 4x + 5 at 3, h = 0.001",
            k=LESSON_CUBIC,
            x=3.0,
            h=0.001,
        ),
        case(
            "central",
            "central difference of 3x^2 - 4x + 5 at 3, h = 0.001",
            k=LESSON_CUBIC,
            x=3.0,
            h=0.001,
        ),
        case(
            "central",
            "central difference of a cubic: error k3 * h^2",
            k=[2.0, -1.0, 0.5, 3.0],
            x=1.5,
            h=0.01,
        ),
        case("exp", "central difference of exp at 1, h = 0.001", x=1.0, h=0.001),
        case("default_h", "central difference of sin at 0.5 with the default h", x=0.5),
        case("partial", "partial derivatives of a*b + c at (2, -3, 10)", point=[2.0, -3.0, 10.0]),
        case(
            "keeps_inputs",
            "partial_derivative leaves the inputs list unchanged",
            point=[2.0, -3.0, 10.0],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^22 each: a cubic's 4 coefficients, x in [-3, 3] to 3 decimals, h in [0.001, 0.02] "
    "to 4; exp and sin at x to 6 and 9 decimals; a point of 3 floats in [-3, 3] to 3 decimals"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -3.0, 3.0)

    def cubic():
        return {
            "k": [num() or 1.0, num(), num(), num()],
            "x": num(),
            "h": uniform(rng, 0.001, 0.02, 4),
        }

    return [
        case("forward", "forward difference of a random cubic", public=False, **cubic()),
        case("central", "central difference of a random cubic", public=False, **cubic()),
        case(
            "exp",
            "central difference of exp at a random x and h",
            public=False,
            x=uniform(rng, -3.0, 3.0, 6),
            h=uniform(rng, 0.0001, 0.01, 6),
        ),
        case(
            "default_h",
            "central difference of sin at a random x with the default h",
            public=False,
            x=uniform(rng, -3.0, 3.0, 9),
        ),
        case(
            "partial",
            "partial derivatives of a*b + c at a random point",
            public=False,
            point=[num(), num(), num()],
        ),
        case(
            "keeps_inputs",
            "partial_derivative leaves a random inputs list unchanged",
            public=False,
            point=[num(), num(), num()],
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    kind, inputs = case["kind"], case["inputs"]
    if kind in ("forward", "central"):
        k, x, h = inputs["k"], inputs["x"], inputs["h"]
        setup = msg(
            "f(x) = {k3}x^3 + {k2}x^2 + {k1}x + {k0}, x = {x}, h = {h}",
            k3=k[0],
            k2=k[1],
            k1=k[2],
            k0=k[3],
            x=x,
            h=h,
        )
        fwd, ctr = _forward(k, x, h), _central(k, x, h)
        if kind == "forward":
            bugs = [
                (
                    ctr,
                    msg("that is the central difference; the forward one uses f(x + h) and f(x)"),
                ),
                (fwd / 2, msg("divide by h, the distance between x and x + h")),
            ]
            want = Want("slope", fwd, CLOSED, setup, bugs, label=msg("slope"))
        else:
            bugs = [
                (2 * ctr, msg("divide by 2 * h: the two points x - h and x + h are 2h apart")),
                (
                    fwd,
                    msg(
                        "that is the forward difference; the central one compares f(x + h) "
                        "with f(x - h)"
                    ),
                ),
            ]
            want = Want("slope", ctr, CLOSED, setup, bugs, label=msg("slope"))
        return Expectation([want])
    if kind == "exp":
        x, h = inputs["x"], inputs["h"]
        expected = math.exp(x) * math.sinh(h) / h  # (e^(x+h) - e^(x-h)) / 2h, exactly
        bugs = [(2 * expected, msg("divide by 2 * h, not h"))]
        setup = msg("f = exp, x = {x}, h = {h}", x=x, h=h)
        return Expectation([Want("slope", expected, CLOSED, setup, bugs, label=msg("slope"))])
    if kind == "default_h":
        setup = msg("f = sin, x = {x}, no h given (the default is 1e-5)", x=inputs["x"])
        return Expectation(
            [Want("slope", math.cos(inputs["x"]), NUMERIC, setup, label=msg("slope"))]
        )
    a, b, c = inputs["point"]
    setup = msg("f(a, b, c) = a*b + c at a = {a}, b = {b}, c = {c}", a=a, b=b, c=c)
    all_dials = msg("it looks as if every input was nudged at once: change only inputs[i]")
    total = a + b + 1.0
    wants = [
        Want("d/da", b, NUMERIC, setup, [(total, all_dials)]),
        Want("d/db", a, NUMERIC, setup, [(total, all_dials)]),
        Want("d/dc", 1.0, NUMERIC, setup, [(total, all_dials)]),
    ]
    if kind == "keeps_inputs":
        changed = msg("partial_derivative changed the list it was given: nudge copies of it")
        wants = [
            Want(
                f"inputs[{i}] afterwards",
                x,
                EXACT,
                setup,
                label=msg("inputs[{i}] afterwards", i=i),
                more=changed,
            )
            for i, x in enumerate(inputs["point"])
        ]
    return Expectation(wants)

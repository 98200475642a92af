"""Checks of exercises/day02_chain_rule.py: derivatives of a chain, forwards and backwards.

A chain is described by names of links (square, affine, tanh, exp, sin, cube); the
child builds (f, df) pairs from them. The judge differentiates the composition in
closed form: each local derivative at its own input, multiplied along the chain.
"""

import math

from grader.messages import msg
from grader.runners.day02_chain_rule import link
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 2: the chain rule as gear ratios")
ENGINE = {}
ENGINE_BY_KIND = {}


LESSON_GEARS = [["square"], ["affine", 3.0, 1.0], ["affine", -2.0, 0.0]]


def public_cases():
    return [
        case("forward", "the lesson's gears x^2, 3y + 1, -2z at x = 2", links=LESSON_GEARS, x=2.0),
        case(
            "forward",
            "a chain where each ratio depends on where you are",
            links=[["sin"], ["square"], ["exp"]],
            x=0.7,
        ),
        case("forward", "a chain of one link", links=[["tanh"]], x=0.5),
        case("backward", "sensitivities of the lesson's gears at x = 2", links=LESSON_GEARS, x=2.0),
        case(
            "backward",
            "sensitivities of tanh, cube, affine at x = -0.4",
            links=[["tanh"], ["cube"], ["affine", 0.5, 2.0]],
            x=-0.4,
        ),
        case("backward", "an empty chain: the output is x itself", links=[], x=1.5),
    ]


HIDDEN_SPACE = (
    "≈10^10 or more each: 3 to 10 links of square, tanh, sin, cube and affine (m, c to 3 "
    "decimals), x in [-1, 1] to 3 decimals"
)


def hidden_cases(rng):
    def chain(shortest, longest):
        names = ["square", "tanh", "sin", "cube", "affine"]
        links = []
        for _ in range(rng.randint(shortest, longest)):
            n = rng.choice(names)
            m, c = uniform(rng, -2, 2) or 1.0, uniform(rng, -1, 1)
            links.append(["affine", m, c] if n == "affine" else [n])
        return links

    def x():
        return uniform(rng, -1.0, 1.0)

    def sensitive(shortest, longest):
        """A chain and an x where the output and every sensitivity are at least 1e-6 in
        size: zeros, within the absolute tolerance of tiny numbers, must never pass."""
        while True:
            links, x0 = chain(shortest, longest), x()
            values, ratios = _analyse(links, x0)
            suffix, smallest = 1.0, abs(values[-1])
            for ratio in reversed(ratios):
                suffix *= ratio
                smallest = min(smallest, abs(suffix))
            if smallest >= 1e-6:
                return {"links": links, "x": x0}

    return [
        case("forward", "a random chain, forwards", public=False, **sensitive(3, 6)),
        case("backward", "a random chain, backwards", public=False, **sensitive(3, 6)),
        case("backward", "a long random chain, backwards", public=False, **sensitive(7, 10)),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _analyse(specs, x):
    """Values x_0..x_n and local ratios r_1..r_n, each ratio at its own input."""
    values, ratios = [x], []
    for spec in specs:
        f, df = link(spec)
        ratios.append(df(values[-1]))
        values.append(f(values[-1]))
    return values, ratios


def _describe(specs, x):
    parts = [s[0] if s[0] != "affine" else f"{s[1]}*v + {s[2]}" for s in specs]
    if not parts:
        return msg("links (none), x = {x}", x=x)
    return msg("links {links}, x = {x}", links=" -> ".join(parts), x=x)


def expect(case):
    specs, x = case["inputs"]["links"], case["inputs"]["x"]
    vals, ratios = _analyse(specs, x)
    setup = _describe(specs, x)
    if case["kind"] == "forward":
        product = math.prod(ratios)
        # A likely bug: each ratio evaluated at the link's output instead of its input.
        at_output = math.prod(link(s)[1](vals[k + 1]) for k, s in enumerate(specs))
        bugs = [
            (sum(ratios), msg("the ratios along a chain multiply; you seem to add them")),
            (
                at_output,
                msg(
                    "evaluate each df at the value going INTO its link, before you update the value"
                ),
            ),
        ]
        if abs(at_output - product) < 1e-12 * max(1.0, abs(product)):
            bugs = bugs[:1]
        return Expectation(
            [
                Want("output", vals[-1], CLOSED, setup, label=msg("output")),
                Want("derivative", product, CLOSED, setup, bugs, label=msg("derivative")),
            ]
        )
    n = len(specs)
    expected = [1.0] * (n + 1)
    for k in reversed(range(n)):
        expected[k] = expected[k + 1] * ratios[k]
    wants = [
        Want(
            "length",
            float(n + 1),
            CLOSED,
            setup,
            [
                (
                    float(n),
                    msg(
                        "include the output itself: its sensitivity to itself is 1.0, last in "
                        "the list"
                    ),
                )
            ],
            label=msg("length"),
        )
    ]
    wants += [Want(f"sensitivity[{k}]", e, CLOSED, setup) for k, e in enumerate(expected)]
    return Expectation(
        wants, hint=msg("The list runs from the input (first) to the output (last, 1.0).")
    )

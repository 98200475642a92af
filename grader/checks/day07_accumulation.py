"""Checks of exercises/day07_accumulation.py: sums over roads, the multi-branch challenge,
and zeroing gradients between backward passes.

Expected values: the sum of products computed here for gradient_by_roads; the closed
forms dL/da = (a + b) b + (a b + c), dL/db = (a + b) a + (a b + c), dL/dc = a + b for
the challenge; for zero_grad, the gradients of d = a*b + a, which are (b + 1, a).
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 7: the accumulation trap")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): engine's
# zero_grad is this exercise, and the challenge is worked out on paper, not by backward().
ENGINE = {"value": ("zero_grad",)}
ENGINE_BY_KIND = {
    "challenge": {"value": ("zero_grad", "Value.backward", "Value.topological_order")}
}


def public_cases():
    return [
        case(
            "roads", "d = a*b + a at a = 2, b = 3: roads [1] and [3, 1]", roads=[[1.0], [3.0, 1.0]]
        ),
        case("roads", "L = a + a: two roads of ratio 1", roads=[[1.0], [1.0]]),
        case("roads", "one road of three ratios", roads=[[2.0, -0.5, 3.0]]),
        case("roads", "no road at all: the output does not depend on the input", roads=[]),
        case("challenge", "L = (a*b + c)*(a + b) at a = 2, b = -3, c = 10", a=2.0, b=-3.0, c=10.0),
        case("challenge", "the challenge at a = 1, b = 1, c = 0", a=1.0, b=1.0, c=0.0),
        case(
            "zero",
            "zero_grad between passes: d = a*b + a, backward twice, zero, once more",
            a=2.0,
            b=3.0,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: 2 to 4 roads of 1 to 4 ratios in [-3, 3] to 3 decimals; a, b, c "
    "in [-3, 3] to 3 decimals; a, b to 4 decimals for zero_grad"
)


def hidden_cases(rng):
    def num(places=3):
        return uniform(rng, -3, 3, places) or 1.0

    roads = [[num() for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(2, 4))]
    return [
        case("roads", "random roads", public=False, roads=roads),
        case(
            "challenge", "the challenge at a random point", public=False, a=num(), b=num(), c=num()
        ),
        case("zero", "zero_grad at a random point", public=False, a=num(4), b=num(4)),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inp, kind = case["inputs"], case["kind"]
    if kind == "roads":
        roads = inp["roads"]
        expected = sum(math.prod(r) for r in roads)
        bugs = [
            (
                math.prod(x for r in roads for x in r),
                msg("roads add up: multiply along a road, then add the roads"),
            ),
            (
                sum(x for r in roads for x in r),
                msg("along one road the ratios multiply, they do not add"),
            ),
        ]
        bugs = [bug for bug in bugs if abs(bug[0] - expected) > 1e-9 * max(1.0, abs(expected))]
        setup = msg("roads = {roads}", roads=str(roads))
        return Expectation([Want("gradient", expected, CLOSED, setup, bugs, label=msg("gradient"))])
    if kind == "challenge":
        a, b, c = inp["a"], inp["b"], inp["c"]
        u, s = a * b + c, a + b
        setup = f"a = {a}, b = {b}, c = {c}: u = a*b + c = {u:g}, s = a + b = {s:g}"  # no words
        wants = [
            Want(
                "dL/da",
                s * b + u,
                CLOSED,
                setup,
                [
                    (s * b, msg("a also reaches L through s = a + b: add u * 1")),
                    (u, msg("a also reaches L through u = a*b + c: add s * b")),
                ],
            ),
            Want(
                "dL/db",
                s * a + u,
                CLOSED,
                setup,
                [
                    (s * a, msg("b also reaches L through s = a + b: add u * 1")),
                    (u, msg("b also reaches L through u = a*b + c: add s * a")),
                ],
            ),
            Want(
                "dL/dc",
                s,
                CLOSED,
                setup,
                [(u, msg("c reaches L only through u, with ratio dL/du = s"))],
            ),
        ]
        for want in wants:
            want.bugs = [bug for bug in want.bugs if abs(bug[0] - want.value) > 1e-9]
        return Expectation(wants)
    a, b = inp["a"], inp["b"]
    setup = f"a = {a}, b = {b}, d = a*b + a"  # no words
    not_zeroed = msg("zero_grad must set .grad of every Value in the list to 0.0")
    return Expectation(
        [
            Want(
                "a.grad after zero_grad",
                0.0,
                EXACT,
                setup,
                [(2 * (b + 1), not_zeroed)],
                label=msg("{name}.grad after zero_grad", name="a"),
            ),
            Want(
                "b.grad after zero_grad",
                0.0,
                EXACT,
                setup,
                [(2 * a, not_zeroed)],
                label=msg("{name}.grad after zero_grad", name="b"),
            ),
            Want(
                "a.grad after one more backward",
                b + 1.0,
                CLOSED,
                setup,
                label=msg("{name}.grad after one more backward", name="a"),
            ),
            Want(
                "b.grad after one more backward",
                a,
                CLOSED,
                setup,
                label=msg("{name}.grad after one more backward", name="b"),
            ),
        ]
    )

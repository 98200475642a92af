"""Checks of exercises/day14_optimizers.py: a momentum step and an Adam step.

The new parameters and the new optimizer state are checked against the update rules
written out here in plain floats, over several steps so that the state must carry over.
"""

import math

from grader.messages import Message, msg
from grader.verdict import CLOSED, Expectation, Pattern, Want

from .cases import case, uniform

TITLE = msg("Day 14: SGD with momentum and Adam")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.optim's SGD and Adam are this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case(
            "momentum",
            "two steps on w * w from w = 1 (the lesson's 0.8, then 0.46)",
            w=[1.0],
            lr=0.1,
            mu=0.9,
            steps=2,
        ),
        case(
            "momentum",
            "three parameters, momentum 0.5, three steps",
            w=[1.0, -2.0, 0.5],
            lr=0.05,
            mu=0.5,
            steps=3,
        ),
        case(
            "adam",
            "two steps on w * w from w = 1 (the lesson's 0.9, then 0.800412)",
            w=[1.0],
            lr=0.1,
            steps=2,
        ),
        case(
            "adam",
            "Adam's first step is lr in size, whatever the gradient",
            w=[100.0, -0.001],
            lr=0.01,
            steps=1,
        ),
        case("adam", "three parameters, four steps", w=[1.0, -2.0, 0.5], lr=0.05, steps=4),
    ]


HIDDEN_SPACE = (
    "≈10^10 or more each: 2 to 4 starting weights in [-3, 3] to 3 decimals (or [-100, 100] "
    "to 2), a rate in [0.01, 0.2] to 3, momentum in [0.1, 0.95] to 2, 2 to 5 steps"
)


def hidden_cases(rng):
    def start(spread=3.0, places=3):
        return [uniform(rng, -spread, spread, places) for _ in range(rng.randint(2, 4))]

    def lr():
        return uniform(rng, 0.01, 0.2)

    return [
        case(
            "momentum",
            "random start, random momentum",
            public=False,
            w=start(),
            lr=lr(),
            mu=uniform(rng, 0.1, 0.95, 2),
            steps=rng.randint(2, 5),
        ),
        case("adam", "random start", public=False, w=start(), lr=lr(), steps=rng.randint(2, 5)),
        case(
            "adam",
            "a widely spread random start: each step is about lr in size",
            public=False,
            w=start(100.0, 2),
            lr=lr(),
            steps=rng.randint(1, 3),
        ),
    ]


# The loss of every case: sum_i (i + 1) * w_i ** 2, so each parameter has its own curvature
# (the runner builds it and takes the optimizer steps).


# -- what a right answer gives ---------------------------------------------------------


def _expected(case):
    inputs = case["inputs"]
    w = list(inputs["w"])
    n, lr = len(w), inputs["lr"]
    a, b = [0.0] * n, [0.0] * n
    for t in range(1, inputs["steps"] + 1):
        for i in range(n):
            g = 2.0 * (i + 1) * w[i]
            if case["kind"] == "momentum":
                a[i] = inputs["mu"] * a[i] + g
                w[i] -= lr * a[i]
            else:
                a[i] = 0.9 * a[i] + 0.1 * g
                b[i] = 0.999 * b[i] + 0.001 * g * g
                w[i] -= lr * (a[i] / (1 - 0.9**t)) / (math.sqrt(b[i] / (1 - 0.999**t)) + 1e-8)
    return w, a, b


def expect(case):
    inputs = case["inputs"]
    w, a, b = _expected(case)
    setup = msg(
        "loss = sum((i + 1) * w[i] ** 2), start w = {w}, lr = {lr}, {steps} steps",
        w=str(inputs["w"]),
        lr=inputs["lr"],
        steps=inputs["steps"],
    )
    if case["kind"] == "momentum":
        setup = Message("{setup}, momentum = {mu}", {"setup": setup, "mu": inputs["mu"]})
    wants = []
    for i in range(len(w)):
        if case["kind"] == "momentum":
            wants.append(Want(f"velocity[{i}]", a[i], CLOSED, setup))
        else:
            wants.append(Want(f"m[{i}]", a[i], CLOSED, setup))
            wants.append(Want(f"v[{i}]", b[i], CLOSED, setup))
        wants.append(Want(f"w[{i}]", w[i], CLOSED, setup))
    if case["kind"] == "momentum":
        pattern = Pattern(
            {"velocity[0]": 0.0},
            msg("velocity must be updated in place (velocity[i] = ...), so the next step sees it"),
        )
    else:
        pattern = Pattern(
            {"m[0]": 0.0},
            msg("m and v must be updated in place (m[i] = ...), so the next step sees them"),
        )
    return Expectation(wants, patterns=[pattern])

"""Checks of exercises/day10_neuron.py: one neuron, forward and backward.

The output and the gradient of every weight, the bias and every input are checked
against the closed forms d out/d w_i = x_i * phi'(z), d out/d x_i = w_i * phi'(z),
d out/d b = phi'(z), for ReLU (alive and dead), tanh and linear neurons.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, named, then_wants, uniform

TITLE = msg("Day 10: one neuron")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.nn's Neuron is this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}
# The hidden neurons' names, one literal each for the catalog (cases.named)
RANDOM_NEURON = {
    "relu": named("a random relu neuron"),
    "tanh": named("a random tanh neuron"),
    "linear": named("a random linear neuron"),
}


def public_cases():
    return [
        case(
            "neuron",
            "the worked example: ReLU, z = 0.5",
            x=[1.0, -2.0],
            w=[0.5, 0.25],
            b=0.5,
            act="relu",
        ),
        case(
            "neuron",
            "the worked example with tanh",
            x=[1.0, -2.0],
            w=[0.5, 0.25],
            b=0.5,
            act="tanh",
        ),
        case(
            "neuron",
            "a dead ReLU passes back nothing",
            x=[-1.0, -2.0],
            w=[0.5, 0.25],
            b=0.5,
            act="relu",
        ),
        case(
            "neuron",
            "a linear neuron with three inputs",
            x=[2.0, 0.0, -1.0],
            w=[-1.5, 3.0, 0.5],
            b=1.0,
            act="linear",
        ),
        case(
            "lengths",
            "two weights and three inputs raise ValueError",
            x=[1.0, 2.0, 3.0],
            w=[1.0, 1.0],
            b=0.0,
            act="relu",
        ),
        case(
            "lengths",
            "an unknown activation raises ValueError",
            x=[1.0],
            w=[1.0],
            b=0.0,
            act="sigmoidish",
        ),
    ]


HIDDEN_SPACE = (
    "≈10^15 or more each: 2 to 5 inputs and weights and a bias in [-2, 2] to 3 decimals; "
    "for bad arguments, random lengths that differ or a random unknown activation"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -2.0, 2.0)

    def vec(n):
        return [num() for _ in range(n)]

    cases = []
    for act in ("relu", "tanh", "linear"):
        n = rng.randint(2, 5)
        cases.append(
            case(
                "neuron",
                RANDOM_NEURON[act],
                public=False,
                x=vec(n),
                w=vec(n),
                b=num(),
                act=act,
            )
        )
    n, m = rng.sample(range(1, 7), 2)
    cases.append(
        case(
            "lengths",
            "random inputs and weights of different lengths raise ValueError",
            public=False,
            x=vec(n),
            w=vec(m),
            b=num(),
            act=rng.choice(["relu", "tanh", "linear"]),
            then=rng.choice(cases),  # a valid neuron in the same child: see runners/refusal.py
        )
    )
    return cases


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "lengths":
        want = Want(
            "raised ValueError",
            1.0,
            CLOSED,
            f"x = {inputs['x']}, w = {inputs['w']}, act = {inputs['act']!r}",  # no words
            [(0.0, msg("check the lengths and the activation name first, and raise ValueError"))],
            label=msg("raised ValueError"),
        )
        return Expectation([want, *then_wants(expect, case)])
    x, w, b, act = inputs["x"], inputs["w"], inputs["b"], inputs["act"]
    z = sum(wi * xi for wi, xi in zip(w, x)) + b
    if act == "relu":
        out, slope = max(z, 0.0), (1.0 if z > 0 else 0.0)
    elif act == "tanh":
        out = math.tanh(z)
        slope = 1.0 - out * out
    else:
        out, slope = z, 1.0
    setup = f"x = {x}, w = {w}, b = {b}, act = {act!r}"  # no words
    wants = [
        Want(
            "out",
            out,
            CLOSED,
            setup,
            [
                (z, msg("the {act} activation was not applied to z", act=act)),
                (z - b, msg("the bias b was left out of the sum")),
            ],
        )
    ]
    for i, (wi, xi) in enumerate(zip(w, x)):
        wants.append(
            Want(
                f"w[{i}].grad",
                xi * slope,
                CLOSED,
                setup,
                [
                    (
                        wi * slope,
                        msg("a weight's gradient is its input times phi'(z): are w and x swapped?"),
                    )
                ],
            )
        )
        wants.append(Want(f"x[{i}].grad", wi * slope, CLOSED, setup))
    wants.append(
        Want(
            "b.grad",
            slope,
            CLOSED,
            setup,
            [(0.0, msg("the bias gets no gradient: is it part of the sum?"))],
        )
    )
    return Expectation(wants)

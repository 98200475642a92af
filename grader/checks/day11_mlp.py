"""Checks of exercises/day11_mlp.py: a dense layer, an MLP and its parameter count.

Values and gradients come from closed forms computed here in plain floats: a layer's
outputs, and for L = sum_j c_j * out_j the gradients of every weight, bias and input.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 11: a layer and an MLP")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.nn's Layer and MLP are this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}

_WORKED = [
    [[[1.0, -1.0], [0.5, 0.5]], [0.5, 0.0]],
    [[[2.0, -1.0]], [1.0]],
]


def public_cases():
    return [
        case(
            "dense",
            "a ReLU layer of two neurons, one of them dead",
            x=[1.0, 2.0],
            W=[[1.0, -1.0], [0.5, 0.5]],
            b=[0.5, 0.0],
            act="relu",
            c=[1.0, 1.0],
        ),
        case(
            "dense",
            "a tanh layer of three neurons, weighted upstream gradients",
            x=[0.5, -1.0],
            W=[[1.0, 2.0], [-0.5, 0.25], [0.0, 1.5]],
            b=[0.1, -0.2, 0.3],
            act="tanh",
            c=[1.0, -2.0, 0.5],
        ),
        case(
            "dense",
            "a layer of one neuron still returns a list",
            x=[3.0, 1.0],
            W=[[0.5, -1.0]],
            b=[0.25],
            act="linear",
            c=[1.0],
        ),
        case("mlp", "the worked example of the lesson", x=[1.0, 2.0], layers=_WORKED),
        case("mlp", "input (3, 2) brings hidden neuron 1 to life", x=[3.0, 2.0], layers=_WORKED),
        case("count", "parameters of MLP(2, [16, 16, 1])", nin=2, nouts=[16, 16, 1]),
        case("count", "parameters of MLP(3, [4, 4, 1])", nin=3, nouts=[4, 4, 1]),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: layers of 2 to 4 inputs and neurons, weights, biases, inputs and "
    "upstream weights in [-1.5, 1.5] to 3 decimals; MLP(1..99, [1..99] * 1..6) to count"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -1.5, 1.5)

    def vec(n):
        return [num() for _ in range(n)]

    nin, nhid = rng.randint(2, 4), rng.randint(2, 4)
    layers = [
        [[vec(nin) for _ in range(nhid)], vec(nhid)],
        [[vec(nhid)], vec(1)],
    ]
    n_out = rng.randint(1, 4)
    return [
        case(
            "dense",
            "a random layer",
            public=False,
            x=vec(nin),
            W=[vec(nin) for _ in range(n_out)],
            b=vec(n_out),
            act=rng.choice(["relu", "tanh", "linear"]),
            c=vec(n_out),
        ),
        case("mlp", "a random two-layer MLP", public=False, x=vec(nin), layers=layers),
        case(
            "count",
            "a random parameter count",
            public=False,
            nin=rng.randint(1, 99),
            nouts=[rng.randint(1, 99) for _ in range(rng.randint(1, 6))],
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _act(z, act):
    if act == "relu":
        return max(z, 0.0), (1.0 if z > 0 else 0.0)
    if act == "tanh":
        t = math.tanh(z)
        return t, 1.0 - t * t
    return z, 1.0


def _forward_backward(x, layers, acts, upstream):
    """Plain-float forward and backward through `layers`; gradients of sum(upstream * out)."""
    hs, slopes = [list(x)], []
    for (W, b), act in zip(layers, acts):
        outs = [_act(sum(w * h for w, h in zip(row, hs[-1])) + bj, act) for row, bj in zip(W, b)]
        hs.append([o for o, _ in outs])
        slopes.append([s for _, s in outs])
    grads = {}
    g = list(upstream)
    for k in range(len(layers) - 1, -1, -1):
        W, _ = layers[k]
        gz = [gj * sj for gj, sj in zip(g, slopes[k])]
        for j, row in enumerate(W):
            for i in range(len(row)):
                grads[f"layer {k} W[{j}][{i}].grad"] = gz[j] * hs[k][i]
            grads[f"layer {k} b[{j}].grad"] = gz[j]
        g = [sum(gz[j] * W[j][i] for j in range(len(W))) for i in range(len(hs[k]))]
    for i, gi in enumerate(g):
        grads[f"x[{i}].grad"] = gi
    return hs[-1], grads


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "count":
        sizes = [inputs["nin"]] + list(inputs["nouts"])
        want = sum(b * (a + 1) for a, b in zip(sizes, sizes[1:]))
        only_weights = sum(b * a for a, b in zip(sizes, sizes[1:]))
        return Expectation(
            [
                Want(
                    "count",
                    float(want),
                    EXACT,
                    f"nin = {inputs['nin']}, nouts = {inputs['nouts']}",
                    [
                        (
                            float(only_weights),
                            msg("the biases are missing: each neuron has n_in weights plus 1 bias"),
                        )
                    ],
                    label=msg("count"),
                )
            ],
        )
    if case["kind"] == "dense":
        layers, acts, upstream = [(inputs["W"], inputs["b"])], [inputs["act"]], inputs["c"]
        setup = f"x = {inputs['x']}, W = {inputs['W']}, b = {inputs['b']}, act = {inputs['act']!r}"
    else:
        layers = [tuple(layer) for layer in inputs["layers"]]
        acts = ["relu"] * (len(layers) - 1) + ["linear"]
        upstream = [1.0]
        setup = f"x = {inputs['x']}, layers = {inputs['layers']}"
    outs, grads = _forward_backward(inputs["x"], layers, acts, upstream)
    wants = [
        Want(
            "outputs",
            float(len(outs)),
            EXACT,
            setup,
            [(0.0, msg("return a list of outputs, one Value per neuron of the last layer"))],
            label=msg("outputs"),
        )
    ]
    if case["kind"] == "dense":
        wants += [Want(f"out[{j}]", o, CLOSED, setup) for j, o in enumerate(outs)]
    else:
        lin, _ = _forward_backward(inputs["x"], layers, ["linear"] * len(layers), upstream)
        relu = msg("every layer but the last must end in ReLU")
        bugs = [(lin[0], relu)] if lin[0] != outs[0] else []
        if outs[0] < 0:
            bugs.append(
                (0.0, msg("the last layer must be linear: a ReLU on the output cannot go below 0"))
            )
        wants.append(Want("y", outs[0], CLOSED, setup, bugs))
    wants += [Want(k, v, CLOSED, setup) for k, v in grads.items()]
    return Expectation(wants)

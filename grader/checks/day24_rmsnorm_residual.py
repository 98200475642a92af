"""Checks of exercises/day24_rmsnorm_residual.py: RMSNorm and the residual connection.

Expected outputs and gradients are closed forms: y = x s with s = (mean(x^2) + eps)^-1/2,
and d(sum_i w_i y_i)/dx_j = s w_j - s^3 x_j (w . x) / n; for the residual block
out_i = x_i + tanh(a_i x_i + b x_(i+1)), the derivative of tanh. Likely bugs (a scale
computed from .data, a fixed divisor, no eps, the square root instead of its inverse,
a block without the residual) are recognised by the numbers they produce.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from . import lm
from .cases import case, uniform

TITLE = msg("Day 24: RMSNorm and the residual connection")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.gpt's rmsnorm is this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case("rmsnorm", "the lesson's [3, 4]", x=[3.0, 4.0], w=[1.0, 0.0], eps=1e-5),
        case(
            "rmsnorm",
            "four numbers, gradient of a weighted sum",
            x=[0.5, -1.2, 2.0, 0.1],
            w=[1.0, -2.0, 0.5, 3.0],
            eps=1e-5,
        ),
        case(
            "rmsnorm",
            "a tiny vector: eps matters",
            x=[0.001, -0.002, 0.0005],
            w=[1.0, 1.0, -1.0],
            eps=1e-5,
        ),
        case(
            "rmsnorm",
            "eps is an argument: eps = 0.5",
            x=[1.0, -1.0, 0.5, 0.25],
            w=[0.5, 1.0, -1.0, 2.0],
            eps=0.5,
        ),
        case(
            "residual",
            "x + f(x) for three numbers",
            x=[0.5, -1.0, 2.0],
            a=[1.0, 0.5, -0.5],
            b=0.3,
            w=[1.0, 2.0, -1.0],
        ),
        case(
            "residual",
            "a block that outputs almost 0 passes x through",
            x=[1.5, -0.5],
            a=[0.0, 0.0],
            b=0.0,
            w=[1.0, -1.0],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: 3 to 8 numbers in [-2, 2] to 3 decimals (or tiny ones to 6) with "
    "eps in [0.01, 1] to 3 decimals (or [10^-6, 10^-4]); a random tanh block around them"
)


def hidden_cases(rng):
    def vec(n, spread=2.0, places=3):
        return [uniform(rng, -spread, spread, places) for _ in range(n)]

    def n():
        return rng.randint(3, 8)

    m, k, r = n(), n(), n()
    return [
        case(
            "rmsnorm",
            "a random vector, a random eps",
            public=False,
            x=vec(m),
            w=vec(m),
            eps=uniform(rng, 0.01, 1.0) or 0.5,
        ),
        case(
            "rmsnorm",
            "a tiny random vector: eps matters",
            public=False,
            x=vec(k, 0.003, 6),
            w=vec(k),
            eps=uniform(rng, 1e-6, 1e-4, 9),
        ),
        case(
            "residual",
            "random block",
            public=False,
            x=vec(r),
            a=vec(r, 1.0),
            b=uniform(rng, -1, 1),
            w=vec(r),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _expect_rmsnorm(inputs):
    x, w, eps = inputs["x"], inputs["w"], inputs["eps"]
    n = len(x)
    setup = f"x = {x}, eps = {eps}"
    y = lm.rmsnorm(x, eps)
    ms = sum(v * v for v in x) / n
    variants = [
        (lm.rmsnorm(x, 0.0), msg("eps is missing: add eps to the mean square before the root")),
        (
            [v * (ms + eps) ** 0.5 for v in x],
            msg(
                "this multiplies by the root mean square: the scale "
                "is (mean_square + eps) ** -0.5, the INVERSE root"
            ),
        ),
        (lm.rmsnorm(x, 1e-5), msg("eps is fixed: use the eps argument")),
    ]
    if n != 16:
        variants.append(
            (lm.rmsnorm(x, eps, n=16), msg("the mean square is divided by 16: divide by len(x)"))
        )
    wants = [Want("len(out)", float(n), CLOSED, setup)]
    for i, e in enumerate(y):
        bugs = [(b[i], advice) for b, advice in variants if abs(b[i] - e) > 1e-9 * max(1.0, abs(e))]
        wants.append(Want(f"out[{i}]", e, CLOSED, setup, bugs))
    s = (ms + eps) ** -0.5
    detached = msg(
        "the gradient misses the path through the scale: build the scale from Value "
        "operations on x, not from .data"
    )
    for j, g in enumerate(lm.rmsnorm_weighted_grad(x, w, eps)):
        wants.append(
            Want(
                f"x[{j}].grad",
                g,
                CLOSED,
                msg("{setup}, loss = sum of {w} * out", setup=setup, w=str(w)),
                [(s * w[j], detached)] if abs(s * w[j] - g) > 1e-9 else [],
            )
        )
    return Expectation(wants)


def _expect_residual(inputs):
    x, a, b, w = inputs["x"], inputs["a"], inputs["b"], inputs["w"]
    n = len(x)
    setup = msg(
        "x = {x}, f(x)_i = tanh(a_i x_i + b x_(i+1)) with a = {a}, b = {b}",
        x=str(x),
        a=str(a),
        b=b,
    )
    t = [math.tanh(a[i] * x[i] + b * x[(i + 1) % n]) for i in range(n)]
    wants = [Want("len(out)", float(n), CLOSED, setup)]
    for i in range(n):
        bugs = [(t[i], msg("this is f(x) alone: add the input, out_i = x_i + f(x)_i"))]
        if abs(t[i]) > 1e-9:
            bugs.append((x[i], msg("this is x alone: add the block's output f(x)_i")))
        wants.append(Want(f"out[{i}]", x[i] + t[i], CLOSED, setup, bugs))
    # d/dx_j sum_i w_i (x_i + t_i): the direct road, and t_j and t_(j-1) depend on x_j
    for j in range(n):
        through_f = w[j] * a[j] * (1 - t[j] ** 2) + w[(j - 1) % n] * b * (1 - t[(j - 1) % n] ** 2)
        wants.append(
            Want(
                f"x[{j}].grad",
                w[j] + through_f,
                CLOSED,
                msg("{setup}, loss = sum of {w} * out", setup=setup, w=str(w)),
                [
                    (
                        through_f,
                        msg(
                            "the direct road is missing: x_i must be added as a Value "
                            "so its gradient gets the 1 of the residual"
                        ),
                    )
                ],
            )
        )
    return Expectation(wants)


def expect(case):
    if case["kind"] == "rmsnorm":
        return _expect_rmsnorm(case["inputs"])
    return _expect_residual(case["inputs"])

"""Checks of exercises/day32_tensor_backward.py: the gradients of broadcasting, of a sum or
mean over an axis, and of the matrix product, on flat lists in row-major order.

Expected values come from the scalar chain rule written out on nested indices: every entry
of the input adds up (math.fsum) the upstream gradient of each output entry it reaches,
times the local derivative there. Likely bugs (one copy's gradient kept instead of the sum,
the mean's 1/n forgotten or added, the copies laid out along the wrong axis, dB transposed,
dA and dB swapped) are recognised.
"""

import math
from itertools import product

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, named, uniform

TITLE = msg("Day 32: the backward pass of broadcasting, sums and matmul")
ENGINE = {}
ENGINE_BY_KIND = {}

G = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # the lesson's upstream gradient of shape (2, 3)
X = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # day 31's (2, 3) example
W = [1.0, 0.0, 0.0, 1.0, 1.0, -1.0]  # day 31's (3, 2) matrix


def public_cases():
    return [
        case("unbroadcast", "a (3,) row added to (2, 3)", grad=G, grad_shape=[2, 3], shape=[3]),
        case(
            "unbroadcast",
            "a (2, 1) column added to (2, 3)",
            grad=G,
            grad_shape=[2, 3],
            shape=[2, 1],
        ),
        case(
            "unbroadcast",
            "nothing broadcast: the gradient passes through",
            grad=G,
            grad_shape=[2, 3],
            shape=[2, 3],
        ),
        case(
            "unbroadcast",
            "a (2, 1, 2) tensor used as (2, 3, 2)",
            grad=[float(v) for v in range(12)],
            grad_shape=[2, 3, 2],
            shape=[2, 1, 2],
        ),
        case(
            "sum",
            "the lesson's sum over axis 1",
            grad=[1.0, -2.0],
            shape=[2, 3],
            axis=1,
            mean=False,
        ),
        case(
            "sum",
            "the lesson's mean over axis 1",
            grad=[1.0, -2.0],
            shape=[2, 3],
            axis=1,
            mean=True,
        ),
        case("sum", "a sum over axis 0", grad=[1.0, -2.0, 0.5], shape=[2, 3], axis=0, mean=False),
        case(
            "matmul",
            "the lesson's (2, 3) @ (3, 2)",
            a=X,
            b=W,
            grad=[1.0, -1.0, 2.0, 0.0],
            n=2,
            k=3,
            m=2,
        ),
        case(
            "matmul",
            "a row times a column: (1, 3) @ (3, 1)",
            a=[1.0, 2.0, 3.0],
            b=[4.0, 5.0, 6.0],
            grad=[2.0],
            n=1,
            k=3,
            m=1,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: upstream gradients and matrices in [-5, 5] to 3 decimals; tensors "
    "of 2 to 4 axes of sizes 2 to 4, broadcast from a random shape (an axis of size 1 and "
    "one missing at the left, or a bias of the last axis alone); a tensor of 3 or 4 axes "
    "summed or averaged over a random middle axis; matrices of 2 to 5 rows "
    "and columns, three sizes that differ"
)


def _numbers(rng, n):
    return [uniform(rng, -5, 5) for _ in range(n)]


def _shape(rng, lo_axes, hi_axes):
    return [rng.randint(2, 4) for _ in range(rng.randint(lo_axes, hi_axes))]


def hidden_cases(rng):
    out = _shape(rng, 3, 4)
    inner = rng.randrange(2, len(out))  # a size-1 axis after one above 1
    small = [s if i != inner else 1 for i, s in enumerate(out)][1:]
    bias_out = _shape(rng, 2, 3)
    cases = [
        case(
            "unbroadcast",
            "a random tensor copied along a size-1 axis and a missing one",
            public=False,
            grad=_numbers(rng, math.prod(out)),
            grad_shape=out,
            shape=small,
        ),
        case(
            "unbroadcast",
            "a random bias of the last axis",
            public=False,
            grad=_numbers(rng, math.prod(bias_out)),
            grad_shape=bias_out,
            shape=bias_out[-1:],
        ),
    ]
    for mean in (False, True):
        shape = _shape(rng, 3, 4)
        # a middle axis: code for the first and the last axis alone passes the public cases
        axis = rng.randrange(1, len(shape) - 1)
        rest = math.prod(shape) // shape[axis]
        cases.append(
            case(
                "sum",
                named("a random mean over a middle axis")
                if mean
                else named("a random sum over a middle axis"),
                public=False,
                grad=_numbers(rng, rest),
                shape=shape,
                axis=axis,
                mean=mean,
            )
        )
    n, k, m = rng.sample(range(2, 6), 3)
    cases.append(
        case(
            "matmul",
            "random matrices of three different sizes",
            public=False,
            a=_numbers(rng, n * k),
            b=_numbers(rng, k * m),
            grad=_numbers(rng, n * m),
            n=n,
            k=k,
            m=m,
        )
    )
    return cases


# -- what a right answer gives ---------------------------------------------------------


def _indices(shape):
    return product(*(range(s) for s in shape))


def _flat(index, shape):
    """The row-major position of a nested index: indices counted in order."""
    position = 0
    for i, s in zip(index, shape):
        position = position * s + i
    return position


def _unbroadcast(grad, grad_shape, shape, last_copy=False):
    """x's gradient: the chain rule over every output entry x's entry was copied to."""
    padded = [1] * (len(grad_shape) - len(shape)) + list(shape)
    terms = [[] for _ in range(math.prod(shape))]
    for index in _indices(grad_shape):
        source = [0 if s == 1 else i for i, s in zip(index, padded)]
        terms[_flat(source, padded)].append(grad[_flat(index, grad_shape)])
    if last_copy:
        return [t[-1] for t in terms]
    return [math.fsum(t) for t in terms]


def _sum_backward(grad, shape, axis, scale):
    rest = shape[:axis] + shape[axis + 1 :]
    return [
        grad[_flat(index[:axis] + index[axis + 1 :], rest)] * scale for index in _indices(shape)
    ]


def _matmul_backward(a, b, grad, n, k, m):
    da = [
        math.fsum(grad[i * m + j] * b[p * m + j] for j in range(m))
        for i in range(n)
        for p in range(k)
    ]
    db = [
        math.fsum(a[i * k + p] * grad[i * m + j] for i in range(n))
        for p in range(k)
        for j in range(m)
    ]
    return da, db


def _wants(name, values, setup, bugs=(), length_bugs=()):
    wants = [Want(f"len({name})", float(len(values)), EXACT, setup, list(length_bugs))]
    for i, x in enumerate(values):
        own = [
            (b[i], advice) for b, advice in bugs if len(b) == len(values) and abs(b[i] - x) > 1e-9
        ]
        wants.append(Want(f"{name}[{i}]", x, CLOSED, setup, own))
    return wants


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    grad = inputs["grad"]
    if kind == "unbroadcast":
        grad_shape, shape = tuple(inputs["grad_shape"]), tuple(inputs["shape"])
        setup = f"unbroadcast({grad}, {grad_shape}, {shape})"  # no words: code names
        bugs = [
            (
                _unbroadcast(grad, grad_shape, shape, last_copy=True),
                msg(
                    "this is the gradient of one copy only: each entry receives the SUM over "
                    "all the places it was copied to (+=, not =)"
                ),
            )
        ]
        length_bugs = []
        if len(grad) != math.prod(shape):
            length_bugs.append(
                (
                    float(len(grad)),
                    msg(
                        "the upstream gradient came back whole: sum it over the broadcast axes, "
                        "down to x's own shape"
                    ),
                )
            )
        return Expectation(
            _wants("dx", _unbroadcast(grad, grad_shape, shape), setup, bugs, length_bugs),
            hint=msg(
                "Each entry of x gets the sum of grad over every index of grad_shape that reads it."
            ),
        )
    if kind == "sum":
        shape, axis, mean = tuple(inputs["shape"]), inputs["axis"], inputs["mean"]
        n = shape[axis]
        setup = f"sum_axis_backward({grad}, {shape}, axis={axis}, mean={mean})"  # no words
        scale = 1.0 / n if mean else 1.0
        right = _sum_backward(grad, shape, axis, scale)
        bugs = []
        if mean:
            bugs.append(
                (
                    _sum_backward(grad, shape, axis, 1.0),
                    msg("a mean's gradient is divided by n = shape[axis]"),
                )
            )
        else:
            bugs.append(
                (
                    _sum_backward(grad, shape, axis, 1.0 / n),
                    msg("a sum's gradient is not divided by n: only a mean's is"),
                )
            )
        return Expectation(
            _wants("dx", right, setup, bugs),
            hint=msg(
                "The entry of x at index (..., p, ...) takes the gradient of the sum at the "
                "same index without p: copy grad along the axis, in its position."
            ),
        )
    a, b, n, k, m = inputs["a"], inputs["b"], inputs["n"], inputs["k"], inputs["m"]
    setup = msg(
        "matmul_backward(a of shape ({n}, {k}), b of shape ({k}, {m}), grad of shape "
        "({n}, {m})), a = {a}, b = {b}, grad = {grad}",
        n=n,
        k=k,
        m=m,
        a=str(a),
        b=str(b),
        grad=str(grad),
    )
    da, db = _matmul_backward(a, b, grad, n, k, m)
    db_transposed = [db[j + p * m] for j in range(m) for p in range(k)]
    swapped = msg("dA has A's shape (n, k) and dB has B's (k, m): return (dA, dB), in that order")
    length_a = [(float(k * m), swapped)] if k * m != n * k else []
    length_b = [(float(n * k), swapped)] if k * m != n * k else []
    return Expectation(
        _wants("dA", da, setup, length_bugs=length_a)
        + _wants(
            "dB",
            db,
            setup,
            [
                (
                    db_transposed,
                    msg(
                        "this is dB transposed: dB = A^T grad, row p for each row of B, "
                        "shape (k, m)"
                    ),
                )
            ],
            length_b,
        ),
        hint=msg(
            "dA[i, p] = sum over j of grad[i, j] * B[p, j]; "
            "dB[p, j] = sum over i of A[i, p] * grad[i, j]."
        ),
    )

"""Checks of exercises/day31_tensors.py: broadcasting, copying out, sums over an axis and
the matrix product, on flat lists in row-major order.

Expected values come from the definitions, written here on nested indices (every index of
the result, and the index of the input it reads): the broadcasting rule, exact sums
(math.fsum) and rows times columns. Likely bugs (shapes lined up from the left, the smaller
size kept, a size-1 axis read with its stride, keepdims forgotten, the wrong axis summed,
B read by rows) are recognised.
"""

import math
from itertools import product

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, named, then_wants, uniform

TITLE = msg("Day 31: tensors, broadcasting, sums over an axis, matmul")
ENGINE = {}
ENGINE_BY_KIND = {}

X = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # the lesson's (2, 3) example
W = [1.0, 0.0, 0.0, 1.0, 1.0, -1.0]  # the lesson's (3, 2) matrix


def public_cases():
    return [
        case("shape", "a row on a matrix: (2, 3) and (3,)", a=[2, 3], b=[3]),
        case("shape", "a column on a matrix: (2, 3) and (2, 1)", a=[2, 3], b=[2, 1]),
        case("shape", "the silent trap: (3,) and (3, 1)", a=[3], b=[3, 1]),
        case("shape", "three axes: (4, 1, 5) and (3, 1)", a=[4, 1, 5], b=[3, 1]),
        case(
            "refuse",
            "(2, 3) and (2,) do not broadcast",
            a=[2, 3],
            b=[2],
            then=case("shape", "then", a=[5, 1], b=[1, 7]),
        ),
        case(
            "expand",
            "the row [10, 20, 30] over two rows",
            data=[10.0, 20.0, 30.0],
            shape=[3],
            out_shape=[2, 3],
        ),
        case(
            "expand",
            "the column [100, 200] over three columns",
            data=[100.0, 200.0],
            shape=[2, 1],
            out_shape=[2, 3],
        ),
        case(
            "expand",
            "a (2, 1, 2) tensor to (2, 3, 2)",
            data=[1.0, 2.0, 3.0, 4.0],
            shape=[2, 1, 2],
            out_shape=[2, 3, 2],
        ),
        case("sum", "the lesson's sum over axis 0", data=X, shape=[2, 3], axis=0, keepdims=False),
        case("sum", "the lesson's sum over axis 1", data=X, shape=[2, 3], axis=1, keepdims=False),
        case("sum", "over axis 1, keepdims", data=X, shape=[2, 3], axis=1, keepdims=True),
        case(
            "sum",
            "the middle axis of (2, 3, 2)",
            data=[float(v) for v in range(12)],
            shape=[2, 3, 2],
            axis=1,
            keepdims=False,
        ),
        case("matmul", "the lesson's (2, 3) @ (3, 2)", a=X, a_shape=[2, 3], b=W, b_shape=[3, 2]),
        case(
            "matmul",
            "a row times a column: (1, 3) @ (3, 1)",
            a=[1.0, 2.0, 3.0],
            a_shape=[1, 3],
            b=[4.0, 5.0, 6.0],
            b_shape=[3, 1],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: pairs of shapes of 4 or 5 axes of sizes 2 to 99, random axes set "
    "to 1 or dropped at the left (or two sizes that clash, to refuse); tensors of 2 to 4 "
    "axes of sizes 2 to 4 (1 where copied out) and matrices of 2 to 5 rows and columns, "
    "numbers in [-5, 5] to 3 decimals, a random middle axis of 3 or 4, keepdims or not"
)


def _size(shape):
    return math.prod(shape)


def _compatible_pair(rng):
    """Two shapes of different lengths that broadcast, each with an axis of size 1 where
    the other's is larger."""
    while True:
        out = [rng.randint(2, 99) for _ in range(rng.randint(4, 5))]
        a = [1 if rng.random() < 0.4 else s for s in out]
        b = [1 if rng.random() < 0.4 else s for s in out]
        a, b = a[rng.randint(0, 1) :], b[rng.randint(0, 2) :]
        left = _left_aligned(a, b)
        if len(a) != len(b) and a != out and b != out[-len(b) :] and left != _broadcast(a, b):
            return a, b


def _random_tensor_shape(rng, axes, lo=1, hi=4):
    return [rng.randint(lo, hi) for _ in range(axes)]


def _numbers(rng, n):
    return [uniform(rng, -5, 5) for _ in range(n)]


def hidden_cases(rng):
    a, b = _compatible_pair(rng)
    shape_case = case("shape", "two random shapes", public=False, a=a, b=b)
    c, d = _compatible_pair(rng)
    clash = rng.randrange(1, min(len(c), len(d)) + 1)
    sizes = rng.sample(range(2, 100), 2)
    c[-clash], d[-clash] = sizes
    refuse = case(
        "refuse", "random shapes that clash on one axis", public=False, a=c, b=d, then=shape_case
    )

    # broadcast_to: a size-1 axis inside the shape, and one missing at the left
    out_shape = _random_tensor_shape(rng, rng.randint(3, 4), 2, 4)
    inner = rng.randrange(2, len(out_shape))  # after a size above 1 of the input
    small = [s if i != inner else 1 for i, s in enumerate(out_shape)][1:]
    expand = case(
        "expand",
        "a random tensor copied out along two axes",
        public=False,
        data=_numbers(rng, _size(small)),
        shape=small,
        out_shape=out_shape,
    )
    # A middle axis of 3 or 4: code written for a matrix's rows and columns alone (the
    # first axis and the last) passes the public matrices but none of these.
    sums = []
    for keepdims in (False, True):
        shape = _random_tensor_shape(rng, rng.randint(3, 4), 2, 4)
        sums.append(
            case(
                "sum",
                named("a middle axis of a random tensor, keepdims")
                if keepdims
                else named("a middle axis of a random tensor"),
                public=False,
                data=_numbers(rng, _size(shape)),
                shape=shape,
                axis=rng.randrange(1, len(shape) - 1),
                keepdims=keepdims,
            )
        )
    n, k, m = rng.sample(range(2, 6), 3)
    mm = case(
        "matmul",
        "random matrices of three different sizes",
        public=False,
        a=_numbers(rng, n * k),
        a_shape=[n, k],
        b=_numbers(rng, k * m),
        b_shape=[k, m],
    )
    return [shape_case, refuse, expand, *sums, mm]


# -- what a right answer gives ---------------------------------------------------------


def _broadcast(a, b, pick=max):
    """The broadcast shape, lined up from the right; None when a pair of sizes clashes."""
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + list(a), [1] * (n - len(b)) + list(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        return None
    return [pick(x, y) for x, y in zip(a, b)]


def _left_aligned(a, b):
    """The likely bug: the shapes lined up from the left."""
    n = max(len(a), len(b))
    return _broadcast(list(a) + [1] * (n - len(a)), list(b) + [1] * (n - len(b)))


def _at(data, shape, index):
    """The number of (data, shape) at a nested index, by its definition: the index's
    position when all indices are counted in row-major order."""
    flat = 0
    for i, s in zip(index, shape):
        flat = flat * s + i
    return data[flat]


def _indices(shape):
    return product(*(range(s) for s in shape))


def _expand(data, shape, out_shape):
    padded = [1] * (len(out_shape) - len(shape)) + list(shape)
    return [
        _at(data, padded, [0 if s == 1 else i for i, s in zip(index, padded)])
        for index in _indices(out_shape)
    ]


def _sum(data, shape, axis):
    rest = shape[:axis] + shape[axis + 1 :]
    out = []
    for index in _indices(rest):
        terms = [_at(data, shape, index[:axis] + (p,) + index[axis:]) for p in range(shape[axis])]
        out.append(math.fsum(terms))
    return out


def _matmul(a, a_shape, b, b_shape):
    (n, k), m = a_shape, b_shape[1]
    return [
        math.fsum(_at(a, a_shape, (i, p)) * _at(b, b_shape, (p, j)) for p in range(k))
        for i in range(n)
        for j in range(m)
    ]


def _shape_wants(shape, setup, bugs=()):
    wants = [
        Want(
            "len(shape)",
            float(len(shape)),
            EXACT,
            setup,
            [(float(len(b)), a) for b, a in bugs if len(b) != len(shape)],
        )
    ]
    for i, s in enumerate(shape):
        own = [(float(b[i]), a) for b, a in bugs if len(b) == len(shape) and b[i] != s]
        wants.append(Want(f"shape[{i}]", float(s), EXACT, setup, own))
    return wants


def _data_wants(data, setup, bugs=()):
    wants = [Want("len(data)", float(len(data)), EXACT, setup)]
    for i, x in enumerate(data):
        own = [(b[i], a) for b, a in bugs if len(b) == len(data) and abs(b[i] - x) > 1e-9]
        wants.append(Want(f"data[{i}]", x, CLOSED, setup, own))
    return wants


LEFT = msg("the shapes are lined up from the RIGHT: compare the last sizes first")
SMALLER = msg("where one size is 1, the result has the other (the larger) size")


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind in ("shape", "refuse"):
        a, b = inputs["a"], inputs["b"]
        setup = f"broadcast_shape({tuple(a)}, {tuple(b)})"  # no words: code names
        if kind == "refuse":
            want = Want(
                "raised ValueError",
                1.0,
                EXACT,
                setup,
                [
                    (
                        0.0,
                        msg(
                            "no ValueError: two sizes that differ, neither of them 1, "
                            "do not broadcast"
                        ),
                    )
                ],
                label=msg("raised ValueError"),
            )
            return Expectation([want, *then_wants(expect, case)])
        bugs = [
            (bug, advice)
            for bug, advice in ((_left_aligned(a, b), LEFT), (_broadcast(a, b, min), SMALLER))
            if bug is not None
        ]
        # Shapes that would not broadcast lined up from the left name no bug: a file that
        # lines them up so raises, and a wrong shape that came back shows another mistake.
        return Expectation(_shape_wants(_broadcast(a, b), setup, bugs))
    if kind == "expand":
        data, shape, out_shape = inputs["data"], inputs["shape"], inputs["out_shape"]
        setup = f"broadcast_to({data}, {tuple(shape)}, {tuple(out_shape)})"  # no words
        cycled = [data[i % len(data)] for i in range(_size(out_shape))]
        advice = msg(
            "repeating the data end to end only copies along axes missing at the left; "
            "along a size-1 axis inside the shape, each number repeats in place"
        )
        return Expectation(
            _data_wants(_expand(data, shape, out_shape), setup, [(cycled, advice)]),
            hint=msg(
                "Turn each flat index of out_shape into one index per axis; along an axis "
                "where the input has size 1 (or none), read the input at index 0."
            ),
        )
    if kind == "sum":
        data, shape, axis, keepdims = (
            inputs["data"],
            tuple(inputs["shape"]),
            inputs["axis"],
            inputs["keepdims"],
        )
        setup = f"sum_axis({data}, {shape}, axis={axis}, keepdims={keepdims})"  # no words
        kept = shape[:axis] + (1,) + shape[axis + 1 :]
        gone = shape[:axis] + shape[axis + 1 :]
        bugs = [
            (
                _sum(data, shape, other),
                msg(
                    "these are the sums along axis {other}, not axis {axis}",
                    other=other,
                    axis=axis,
                ),
            )
            for other in range(len(shape))
            if other != axis and _size(shape) // shape[other] == _size(gone)
        ]
        shape_bugs = [
            (
                list(gone if keepdims else kept),
                msg(
                    "keepdims keeps the summed axis with size 1; without it the axis leaves "
                    "the shape"
                ),
            )
        ]
        return Expectation(
            _data_wants(_sum(data, shape, axis), setup, bugs)
            + _shape_wants(list(kept if keepdims else gone), setup, shape_bugs),
            hint=msg(
                "Along the axis, neighbouring numbers are strides(shape)[axis] apart in the "
                "flat list."
            ),
        )
    a, a_shape, b, b_shape = inputs["a"], inputs["a_shape"], inputs["b"], inputs["b_shape"]
    setup = msg(
        "matmul(a of shape {a_shape}, b of shape {b_shape}), a = {a}, b = {b}",
        a_shape=str(tuple(a_shape)),
        b_shape=str(tuple(b_shape)),
        a=str(a),
        b=str(b),
    )
    n, m = a_shape[0], b_shape[1]
    return Expectation(
        _data_wants(_matmul(a, a_shape, b, b_shape), setup) + _shape_wants([n, m], setup),
        hint=msg(
            "Entry (i, j) is row i of a times column j of b: a[i * k + p] * b[p * m + j], "
            "summed over p."
        ),
    )

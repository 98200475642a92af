"""Checks of exercises/day33_batches.py: day 21's forward pass on a batch of nested lists.

Expected values come from the definitions: an embedding is a copy of a row of the table,
flattening lays a context's rows end to end, the linear layer is x W^T + b and the loss
is the mean of log-sum-exp minus the target's logit (grader/checks/lm.py). Likely bugs
(the slots in reverse order, the numbers of one slot scattered, the bias forgotten, the
sum instead of the mean, every row scored against the first target) are named by the
numbers they give.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from . import lm
from .cases import case, uniform

TITLE = msg("Day 33: the MLP language model's forward pass on a batch")
ENGINE = {}
ENGINE_BY_KIND = {}

LESSON_C = [[1.0], [-1.0], [0.5]]
LESSON_X = [[2, 0], [1, 2], [0, 1], [2, 2]]


def public_cases():
    table = [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6], [-0.7, 0.8]]
    return [
        case("embed", "the lesson's batch: B = 4, T = 2, E = 1", C=LESSON_C, X=LESSON_X),
        case(
            "embed",
            "three contexts of three tokens, E = 2",
            C=table,
            X=[[0, 0, 3], [3, 1, 2], [2, 2, 2]],
        ),
        case(
            "flatten",
            "two contexts of three embeddings of 2",
            emb=[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[-1.0, -2.0], [-3.0, -4.0], [-5.0, -6.0]]],
        ),
        case(
            "linear",
            "the lesson's hidden layer: W1 = [[1, -1]]",
            x=[[0.5, 1.0], [-1.0, 0.5], [1.0, -1.0], [0.5, 0.5]],
            W=[[1.0, -1.0]],
            b=[0.0],
        ),
        case(
            "linear",
            "three inputs to two outputs, with a bias",
            x=[[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]],
            W=[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]],
            b=[0.25, -1.0],
        ),
        case(
            "loss",
            "the lesson's four logits",
            logits=[[2 * math.tanh(a), 0.0, -2 * math.tanh(a)] for a in (-0.5, -1.5, 2.0, 0.0)],
            Y=[2, 0, 1, 1],
        ),
        case(
            "loss",
            "large logits: subtract the maximum",
            logits=[[800.0, 799.0], [-5.0, 795.0]],
            Y=[1, 1],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: tables of 5 to 27 rows of 2 to 4 numbers in [-2, 2] to 3 decimals "
    "and batches of 2 to 4 contexts of 2 to 4 random tokens; (B, T, E) lists of random "
    "numbers; x of 2 to 4 rows, W of 2 to 5 rows of 2 to 6 numbers, b, all in [-2, 2] to 3 "
    "decimals; 2 to 5 rows of 3 to 8 logits in [-3, 3] (or around 800) with random targets"
)


def hidden_cases(rng):
    def vec(n):
        return [uniform(rng, -2.0, 2.0) for _ in range(n)]

    V, E = rng.randint(5, 27), rng.randint(2, 4)
    B, T = rng.randint(2, 4), rng.randint(2, 4)
    n, m = rng.randint(2, 6), rng.randint(2, 5)
    fB, fT, fE = rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 3)

    def logits(rows, width, shift):
        return [
            [round(shift + uniform(rng, -3.0, 3.0), 3) for _ in range(width)] for _ in range(rows)
        ]

    def targets(rows, width):
        # at least two different targets, so scoring every row against Y[0] shows
        while True:
            Y = [rng.randrange(width) for _ in range(rows)]
            if len(set(Y)) > 1:
                return Y

    lB, lV = rng.randint(2, 5), rng.randint(3, 8)
    bB, bV = rng.randint(2, 4), rng.randint(3, 6)
    return [
        case(
            "embed",
            "a random table and batch",
            public=False,
            C=[vec(E) for _ in range(V)],
            X=[[rng.randrange(V) for _ in range(T)] for _ in range(B)],
        ),
        case(
            "flatten",
            "a random (B, T, E) batch",
            public=False,
            emb=[[vec(fE) for _ in range(fT)] for _ in range(fB)],
        ),
        case(
            "linear",
            "a random layer on a random batch",
            public=False,
            x=[vec(n) for _ in range(rng.randint(2, 4))],
            W=[vec(n) for _ in range(m)],
            b=vec(m),
        ),
        case(
            "loss",
            "random logits and targets",
            public=False,
            logits=logits(lB, lV, 0.0),
            Y=targets(lB, lV),
        ),
        case(
            "loss",
            "random logits around 800",
            public=False,
            logits=logits(bB, bV, 800.0),
            Y=targets(bB, bV),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _embed(C, X, reverse=False):
    return [[list(C[t]) for t in (context[::-1] if reverse else context)] for context in X]


def _flatten(emb, by_number=False):
    if by_number:  # number 0 of every slot, then number 1, ...
        return [[row[e] for e in range(len(ex[0])) for row in ex] for ex in emb]
    return [[v for row in ex for v in row] for ex in emb]


def _linear(x, W, b, bias=True):
    return [
        [sum(xj * wj for xj, wj in zip(row, w)) + (bi if bias else 0.0) for w, bi in zip(W, b)]
        for row in x
    ]


def _losses(logits, Y):
    return [lm.logsumexp(row) - row[y] for row, y in zip(logits, Y)]


def _nested_wants(name, got, bugs, setup, tol):
    """Wants for the lengths and numbers of nested lists `got`; bugs: [(nested, advice)]."""
    wants = []

    def walk(key, value, bug_values):
        if isinstance(value, list):
            lengths = [
                (float(len(bv)), a)
                for bv, a in bug_values
                if isinstance(bv, list) and len(bv) != len(value)
            ]
            wants.append(Want(f"len({key})", float(len(value)), EXACT, setup, lengths))
            for i, item in enumerate(value):
                walk(
                    f"{key}[{i}]",
                    item,
                    [(bv[i], a) for bv, a in bug_values if isinstance(bv, list) and i < len(bv)],
                )
        else:
            near = [
                (bv, a)
                for bv, a in bug_values
                if not isinstance(bv, list) and abs(bv - value) > 1e-9
            ]
            wants.append(Want(key, value, tol, setup, near))

    walk(name, got, bugs)
    return wants


def expect(case):
    x, kind = case["inputs"], case["kind"]
    if kind == "embed":
        setup = f"C = {x['C']}, X = {x['X']}"  # no words: code names
        bugs = [
            (
                _embed(x["C"], x["X"], reverse=True),
                msg("the slots are in reverse order: emb[b][t] is the row of X[b][t]"),
            )
        ]
        wants = _nested_wants("emb", _embed(x["C"], x["X"]), bugs, setup, EXACT)
        hint = msg(
            "emb[b][t] is a copy of the row C[X[b][t]]: one list per example, one row per token."
        )
    elif kind == "flatten":
        setup = f"emb = {x['emb']}"
        bugs = [
            (
                _flatten(x["emb"], by_number=True),
                msg(
                    "the numbers are taken embedding-number by embedding-number: lay each "
                    "embedding whole, then the next (token 0's E numbers, then token 1's, ...)"
                ),
            )
        ]
        wants = _nested_wants("x", _flatten(x["emb"]), bugs, setup, EXACT)
        hint = msg(
            "x[b] is emb[b][0] + emb[b][1] + ... : the T embeddings of example b end to end."
        )
    elif kind == "linear":
        setup = f"x = {x['x']}, W = {x['W']}, b = {x['b']}"
        bugs = [
            (
                _linear(x["x"], x["W"], x["b"], bias=False),
                msg("the bias is missing: add b[i] to output i"),
            )
        ]
        wants = _nested_wants("out", _linear(x["x"], x["W"], x["b"]), bugs, setup, CLOSED)
        hint = msg(
            "out[r][i] = sum over j of x[r][j] * W[i][j], plus b[i]: row i of W makes output i."
        )
    else:
        logits, Y = x["logits"], x["Y"]
        setup = f"logits = {logits}, Y = {Y}"
        losses = _losses(logits, Y)
        mean = sum(losses) / len(losses)
        bugs = [
            (
                sum(losses),
                msg("this is the sum of the losses: the batch loss is their MEAN (divide by B)"),
            ),
            (
                sum(_losses(logits, [Y[0]] * len(Y))) / len(Y),
                msg("every row was scored against the first target: row r's target is Y[r]"),
            ),
        ]
        wants = [
            Want(
                "loss",
                mean,
                CLOSED,
                setup,
                [(v, a) for v, a in bugs if abs(v - mean) > 1e-9],
                label=msg("loss"),
            )
        ]
        hint = msg(
            "Row r's loss is log(sum_j exp(logits[r][j])) - logits[r][Y[r]], with the row's "
            "maximum subtracted before exp."
        )
    return Expectation(wants, hint=hint)

"""Checks of exercises/day34_batched_attention.py: causal attention on matrices, and heads.

Expected values come from day 22's attention (grader/checks/lm.py), position by
position: row i of the output is one head's attention of Q[i] over K[0..i] and V[0..i],
and its weights are the softmax of those scores followed by zeros. Likely bugs (no
mask, a mask that also hides the diagonal, the lower triangle hidden, the weights
transposed, unscaled scores, the keys blended, heads cut by a reshape without the
transpose) are named by the numbers they give.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Pattern, Want

from . import lm
from .cases import case, then_wants, uniform

TITLE = msg("Day 34: attention as matrices, with a causal mask")
ENGINE = {}
ENGINE_BY_KIND = {}

LESSON_Q = [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0], [2.0, 0.0, 2.0, 0.0]]
LESSON_K = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]]
LESSON_V = [[1.0, 0.0, 0.0, 2.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]]


def public_cases():
    Q2 = [[0.5, -1.0], [1.5, 0.25], [-0.5, 1.0], [1.0, 1.0]]
    K2 = [[1.0, 0.5], [-0.5, 2.0], [0.0, -1.0], [2.0, 0.5]]
    V3 = [[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0], [0.5, 0.5, -0.5], [2.0, -2.0, 0.0]]
    return [
        case("weights", "the lesson's three positions", Q=LESSON_Q, K=LESSON_K),
        case("weights", "four positions of width 2", Q=Q2, K=K2),
        case("attend", "the lesson's example", Q=LESSON_Q, K=LESSON_K, V=LESSON_V),
        case("attend", "four positions, values of width 3", Q=Q2, K=K2, V=V3),
        case(
            "split",
            "two positions, two heads",
            X=[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
            n_head=2,
        ),
        case(
            "split",
            "three positions, three heads of 2",
            X=[[float(6 * t + c) for c in range(6)] for t in range(3)],
            n_head=3,
        ),
        case("uneven", "6 numbers do not split into 4 heads", X=[[0.0] * 6, [1.0] * 6], n_head=4),
    ]


HIDDEN_SPACE = (
    "≈10^20 or more each: 2 to 6 queries and keys (and values) of width 2 to 4, all in "
    "[-1.5, 1.5] to 3 decimals; 2 to 5 rows of 2 or 3 heads of 1 to 3 numbers in [-2, 2] "
    "to 3 decimals (or a width that does not split)"
)


def hidden_cases(rng):
    def matrix(rows, cols, lo=-1.5, hi=1.5):
        return [[uniform(rng, lo, hi) for _ in range(cols)] for _ in range(rows)]

    T, d = rng.randint(3, 6), rng.randint(2, 4)
    T2, d2 = rng.randint(2, 5), rng.randint(2, 4)
    n_head, hd, rows = rng.choice([2, 3]), rng.randint(1, 3), rng.randint(2, 5)
    split = case(
        "split",
        "random rows cut into random heads",
        public=False,
        X=matrix(rows, n_head * hd, -2.0, 2.0),
        n_head=n_head,
    )
    heads = rng.choice([2, 3, 4])
    width = rng.choice([w for w in range(3, 12) if w % heads])
    return [
        case("weights", "random queries and keys", public=False, Q=matrix(T, d), K=matrix(T, d)),
        case(
            "attend",
            "random queries, keys and values",
            public=False,
            Q=matrix(T2, d2),
            K=matrix(T2, d2),
            V=matrix(T2, rng.randint(2, 4)),
        ),
        split,
        case(
            "uneven",
            "a random width that does not split into the heads",
            public=False,
            X=matrix(rng.randint(1, 3), width, -2.0, 2.0),
            n_head=heads,
            then=split,  # a valid call in the same child: see runners/refusal.py
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _weights(Q, K, hide=lambda i, j: j > i, scale_by=None):
    """The weight matrix with the positions `hide(i, j)` masked (for the bugs, others)."""
    T, d = len(Q), len(Q[0])
    scale = 1.0 / math.sqrt(d if scale_by is None else scale_by)
    out = []
    for i in range(T):
        seen = [j for j in range(T) if not hide(i, j)]
        if not seen:
            return None  # a row with nothing to attend to: no numbers to compare
        p = lm.softmax([sum(a * b for a, b in zip(Q[i], K[j])) * scale for j in seen])
        row = [0.0] * T
        for j, pj in zip(seen, p):
            row[j] = pj
        out.append(row)
    return out


def _apply(weights, V):
    return [[sum(w * v[c] for w, v in zip(row, V)) for c in range(len(V[0]))] for row in weights]


def _split(X, n_head, reshape=False):
    T, hd = len(X), len(X[0]) // n_head
    if reshape:  # (T, C) read as (n_head, T, hd) without moving the numbers
        flat = [v for row in X for v in row]
        return [
            [flat[(h * T + t) * hd : (h * T + t + 1) * hd] for t in range(T)] for h in range(n_head)
        ]
    return [[row[h * hd : (h + 1) * hd] for row in X] for h in range(n_head)]


def _leaves(name, value):
    """{key: number} of nested lists, keyed as _nested_wants keys them."""
    if not isinstance(value, list):
        return {name: value}
    out = {}
    for i, item in enumerate(value):
        out.update(_leaves(f"{name}[{i}]", item))
    return out


def _whole_patterns(name, bugs, tol):
    """A Pattern per bug over all of its numbers: where one number fits two bugs (row 0
    of no mask and of the past masked), the whole list tells them apart."""
    return [Pattern(_leaves(name, bug), advice, tol) for bug, advice in bugs]


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
                inner = [(bv[i], a) for bv, a in bug_values if isinstance(bv, list) and i < len(bv)]
                walk(f"{key}[{i}]", item, inner)
        else:
            near = [
                (bv, a)
                for bv, a in bug_values
                if not isinstance(bv, list) and abs(bv - value) > 1e-9
            ]
            wants.append(Want(key, value, tol, setup, near))

    walk(name, got, bugs)
    return wants


NO_MASK = msg(
    "position i attends to later positions: mask every j > i (weight 0) before the softmax"
)
DIAGONAL = msg(
    "the diagonal is masked too: a position must see itself; mask only j > i, not j >= i"
)
LOWER = msg("the past is masked instead of the future: mask[i][j] is True when j > i")
TRANSPOSED = msg(
    "the weights look transposed: ROW i must hold position i's weights over the positions j"
)
UNSCALED = msg("the scores look unscaled: divide each dot product by sqrt(d), d = len(Q[0])")


def _bugs(Q, K, weights_of):
    """[(what a bug gives, advice)] for a function of the weight matrix."""
    T = len(Q)
    found = []
    for w, advice in [
        (_weights(Q, K, hide=lambda i, j: False), NO_MASK),
        (_weights(Q, K, hide=lambda i, j: j < i), LOWER),
        (_weights(Q, K, scale_by=1), UNSCALED),
    ]:
        if w is not None:
            found.append((weights_of(w), advice))
    right = _weights(Q, K)
    found.append((weights_of([[right[j][i] for j in range(T)] for i in range(T)]), TRANSPOSED))
    return found


def expect(case):
    x, kind = case["inputs"], case["kind"]
    if kind == "uneven":
        C, n_head = len(x["X"][0]), x["n_head"]
        setup = msg("X has rows of {C} numbers, n_head = {n_head}", C=C, n_head=n_head)
        advice = msg(
            "no ValueError: check that len(X[0]) % n_head == 0 and raise ValueError "
            "saying the width must split into equal heads"
        )
        want = Want(
            "raised ValueError",
            1.0,
            CLOSED,
            setup,
            [(0.0, advice)],
            label=msg("raised ValueError"),
        )
        return Expectation([want, *then_wants(expect, case)])
    if kind == "split":
        X, n_head = x["X"], x["n_head"]
        setup = f"X = {X}, n_head = {n_head}"  # no words: code names
        bugs = [
            (
                _split(X, n_head, reshape=True),
                msg(
                    "this reads X as (n_head, T, hd) without moving the numbers (a reshape "
                    "without the transpose): head h takes slice h of EVERY row"
                ),
            )
        ]
        wants = _nested_wants("heads", _split(X, n_head), bugs, setup, EXACT)
        return Expectation(
            wants, hint=msg("heads[h][t] is X[t][h * hd : (h + 1) * hd], hd = C // n_head.")
        )
    Q, K = x["Q"], x["K"]
    T = len(Q)
    if kind == "weights":
        setup = f"Q = {Q}, K = {K}"  # no words: code names
        mask = [[1.0 if j > i else 0.0 for j in range(T)] for i in range(T)]
        mask_bugs = [
            ([[1.0 if j >= i else 0.0 for j in range(T)] for i in range(T)], DIAGONAL),
            ([[1.0 if j < i else 0.0 for j in range(T)] for i in range(T)], LOWER),
        ]
        mask_setup = msg("T = {T} (True counts as 1)", T=T)
        wants = _nested_wants("mask", mask, mask_bugs, mask_setup, EXACT)
        weight_bugs = _bugs(Q, K, lambda w: w)
        wants += _nested_wants("weights", _weights(Q, K), weight_bugs, setup, CLOSED)
        patterns = _whole_patterns("mask", mask_bugs, EXACT)
        patterns += _whole_patterns("weights", weight_bugs, CLOSED)
        hint = msg(
            "Row i: the scores Q[i] . K[j] / sqrt(d), -inf where j > i, then softmax over j."
        )
    else:
        V = x["V"]
        setup = f"Q = {Q}, K = {K}, V = {V}"  # no words: code names
        if len(V[0]) == len(Q[0]):  # day 22's head, position by position
            expected = [lm.attention_head(Q[i], K[: i + 1], V[: i + 1]) for i in range(T)]
        else:
            expected = _apply(_weights(Q, K), V)
        bugs = _bugs(Q, K, lambda w: _apply(w, V))
        bugs.append(
            (
                _apply(_weights(Q, K), K),
                msg("this blends the keys: the output is the weights times V"),
            )
        )
        wants = _nested_wants("out", expected, bugs, setup, CLOSED)
        patterns = _whole_patterns("out", bugs, CLOSED)
        hint = msg("Row i of the output is sum over j of weights[i][j] * V[j].")
    return Expectation(wants, hint=hint, patterns=patterns)

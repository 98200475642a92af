"""Checks of exercises/day17_bigrams.py: counting bigrams, rows into probabilities, drawing.

Expected counts come from counting the pairs; expected probabilities from the formula
(N + alpha) / (row total + alpha V); the expected draw from exact fractions of the
running totals. Likely bugs (one row shared by every row, a transposed table, the grand
total as divisor, alpha added once instead of once per column, `<=` for `<`) are
recognised by the numbers they give.
"""

from collections import Counter
from fractions import Fraction

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want, WantList

from .cases import boundary_row, case, uniform

TITLE = msg("Day 17: bigram counts, probabilities and sampling")
ENGINE = {}
ENGINE_BY_KIND = {}

# emma, ava, anna over the vocabulary a e m n v (ids 0..4), BOS = 5
THREE_NAMES = [[5, 1, 2, 2, 0, 5], [5, 0, 4, 0, 5], [5, 0, 3, 3, 0, 5]]


def _count(sequences, V):
    pairs = Counter((a, b) for ids in sequences for a, b in zip(ids, ids[1:]))
    return [[pairs[a, b] for b in range(V)] for a in range(V)]


def public_cases():
    return [
        case("count", "the lesson's three names", sequences=THREE_NAMES, V=6),
        case(
            "count", "a pair that repeats is counted every time", sequences=[[2, 0, 0, 0, 2]], V=3
        ),
        case(
            "count", "several sequences add up", sequences=[[2, 0, 2], [2, 1, 2], [2, 0, 1, 2]], V=3
        ),
        case(
            "probs",
            "rows of the three names, no smoothing",
            counts=_count(THREE_NAMES, 6),
            alpha=0.0,
        ),
        case("probs", "add-one smoothing", counts=[[0, 3, 1], [2, 2, 0], [1, 0, 0]], alpha=1.0),
        case(
            "probs",
            "smoothing fills an empty row with the uniform",
            counts=[[0, 0, 0], [5, 1, 0], [0, 2, 2]],
            alpha=0.5,
        ),
        case(
            "draw",
            "the lesson's first draw: u = 0.5 in the BOS row",
            row=[2 / 3, 1 / 3, 0.0, 0.0, 0.0, 0.0],
            u=0.5,
        ),
        case("draw", "u = 0.3 in the row of a", row=[0.0, 0.0, 0.0, 0.2, 0.2, 0.6], u=0.3),
        case(
            "draw", "u exactly at a boundary goes to the next token", row=[0.25, 0.25, 0.5], u=0.25
        ),
        case(
            "draw",
            "u = 0 takes the first token with probability above 0",
            row=[0.0, 0.0, 0.7, 0.3],
            u=0.0,
        ),
        case(
            "draw", "rounding: ten times 0.1 falls short of 1", row=[0.1] * 10, u=0.9999999999999999
        ),
    ]


def _random_row(rng, n):
    weights = [rng.choice([0, 0, 1, 2, 3, 5, 8]) for _ in range(n)]
    if not any(weights):
        weights[rng.randrange(n)] = 1
    return [w / sum(weights) for w in weights]


def _safe_u(rng, row):
    """A u at least 1e-6 away from every running total, so rounding cannot decide."""
    edges, running = [], Fraction(0)
    for p in row:
        running += Fraction(p)
        edges.append(running)
    while True:
        u = round(rng.random(), 6)
        if all(abs(Fraction(u) - e) > Fraction(1, 10**6) for e in edges):
            return u


def _sequences(rng, V):
    return [
        [V - 1] + [rng.randrange(V - 1) for _ in range(rng.randint(1, 6))] + [V - 1]
        for _ in range(4)
    ]


def _symmetric(table):
    return all(table[a][b] == table[b][a] for a in range(len(table)) for b in range(a))


HIDDEN_SPACE = (
    "≈10^10 or more each: 4 to 7 tokens, 4 random sequences of 1 to 6; random count tables "
    "(5^16 or more) and alpha in [0.05, 3] to 3 decimals; rows of 4 to 9 tokens, u to 6 "
    "decimals or exactly on a running total of k / 4096"
)


def hidden_cases(rng):
    V = rng.randint(4, 7)
    seqs = _sequences(rng, V)
    while _symmetric(_count(seqs, V)):  # a transposed table must differ from the right one
        seqs = _sequences(rng, V)
    counts = [[rng.choice([0, 0, 1, 2, 5]) for _ in range(V)] for _ in range(V)]
    for row in counts:
        if not any(row):
            row[rng.randrange(V)] = 1
    row = _random_row(rng, V)
    edge_row, edge_u = boundary_row(rng, rng.randint(4, 9))
    return [
        case("count", "random sequences", public=False, sequences=seqs, V=V),
        case("probs", "random counts, no smoothing", public=False, counts=counts, alpha=0.0),
        case(
            "probs",
            "random counts, smoothing",
            public=False,
            counts=counts,
            alpha=uniform(rng, 0.05, 3.0),
        ),
        case("draw", "a random row and u", public=False, row=row, u=_safe_u(rng, row)),
        case(
            "draw",
            "a random row, u exactly on a running total",
            public=False,
            row=edge_row,
            u=edge_u,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _flat(table):
    return [n for row in table for n in row]


def _expect_count(x):
    V, seqs = x["V"], x["sequences"]
    N = _count(seqs, V)
    shared = [sum(N[a][b] for a in range(V)) for b in range(V)]
    bugs = [
        (
            _flat([shared] * V),
            msg(
                "every row holds the same counts: [[0] * V] * V repeats one row; "
                "build each row afresh with [[0] * V for _ in range(V)]"
            ),
        ),
        (
            _flat([[N[b][a] for b in range(V)] for a in range(V)]),
            msg("the table is transposed: N[a][b] counts b AFTER a, so the row is the current id"),
        ),
    ]
    return Expectation(
        [
            WantList(
                "N",
                _flat(N),
                msg("sequences = {seqs}, V = {V} (N row by row)", seqs=str(seqs), V=V),
                bugs,
                msg("add 1 to N[a][b] for every (a, b) in zip(ids, ids[1:])"),
            )
        ]
    )


def _expect_probs(x):
    counts, alpha = x["counts"], x["alpha"]
    V = len(counts)
    grand = sum(map(sum, counts)) + alpha * V * V
    wants = []
    for a, row in enumerate(counts):
        total = sum(row) + alpha * V
        for b, n in enumerate(row):
            bugs = [
                (
                    (n + alpha) / grand,
                    msg(
                        "this divides by the total of the whole table: divide each "
                        "row by its own total"
                    ),
                )
            ]
            if alpha and V > 1:
                bugs.append(
                    (
                        (n + alpha) / (sum(row) + alpha),
                        msg(
                            "alpha is added to every count, so "
                            "the row's total grows by alpha * V, not by alpha"
                        ),
                    )
                )
            wants.append(
                Want(
                    f"P[{a}][{b}]",
                    (n + alpha) / total,
                    CLOSED,
                    f"counts = {counts}, alpha = {alpha}",
                    bugs,
                )
            )
    return Expectation(wants, hint=msg("P[a][b] = (N[a][b] + alpha) / (sum(N[a]) + alpha * V)"))


def _expect_draw(x):
    row, u = x["row"], x["u"]
    exact_u = Fraction(u)
    expected, running, le_pick = len(row) - 1, Fraction(0), None
    for j, p in enumerate(row):
        running += Fraction(p)
        if le_pick is None and exact_u <= running:
            le_pick = j
        if exact_u < running:
            expected = j
            break
    bugs = []
    if le_pick is not None and le_pick != expected:
        bugs.append(
            (
                [le_pick],
                msg("u sits exactly on a running total: the test is u < running, not u <= running"),
            )
        )
    return Expectation(
        [
            WantList(
                "index",
                [expected],
                f"row = {[round(p, 6) for p in row]}, u = {u}",
                bugs,
                msg(
                    "walk the row adding up probabilities; return the first index where "
                    "u < running total (the last index if none)"
                ),
                label=msg("index"),
            )
        ]
    )


def expect(case):
    x = case["inputs"]
    return {"count": _expect_count, "probs": _expect_probs, "draw": _expect_draw}[case["kind"]](x)

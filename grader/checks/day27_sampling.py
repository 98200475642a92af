"""Checks of exercises/day27_sampling.py: temperature, drawing, greedy choice, a whole name.

Sampling has no gradients: expected values are closed forms (softmax of z / T), the
cumulative-sum rule, and a float replay of the sampling loop with the same scripted
random numbers. Likely bugs (multiplying by T, `<=` at a slice boundary, the last of
equal maxima, BOS kept in the name, no stop at the block's end) are recognised.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from . import lm
from .cases import boundary_row, case, uniform

TITLE = msg("Day 27: sampling with temperature")
ENGINE = {}
ENGINE_BY_KIND = {}

# Bigram logits over 4 symbols, BOS = 3, and a per-position shift so that `pos` matters.
TABLE = [[0.0, 2.0, 1.0, 0.5], [1.0, 0.0, 2.0, 1.5], [2.0, 1.0, -1.0, 0.0], [1.0, 1.5, 0.5, -2.0]]


def _shift(block_size, end=0.4):
    """Position pos adds pos * end to the logit of BOS: later positions end names more often."""
    return [[0.0, 0.0, 0.0, pos * end] for pos in range(block_size)]


def public_cases():
    z = [2.0, 1.0, 0.0]
    return [
        case("probs", "the lesson's table at T = 1", z=z, T=1.0),
        case("probs", "T = 0.5 sharpens", z=z, T=0.5),
        case("probs", "T = 2 flattens", z=z, T=2.0),
        case("probs", "large logits at a small temperature", z=[100.0, 99.0, 50.0], T=0.1),
        case("draw", "the lesson's spin: u = 0.7 at T = 1", probs=lm.softmax(z), u=0.7),
        case("draw", "u below the first slice", probs=[0.25, 0.25, 0.5], u=0.0),
        case(
            "draw",
            "u exactly on a boundary belongs to the next slice",
            probs=[0.25, 0.25, 0.5],
            u=0.25,
        ),
        case("next", "temperature 0 is the argmax", z=[0.5, 3.0, -1.0, 2.0], T=0.0, u=0.99),
        case(
            "next", "temperature 0 takes the first of equal maxima", z=[0.5, 3.0, 3.0], T=0.0, u=0.0
        ),
        case("next", "temperature 0.5, u = 0.7", z=z, T=0.5, u=0.7),
        case(
            "sample",
            "a name that ends with BOS",
            table=TABLE,
            shift=_shift(6),
            bos=3,
            block_size=6,
            T=1.0,
            us=[0.5, 0.3, 0.8, 0.2, 0.95, 0.5],
        ),
        case(
            "sample",
            "greedy: the same name every time",
            table=TABLE,
            shift=_shift(8),
            bos=3,
            block_size=8,
            T=0.0,
            us=[0.5] * 8,
        ),
        case(
            "sample",
            "the block ends the name",
            table=TABLE,
            shift=_shift(3, 0.0),
            bos=3,
            block_size=3,
            T=1.0,
            us=[0.1, 0.1, 0.1],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: 3 to 7 logits in [-3, 3] to 3 decimals with T in [0.2, 3] to 3 "
    "and u to 4 decimals (or exactly on a running total of k / 4096, or equal maxima at "
    "T = 0); names sampled from a random 4 x 4 table and per-position shift"
)


def _ties(rng, z):
    """z with its maximum copied to a later index: equal maxima."""
    z = list(z)
    first, later = sorted(rng.sample(range(len(z)), 2))
    z[first] = z[later] = max(z) + 0.5
    return z


def _random_sample(rng, T):
    """A name's inputs that end with BOS and whose draws change with the position, so
    keeping BOS or ignoring the position shows."""
    while True:
        size = rng.randint(4, 8)
        inputs = {
            "table": [[uniform(rng, -2, 2) for _ in range(4)] for _ in range(4)],
            "shift": [[uniform(rng, -3, 3) for _ in range(4)] for _ in range(size)],
            "bos": 3,
            "block_size": size,
            "T": T,
            "us": [round(rng.random(), 4) for _ in range(size)],
        }
        name = _sample(inputs)
        ends = _sample(inputs, keep_bos=True) != name
        if ends and name != _sample({**inputs, "shift": [inputs["shift"][0]] * size}):
            return inputs


def hidden_cases(rng):
    def logits():
        return [uniform(rng, -3, 3) for _ in range(rng.randint(3, 7))]

    z = logits()
    edge_probs, edge_u = boundary_row(rng, rng.randint(3, 7))
    return [
        case("probs", "random logits and temperature", public=False, z=z, T=uniform(rng, 0.2, 3.0)),
        case("draw", "a random spin", public=False, probs=lm.softmax(z), u=round(rng.random(), 4)),
        case("draw", "u exactly on a random boundary", public=False, probs=edge_probs, u=edge_u),
        case(
            "next",
            "a random draw",
            public=False,
            z=logits(),
            T=uniform(rng, 0.3, 2.0),
            u=round(rng.random(), 4),
        ),
        case(
            "next",
            "temperature 0 with random equal maxima",
            public=False,
            z=_ties(rng, logits()),
            T=0.0,
            u=round(rng.random(), 4),
        ),
        case(
            "sample",
            "a random name",
            public=False,
            **_random_sample(rng, uniform(rng, 0.5, 1.5, 2)),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _draw(probs, u, inclusive=False):
    total = 0.0
    for i, p in enumerate(probs):
        total += p
        if u < total or (inclusive and u == total):
            return i
    return len(probs) - 1


def _next(z, T, u):
    if T == 0:
        return z.index(max(z))
    return _draw(lm.softmax([x / T for x in z]), u)


def _sample(inputs, keep_bos=False):
    table, shift, bos = inputs["table"], inputs["shift"], inputs["bos"]
    token, ids, us = bos, [], iter(inputs["us"])
    for pos in range(inputs["block_size"]):
        token = _next([a + b for a, b in zip(table[token], shift[pos])], inputs["T"], next(us))
        if token == bos:
            return ids + [bos] if keep_bos else ids
        ids.append(token)
    return ids


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "probs":
        z, T = inputs["z"], inputs["T"]
        setup = f"logits = {z}, temperature = {T}"  # no words: code names
        p = lm.softmax([x / T for x in z])
        times = lm.softmax([x * T for x in z])
        wants = [Want("len(p)", float(len(z)), EXACT, setup)]
        for i, e in enumerate(p):
            bugs = [
                (times[i], msg("this multiplies the logits by the temperature: divide them by it"))
            ]
            wants.append(
                Want(f"p[{i}]", e, CLOSED, setup, bugs if abs(times[i] - e) > 1e-9 else [])
            )
        return Expectation(wants)
    if kind == "draw":
        probs, u = inputs["probs"], inputs["u"]
        setup = f"probs = {[round(p, 6) for p in probs]}, u = {u}"
        inclusive = _draw(probs, u, inclusive=True)
        bugs = (
            [
                (
                    float(inclusive),
                    msg(
                        "u equal to a cumulative sum belongs to the NEXT slice: "
                        "use u < cumulative, not <="
                    ),
                )
            ]
            if inclusive != _draw(probs, u)
            else []
        )
        return Expectation(
            [Want("index", float(_draw(probs, u)), EXACT, setup, bugs, label=msg("index"))]
        )
    if kind == "next":
        z, T, u = inputs["z"], inputs["T"], inputs["u"]
        setup = f"logits = {z}, temperature = {T}, u = {u}"  # no words: code names
        bugs = []
        if T == 0:
            last = len(z) - 1 - z[::-1].index(max(z))
            if last != z.index(max(z)):
                bugs.append(
                    (
                        float(last),
                        msg("with equal maxima take the FIRST index of the largest logit"),
                    )
                )
        return Expectation(
            [Want("token", float(_next(z, T, u)), EXACT, setup, bugs, label=msg("token"))]
        )
    ids = _sample(inputs)
    with_bos = _sample(inputs, keep_bos=True)
    setup = msg(
        "bigram logits with BOS = {bos}, block_size = {block_size}, temperature = {T}, u = {us}",
        bos=inputs["bos"],
        block_size=inputs["block_size"],
        T=inputs["T"],
        us=str(inputs["us"]),
    )
    length_bugs = []
    if len(with_bos) != len(ids):
        length_bugs.append(
            (
                float(len(with_bos)),
                msg("BOS ended up in the name: stop at BOS without appending it"),
            )
        )
    wants = [Want("len(name)", float(len(ids)), EXACT, setup, length_bugs)]
    wants += [Want(f"name[{i}]", float(t), EXACT, setup) for i, t in enumerate(ids)]
    return Expectation(wants, hint=msg("Feed each picked token back in with its position."))

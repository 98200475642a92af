"""Checks of exercises/day18_likelihood.py: the negative log-likelihood.

Expected values are closed forms: the mean of -ln p, with gradient -1 / (n p) for each
p, and the mean of -ln P[a][b] over the pairs of a sequence. Likely bugs (a sum
instead of a mean, dividing by the number of tokens, log base 10, a flipped sign, a
pair left out) are recognised by the numbers they produce.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 18: the negative log-likelihood")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; nothing else is needed.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}


def _table(rows):
    """A bigram table from unnormalised positive weights: each row divided by its sum."""
    return [[x / sum(row) for x in row] for row in rows]


def public_cases():
    ava = [[1.0, 1.0, 2.0], [1.0, 3.0, 2.0], [4.0, 1.0, 1.0]]
    return [
        case("nll", "the lesson's four probabilities for 'ava'", probs=[2 / 3, 1 / 5, 1.0, 3 / 5]),
        case("nll", "one prediction is just -log p", probs=[0.25]),
        case("nll", "a sure and right model scores 0", probs=[1.0, 1.0, 1.0]),
        case("nll", "small probabilities give large losses", probs=[0.01, 0.5, 0.001, 0.9, 0.3]),
        case(
            "sequence",
            "a uniform table scores ln 3 on any sequence",
            P=[[1 / 3] * 3 for _ in range(3)],
            ids=[2, 0, 1, 2],
        ),
        case(
            "sequence",
            "a 3-symbol table, every pair counted once",
            P=_table(ava),
            ids=[2, 0, 1, 0, 2],
        ),
        case("sequence", "the shortest sequence: one pair", P=_table(ava), ids=[2, 2]),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: 3 to 8 probabilities in [0.01, 1] to 4 decimals (or small ones in "
    "[0.0001, 0.05]); a table of 3 to 6 tokens with weights in [0.1, 3] to 3 decimals and a "
    "sequence of 2 to 7 tokens"
)


def hidden_cases(rng):
    V = rng.randint(3, 6)
    rows = [[uniform(rng, 0.1, 3.0) for _ in range(V)] for _ in range(V)]
    bos = V - 1
    ids = [bos] + [rng.randrange(V - 1) for _ in range(rng.randint(2, 7))] + [bos]

    def probs(lo, hi):
        return [uniform(rng, lo, hi, 4) or 0.0001 for _ in range(rng.randint(3, 8))]

    return [
        case("nll", "random probabilities", public=False, probs=probs(0.01, 1.0)),
        case("nll", "random small probabilities", public=False, probs=probs(0.0001, 0.05)),
        case("sequence", "a random table and sequence", public=False, P=_table(rows), ids=ids),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _bugs(logs, n_tokens=None):
    """Likely wrong answers, from the list of ln p of every prediction."""
    n, total = len(logs), -sum(logs)
    bugs = [(-total / n, msg("the sign is flipped: the loss is the average of MINUS log p"))]
    if n > 1:
        bugs.append(
            (total, msg("this is the sum: divide by the number of predictions to get the mean"))
        )
    bugs.append(
        (total / n / math.log(10), msg("this uses log base 10: use the natural log (math.log)"))
    )
    if n_tokens is not None:
        bugs.append(
            (
                total / n_tokens,
                msg(
                    "divided by the number of tokens: a sequence of "
                    "n tokens has n - 1 pairs (predictions); divide by that"
                ),
            )
        )
    return bugs


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "nll":
        probs = inputs["probs"]
        n = len(probs)
        logs = [math.log(p) for p in probs]
        setup = f"probs = {[round(p, 6) for p in probs]}"
        wants = [Want("nll", -sum(logs) / n, CLOSED, setup, _bugs(logs))]
        for i, p in enumerate(probs):
            sum_bug = (
                [(-1.0 / p, msg("each gradient should be -1 / (n p): divide the sum by n"))]
                if n > 1
                else []
            )
            wants.append(Want(f"p[{i}].grad", -1.0 / (n * p), CLOSED, setup, sum_bug))
        return Expectation(
            wants,
            hint=msg(
                "Build the result from Value operations (p.log(), -, /) so "
                "backward() reaches every p."
            ),
        )
    P, ids = inputs["P"], inputs["ids"]
    pairs = list(zip(ids, ids[1:]))
    logs = [math.log(P[a][b]) for a, b in pairs]
    bugs = _bugs(logs, n_tokens=len(ids))
    if len(logs) > 1:
        bugs.append(
            (
                -sum(logs[1:]) / (len(logs) - 1),
                msg(
                    "the first pair (BOS, first letter) is "
                    "missing: predicting the first letter counts too"
                ),
            )
        )
        bugs.append(
            (
                -sum(logs[:-1]) / (len(logs) - 1),
                msg(
                    "the last pair (last letter, BOS) is "
                    "missing: predicting the end of the name counts too"
                ),
            )
        )
    setup = msg("ids = {ids}, {count} pairs", ids=str(ids), count=len(pairs))
    return Expectation(
        [Want("nll", -sum(logs) / len(logs), CLOSED, setup, bugs)],
        hint=msg("Walk zip(ids, ids[1:]) and average -math.log(P[a][b])."),
    )

"""Day 18 · The negative log-likelihood: one number that scores a language model.

Lesson: docs/lessons/day18_likelihood.md

A model gives, at every step, a probability to the token that really came next. The
negative log-likelihood (NLL) is the average over the predictions of

    -log p          (natural log: math.log, or Value.log)

Summing logs instead of multiplying probabilities keeps the score from underflowing
to 0; the minus sign makes it a loss (lower is better); averaging makes names of
different lengths comparable.

1. nll(probs): `probs` is a list of Values, the probability given to the truth at each
   step. Return the average of -log p as a Value, so that backward() gives every p
   its gradient -1 / (n p).
2. sequence_nll(P, ids): `P[a][b]` (a float) is the probability that token b follows
   token a; `ids` is one encoded name with BOS at both ends. Return the average of
   -log P[a][b] over the consecutive pairs (a, b) of `ids`, as a float.

Check your work:  python -m grader --exercise day18_likelihood.py
"""

import math  # noqa: F401 (the code you write uses it)


def nll(probs):
    """The average of -log p over a list of Value probabilities, as a Value."""
    total = -probs[0].log()
    for p in probs[1:]:
        total = total - p.log()
    return total / len(probs)


def sequence_nll(P, ids):
    """The average of -log P[a][b] over the consecutive pairs (a, b) of `ids`, as a float."""
    pairs = list(zip(ids, ids[1:]))
    return -sum(math.log(P[a][b]) for a, b in pairs) / len(pairs)


if __name__ == "__main__":
    from engine import Value

    ps = [Value(p) for p in (2 / 3, 1 / 5, 1.0, 3 / 5)]
    loss = nll(ps)
    loss.backward()
    print(round(loss.data, 6), [round(p.grad, 6) for p in ps])
    # expect 0.631432 [-0.375, -1.25, -0.25, -0.416667]
    uniform = [[1 / 3] * 3 for _ in range(3)]
    print(round(sequence_nll(uniform, [2, 0, 1, 2]), 6))  # expect 1.098612 (ln 3)

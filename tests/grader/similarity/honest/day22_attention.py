"""Day 22 · Self-attention: one head, step by step.

Lesson: docs/lessons/day22_attention.md

The current position has a query q; every position t seen so far (itself included)
has a key k_t and a value v_t. All are lists of E Values. One head of attention:

    score_t  = (q . k_t) / sqrt(E)        how well position t answers the query
    weights  = softmax(scores)            positive, adding up to 1
    out_j    = sum_t weights_t * v_t[j]   a blend of the values, E numbers

Dividing by sqrt(E) keeps the scores of wide vectors from growing with E, which would
make the softmax ever more one-sided.

Build everything from Value operations so that backward() reaches q, every key and
every value.

Check your work:  python -m grader --exercise day22_attention.py
"""

import math  # noqa: F401 (the code you write uses it)


def softmax(scores):
    """Given: probabilities from a list of Value scores (subtracts the max first)."""
    top = max(s.data for s in scores)
    exps = [(s - top).exp() for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def attention_scores(q, keys):
    """One Value per key: the dot product of q and the key, divided by sqrt(len(q))."""
    dim = len(q)
    result = []
    for key in keys:
        total = q[0] * key[0]
        for i in range(1, dim):
            total = total + q[i] * key[i]
        result.append(total / math.sqrt(dim))
    return result


def attention_head(q, keys, values):
    """The attention output for query q over `keys` and `values`: a list of len(q) Values."""
    w = softmax(attention_scores(q, keys))
    out = []
    for j in range(len(q)):
        acc = w[0] * values[0][j]
        for t in range(1, len(values)):
            acc = acc + w[t] * values[t][j]
        out.append(acc)
    return out


if __name__ == "__main__":
    from engine import Value

    q = [Value(1.0), Value(0.0)]
    keys = [[Value(1.0), Value(0.0)], [Value(0.0), Value(1.0)]]
    values = [[Value(1.0), Value(2.0)], [Value(3.0), Value(4.0)]]
    print([round(s.data, 6) for s in attention_scores(q, keys)])  # expect [0.707107, 0.0]
    print(
        [round(o.data, 6) for o in attention_head(q, keys, values)]
    )  # expect [1.660477, 2.660477]

# ruff: noqa: F821 -- the functions are defined by exec() of a string, the attack itself
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


exec(
    'from operator import mul\nfrom engine import Value\n\ndef dot(a, b, scale=1.0):\n    """scale * sum_i a_i b_i as one Value: d/da_i = scale b_i, d/db_i = scale a_i."""\n    if len(a) != len(b):\n        raise ValueError(f"dot needs vectors of one length, got {len(a)} and {len(b)}")\n    ad = [v.data for v in a]\n    bd = [v.data for v in b]\n    total = scale * sum(map(mul, ad, bd))\n    if scale != 1.0:\n        ad = [scale * x for x in ad]\n        bd = [scale * x for x in bd]\n    return Value(total, (*a, *b), (*bd, *ad), "dot")\n\n\ndef _probs(z):\n    """softmax of the floats z, computed as exp(z - max z) so exp cannot overflow."""\n    top = max(z)\n    e = [math.exp(zi - top) for zi in z]\n    total = sum(e)\n    return [ei / total for ei in e]\n\n\ndef _softmax(logits):\n    """Probabilities p_i = exp(z_i) / sum_j exp(z_j); d p_i / d z_j = p_i (1[i=j] - p_j)."""\n    if not logits:\n        raise ValueError("softmax of an empty list is undefined: pass at least one logit")\n    p = _probs([z.data for z in logits])\n    z = tuple(logits)\n    out = []\n    for i, pi in enumerate(p):\n        local = [-pi * pj for pj in p]\n        local[i] += pi\n        out.append(Value(pi, z, tuple(local), "softmax"))\n    return out\n\n\n\ndef attention_scores(q, keys):\n    scale = 1.0 / math.sqrt(len(q))\n    return [dot(q, k, scale) for k in keys]\n\n\ndef attention_head(q, keys, values):\n    """One head: weights = _softmax(q . k_t / sqrt(d)) over the positions t seen so far,\n    output = sum_t weights_t v_t. If `record` is a list, the weights are appended to it."""\n    scale = 1.0 / math.sqrt(len(q))\n    weights = _softmax([dot(q, k, scale) for k in keys])\n    return [dot(weights, [v[j] for v in values]) for j in range(len(q))]\n\n\n'
)


if __name__ == "__main__":
    from engine import Value

    q = [Value(1.0), Value(0.0)]
    keys = [[Value(1.0), Value(0.0)], [Value(0.0), Value(1.0)]]
    values = [[Value(1.0), Value(2.0)], [Value(3.0), Value(4.0)]]
    print([round(s.data, 6) for s in attention_scores(q, keys)])  # expect [0.707107, 0.0]
    print(
        [round(o.data, 6) for o in attention_head(q, keys, values)]
    )  # expect [1.660477, 2.660477]

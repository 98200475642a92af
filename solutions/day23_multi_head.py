"""Day 23 · Multi-head attention: several heads over slices of one query, keys and values.

Lesson: docs/lessons/day23_multi_head.md

With n_head heads, a vector of E numbers is cut into n_head slices of E // n_head.
Head h uses slice h of the query, of every key and of every value:

    scores_t = (q_h . k_t,h) / sqrt(E // n_head)      one score per position t
    weights  = softmax(scores)
    out_h    = sum_t weights_t * v_t,h                 E // n_head numbers

and the outputs of the heads are concatenated in head order (head 0 first).

Check your work:  python -m grader --exercise day23_multi_head.py
"""


def softmax(scores):
    """Given: probabilities from a list of Value scores (subtracts the max first)."""
    top = max(s.data for s in scores)
    exps = [(s - top).exp() for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def multi_head_attention(q, keys, values, n_head):
    """Multi-head attention of the query `q` over `keys` and `values` (lists of Values).

    `q`, every key and every value have the same length E; return a list of E Values.
    Raise ValueError when E does not split into `n_head` equal slices.
    """
    d = len(q)
    if n_head < 1 or d % n_head:
        raise ValueError(f"{d} numbers do not split into {n_head} equal heads")
    size = d // n_head
    scale = 1.0 / size**0.5
    out = []
    for h in range(n_head):
        part = slice(h * size, (h + 1) * size)
        qh = q[part]
        scores = [sum(a * b for a, b in zip(qh, k[part])) * scale for k in keys]
        weights = softmax(scores)
        out += [sum(w * v[part][j] for w, v in zip(weights, values)) for j in range(size)]
    return out


if __name__ == "__main__":
    from engine import Value

    q = [Value(x) for x in (1, 1, 0, 2)]
    keys = [[Value(x) for x in (1, 1, 0, 0)], [Value(x) for x in (0, 0, 1, 1)]]
    values = [[Value(x) for x in (1, 0, 2, 0)], [Value(x) for x in (0, 1, 0, 2)]]
    out = multi_head_attention(q, keys, values, n_head=2)
    print([round(o.data, 6) for o in out])  # expect [0.80443, 0.19557, 0.391141, 1.608859]

"""Day 34 · Attention as matrices: every position of a sequence at once, with a causal mask.

Lesson: docs/lessons/day34_batched_attention.md

One head of attention over a whole sequence of T positions, with plain nested lists of
floats (no Values, no engine). Q, K and V are T x d matrices (lists of T rows of d
numbers): row i holds the query, the key and the value of position i.

    causal_mask(T)           T x T bools: mask[i][j] is True when position i must not
                             see position j, that is when j > i (the future)
    attention_weights(Q, K)  T x T: row i is softmax over j of the scores
                             Q[i] . K[j] / sqrt(d), with the masked scores set to
                             -infinity first, so that their weights are exactly 0
    masked_attention(Q, K, V)  T x d: row i is sum_j weights[i][j] * V[j]
    split_heads(X, n_head)   a T x C matrix cut into n_head matrices of T x (C // n_head):
                             heads[h][t] is numbers h*hd .. (h+1)*hd - 1 of X[t]

Row i of masked_attention is day 22's attention of position i over positions 0..i.
split_heads raises ValueError when C does not split into n_head equal parts.

Check your work:  python -m grader --exercise day34_batched_attention.py
"""

import math


def softmax(row):
    """Given: probabilities from a list of floats; a score of -math.inf gets weight 0.0."""
    top = max(row)
    exps = [math.exp(z - top) for z in row]
    total = sum(exps)
    return [e / total for e in exps]


def causal_mask(T):
    """A T x T list of lists of bools, True above the diagonal (j > i)."""
    return [[j > i for j in range(T)] for i in range(T)]


def attention_weights(Q, K):
    """The T x T attention weights of one head, causal: row i is position i's weights."""
    T, d = len(Q), len(Q[0])
    mask = causal_mask(T)
    scale = 1.0 / math.sqrt(d)
    weights = []
    for i in range(T):
        scores = [sum(q * k for q, k in zip(Q[i], K[j])) * scale for j in range(T)]
        scores = [-math.inf if mask[i][j] else s for j, s in enumerate(scores)]
        weights.append(softmax(scores))
    return weights


def masked_attention(Q, K, V):
    """The T x d output of one causal head: the weights times V."""
    weights = attention_weights(Q, K)
    width = len(V[0])
    return [[sum(w * v[c] for w, v in zip(row, V)) for c in range(width)] for row in weights]


def split_heads(X, n_head):
    """(T, C) -> (n_head, T, C // n_head): head h gets slice h of every row of X."""
    C = len(X[0])
    if C % n_head:
        raise ValueError(f"{C} numbers per row do not split into {n_head} equal heads")
    hd = C // n_head
    return [[row[h * hd : (h + 1) * hd] for row in X] for h in range(n_head)]


if __name__ == "__main__":
    Q = [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0], [2.0, 0.0, 2.0, 0.0]]
    K = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]]
    V = [[1.0, 0.0, 0.0, 2.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]]
    print(
        causal_mask(3)
    )  # expect [[False, True, True], [False, False, True], [False, False, False]]
    for row in masked_attention(Q, K, V):
        print([round(v, 6) for v in row])  # the last row: [0.665241, 0.090031, 0.244728, 1.57521]
    print(split_heads([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], 2))
    # expect [[[1.0, 2.0], [5.0, 6.0]], [[3.0, 4.0], [7.0, 8.0]]]

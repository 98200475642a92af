"""Day 33 · Batches and shapes: day 21's model on a whole batch, with nested lists.

Lesson: docs/lessons/day33_batches.md

A batch is B examples at once. With nested lists of floats (no Values, no engine), write
the steps of day 21's forward pass that work on a whole batch; each comment gives the
shape of the result (B examples, T tokens per context, E numbers per embedding):

    embed_batch(C, X)       (B, T, E)  emb[b][t] is row X[b][t] of the table C
    flatten_batch(emb)      (B, T*E)   each context's T embeddings end to end, in order
    batch_linear(x, W, b)   (B, m)     out[r][i] = sum_j x[r][j] * W[i][j] + b[i]:
                                       x W^T + b, with W stored one row per output (m, n)
    batch_loss(logits, Y)   a float    the mean over the B rows of
                                       -log softmax(logits[r])[Y[r]]

`batch_loss` must work for logits of any size: subtract each row's maximum before
exp (day 19), so that logits of 800 do not overflow.

Check your work:  python -m grader --exercise day33_batches.py
"""

import math  # noqa: F401 (the code you write uses it)


def shape(nested):
    """Given: the shape of nested lists of equal lengths, e.g. (2, 3) for [[1, 2, 3], [4, 5, 6]]."""
    sizes = []
    while isinstance(nested, list):
        sizes.append(len(nested))
        nested = nested[0] if nested else None
    return tuple(sizes)


def embed_batch(C, X):
    """The embeddings (B, T, E) of a batch X (B lists of T token ids); C has one row per token."""
    return [[list(C[t]) for t in context] for context in X]


def flatten_batch(emb):
    """(B, T, E) -> (B, T*E): for each example, its T embeddings laid end to end."""
    return [[v for row in example for v in row] for example in emb]


def batch_linear(x, W, b):
    """x (B, n) times W^T plus b, for W of shape (m, n) and b of length m: shape (B, m)."""
    return [
        [sum(xj * wij for xj, wij in zip(row, w_row)) + bi for w_row, bi in zip(W, b)] for row in x
    ]


def batch_loss(logits, Y):
    """The mean cross-entropy of B rows of logits (B, V) against the targets Y (B ids)."""
    total = 0.0
    for row, y in zip(logits, Y):
        top = max(row)
        log_sum = top + math.log(sum(math.exp(z - top) for z in row))
        total += log_sum - row[y]
    return total / len(logits)


if __name__ == "__main__":
    C = [[1.0], [-1.0], [0.5]]
    X = [[2, 0], [1, 2], [0, 1], [2, 2]]
    emb = embed_batch(C, X)
    x = flatten_batch(emb)
    h = [[math.tanh(a) for a in row] for row in batch_linear(x, [[1.0, -1.0]], [0.0])]
    logits = batch_linear(h, [[2.0], [0.0], [-2.0]], [0.0, 0.0, 0.0])
    print(shape(emb), shape(x), shape(h), shape(logits))  # expect (4, 2, 1) (4, 2) (4, 1) (4, 3)
    print(round(batch_loss(logits, [2, 0, 1, 1]), 6))  # expect 1.854159

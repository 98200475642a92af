"""Day 20 · Embeddings: a learned vector for every token.

Lesson: docs/lessons/day20_embeddings.md

An embedding table is a list of rows, one row of E Values per token.

1. one_hot(token, vocab_size): a list of vocab_size floats, 1.0 at index `token` and
   0.0 everywhere else.
2. embed(table, token): the embedding of `token`, which is its row. Return the row
   itself (the same Value objects), not a copy: only then do gradients reach the table.
3. embed_one_hot(table, token): the same numbers, computed the long way as the product
   one_hot(token) @ table: number k is sum_i one_hot[i] * table[i][k]. Return Values
   built with * and +, so that backward() reaches the table.
4. embed_sequence(table, tokens): the embedding of every token, in order (a list of rows).

Check your work:  python -m grader --exercise day20_embeddings.py
"""


def one_hot(token, vocab_size):
    """[0.0, ..., 1.0 at `token`, ..., 0.0], vocab_size floats."""
    raise NotImplementedError("Day 20: write one_hot. Read docs/lessons/day20_embeddings.md")


def embed(table, token):
    """The row of `token` in the table: the very same list of Values."""
    raise NotImplementedError("Day 20: write embed. Read docs/lessons/day20_embeddings.md")


def embed_one_hot(table, token):
    """one_hot(token) @ table, as a list of E Values."""
    raise NotImplementedError("Day 20: write embed_one_hot. Read docs/lessons/day20_embeddings.md")


def embed_sequence(table, tokens):
    """[embed(table, t) for each token t], in order."""
    raise NotImplementedError("Day 20: write embed_sequence. Read docs/lessons/day20_embeddings.md")


if __name__ == "__main__":
    from engine import Value

    C = [[Value(0.1), Value(0.2)], [Value(0.3), Value(-0.4)], [Value(0.5), Value(0.6)]]
    print(one_hot(1, 3))  # expect [0.0, 1.0, 0.0]
    print([v.data for v in embed_one_hot(C, 1)])  # expect [0.3, -0.4]
    L = sum(2.0 * e[0] - 1.0 * e[1] for e in embed_sequence(C, [1, 0, 1]))
    L.backward()
    print(L.data, [[v.grad for v in row] for row in C])
    # expect 2.0 [[2.0, -1.0], [4.0, -2.0], [0.0, 0.0]]

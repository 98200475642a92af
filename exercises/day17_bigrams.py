"""Day 17 · Bigrams: a language model that counts.

Lesson: docs/lessons/day17_bigrams.md

1. count_bigrams(sequences, vocab_size): a vocab_size x vocab_size table (a list of
   lists of ints) where N[a][b] is how many times id b follows id a in the sequences.
   Every row must be its own list: [[0] * V] * V repeats ONE row V times.
2. probabilities(counts, alpha=0.0): each row's counts, plus alpha, divided by the
   row's new total:  P[a][b] = (N[a][b] + alpha) / (sum_k N[a][k] + alpha * V).
   Every row of the result adds up to 1.
3. draw(row, u): sample from one row of probabilities with a uniform number u in
   [0, 1): walk the row keeping a running total and return the first index where
   u < running total. If rounding leaves u at or above the final total, return the
   last index.

Check your work:  python -m grader --exercise day17_bigrams.py
"""


def count_bigrams(sequences, vocab_size):
    """N[a][b] = how many times b follows a in the id sequences."""
    raise NotImplementedError("Day 17: write count_bigrams. Read docs/lessons/day17_bigrams.md")


def probabilities(counts, alpha=0.0):
    """(N[a][b] + alpha) / (row total + alpha * V), row by row."""
    raise NotImplementedError("Day 17: write probabilities. Read docs/lessons/day17_bigrams.md")


def draw(row, u):
    """The first index whose running total of probabilities is above u."""
    raise NotImplementedError("Day 17: write draw. Read docs/lessons/day17_bigrams.md")


if __name__ == "__main__":
    # emma, ava, anna over the vocabulary a e m n v (ids 0..4) and BOS = 5
    seqs = [[5, 1, 2, 2, 0, 5], [5, 0, 4, 0, 5], [5, 0, 3, 3, 0, 5]]
    N = count_bigrams(seqs, 6)
    print(N[5], N[0])  # expect [2, 1, 0, 0, 0, 0] [0, 0, 0, 1, 1, 3]
    P = probabilities(N)
    print([round(p, 6) for p in P[0]])  # expect [0.0, 0.0, 0.0, 0.2, 0.2, 0.6]
    print(draw(P[5], 0.5), draw(P[0], 0.3), draw(P[0], 0.8))  # expect 0 4 5

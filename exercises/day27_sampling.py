"""Day 27 · Sampling with temperature.

Lesson: docs/lessons/day27_sampling.md

Sampling runs on plain floats: nothing is trained, so no Values are needed.

1. probabilities(logits, temperature): softmax of the logits divided by the temperature
   (temperature > 0). Below 1 it sharpens the distribution, above 1 it flattens it.
2. draw(probs, u): with u a uniform number in [0, 1), the first index i whose cumulative
   probability probs[0] + ... + probs[i] exceeds u. (If rounding leaves u above the
   total, return the last index.)
3. next_token(logits, temperature, u): the next token. Temperature 0 means greedy: the
   index of the largest logit (the first one, if several are equal). Otherwise draw
   from probabilities(logits, temperature) with u.
4. sample_tokens(next_logits, bos, block_size, temperature, rng): one new name, as
   token ids. Start with token = bos at position 0; at each position pos,
   next_logits(token, pos) gives the logits of the next token; pick it with next_token,
   using u = rng.random() (one call per drawn token). Stop when the picked token is bos
   (it is not part of the name) or after block_size positions. Return the ids picked.

Check your work:  python -m grader --exercise day27_sampling.py
"""

import math  # noqa: F401 (the code you write uses it)


def probabilities(logits, temperature=1.0):
    """softmax(logits / temperature) as a list of floats (temperature > 0)."""
    raise NotImplementedError("Day 27: write probabilities. Read docs/lessons/day27_sampling.md")


def draw(probs, u):
    """The first index whose cumulative probability exceeds u (0 <= u < 1)."""
    raise NotImplementedError("Day 27: write draw. Read docs/lessons/day27_sampling.md")


def next_token(logits, temperature, u):
    """The argmax at temperature 0, otherwise draw(probabilities(logits, temperature), u)."""
    raise NotImplementedError("Day 27: write next_token. Read docs/lessons/day27_sampling.md")


def sample_tokens(next_logits, bos, block_size, temperature, rng):
    """The token ids of one sampled name (without BOS)."""
    raise NotImplementedError("Day 27: write sample_tokens. Read docs/lessons/day27_sampling.md")


if __name__ == "__main__":
    import random

    print([round(p, 6) for p in probabilities([2.0, 1.0, 0.0], 0.5)])
    # expect [0.866813, 0.11731, 0.015876]
    print(draw(probabilities([2.0, 1.0, 0.0]), 0.7))  # expect 1
    print(next_token([0.5, 3.0, 3.0], 0, 0.99))  # expect 1
    table = [[0.0, 2.0, 1.0], [1.0, 0.0, 2.0], [2.0, 1.0, -1.0]]  # bigram logits, BOS = 2
    print(sample_tokens(lambda token, pos: table[token], 2, 8, 1.0, random.Random(0)))

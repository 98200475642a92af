"""Day 40 · Top-k and top-p sampling.

Lesson: docs/lessons/day40_top_k_top_p.md

Plain floats, as on day 27. Both filters rank the tokens by probability, largest first;
equal probabilities rank by index, the smaller index first. Each returns a new list as
long as `probs`: the cut tokens at 0, the kept ones divided by their sum (so they add up
to 1 again).

1. top_k_filter(probs, k): keep the first k tokens of the ranking (every token, if k is
   at least len(probs)); k is a whole number, 1 or more.
2. top_p_filter(probs, p): walk down the ranking adding up probabilities, and keep each
   token while the tokens ranked BEFORE it add up to less than p (0 < p <= 1). So the
   token whose probability makes the running total reach or cross p is kept, and every
   token after it is cut: the smallest set of most likely tokens that holds at least p.
   At p = 1 the walk keeps every token, up to float rounding (the engine's filter_probs
   treats p = 1 as off instead; your filter need not).
3. next_token(logits, temperature, top_k, top_p, u): the token drawn with the uniform
   number u. In this order: next_token_probs(logits, temperature) (day 27: softmax of
   the logits divided by the temperature; temperature 0 puts all the probability on
   the largest logit); then top_k_filter, unless top_k is None; then top_p_filter on
   what top-k left, unless top_p is None; then draw(probs, u).

Check your work:  python -m grader --exercise day40_top_k_top_p.py
"""

from bisect import bisect_right
from itertools import accumulate

from engine.gpt import next_token_probs  # noqa: F401 (the next_token you write uses it)


def draw(probs, u):
    """Day 27's draw: the first index whose cumulative probability exceeds u (0 <= u < 1).
    A token at probability 0 is never drawn; if rounding leaves u above the total, the
    last token above 0 is."""
    edges = list(accumulate(probs))  # the right edge of every slice, as on day 27's page
    i = bisect_right(edges, u)  # a slice of width 0 never holds the first edge above u
    return i if i < len(probs) else max(j for j, p in enumerate(probs) if p > 0)


def top_k_filter(probs, k):
    """The k most likely tokens (ties: the smaller index first), renormalised; others 0."""
    raise NotImplementedError("Day 40: write top_k_filter. Read docs/lessons/day40_top_k_top_p.md")


def top_p_filter(probs, p):
    """The smallest head of the ranking whose probability reaches p, renormalised; others 0."""
    raise NotImplementedError("Day 40: write top_p_filter. Read docs/lessons/day40_top_k_top_p.md")


def next_token(logits, temperature, top_k, top_p, u):
    """Temperature, then top-k (None: off), then top-p (None: off), then draw with u."""
    raise NotImplementedError("Day 40: write next_token. Read docs/lessons/day40_top_k_top_p.md")


if __name__ == "__main__":
    confident = [0.70, 0.15, 0.06, 0.04, 0.03, 0.02]
    print([round(x, 6) for x in top_k_filter(confident, 3)])
    # expect [0.769231, 0.164835, 0.065934, 0.0, 0.0, 0.0]
    print([round(x, 6) for x in top_p_filter(confident, 0.8)])
    # expect [0.823529, 0.176471, 0.0, 0.0, 0.0, 0.0]
    print(top_p_filter([0.5, 0.25, 0.125, 0.125], 0.75))  # expect [0.666..., 0.333..., 0.0, 0.0]
    print(next_token([2.0, 1.0, 0.0], 1.0, 2, 0.7, 0.8))  # expect 0

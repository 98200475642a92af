"""Day 36 · Learning rate: a warmup + cosine schedule and a learning-rate range test.

Lesson: docs/lessons/day36_learning_rate.md

1. warmup_cosine(step, warmup, steps, lr_max, lr_min): the learning rate at `step` of a
   run, the page's formula. In its symbols: t = step (counting from 0), S = steps,
   t_w = warmup (1 <= t_w < S), η_max = lr_max, η_min = lr_min, and
       η_t = η_max · (t + 1) / t_w                                          when t < t_w
       η_t = η_min + (η_max − η_min) · ½ · (1 + cos(π · (t − t_w) / (S − t_w)))   when t ≥ t_w
   Step t_w − 1 is the first at η_max, and step t_w is still at η_max.

2. range_test_rates(lr_start, lr_end, n): the n rates of a range test, growing by the
   same factor at every step, from lr_start (the first) to lr_end (the last), n >= 2:
       rate_i = lr_start · (lr_end / lr_start)^(i / (n − 1))      for i = 0, 1, ..., n − 1

3. range_test_pick(rates, losses, k=4.0): a range test's result. losses[i] is the loss of
   the step made with rates[i], taken as given (the caller passes smoothed losses, as the
   page's cell smooths them). The test diverged at the first step i >= 1 whose loss is
   more than k times the lowest of losses[0], ..., losses[i − 1]; the steps after it are
   not part of the test. Return (lowest, diverged):
   - lowest: the rate whose loss was lowest among the steps before the divergence (all of
     them if it never diverged; the first one if several tie);
   - diverged: the rate of the step where it diverged, or None if it never did.

Check your work:  python -m grader --exercise day36_learning_rate.py
"""

import math  # noqa: F401 (the code you write uses it)


def warmup_cosine(step, warmup, steps, lr_max, lr_min):
    """The learning rate at `step`: linear warmup, then half a cosine down to lr_min."""
    if step < warmup:
        return lr_max * (step + 1) / warmup
    progress = (step - warmup) / (steps - warmup)
    return lr_min + (lr_max - lr_min) * 0.5 * (1 + math.cos(math.pi * progress))


def range_test_rates(lr_start, lr_end, n):
    """n rates from lr_start to lr_end, each the previous one times the same factor."""
    return [lr_start * (lr_end / lr_start) ** (i / (n - 1)) for i in range(n)]


def range_test_pick(rates, losses, k=4.0):
    """(lowest, diverged): the rate of the lowest loss, and where the loss blew up (or None)."""
    lowest, diverged = 0, None
    for i in range(1, len(losses)):
        if losses[i] > k * losses[lowest]:
            diverged = i
            break
        if losses[i] < losses[lowest]:
            lowest = i
    return rates[lowest], None if diverged is None else rates[diverged]


if __name__ == "__main__":
    print([round(warmup_cosine(s, 2, 10, 1.0, 0.0), 4) for s in (0, 1, 2, 6, 9)])
    # expect [0.5, 1.0, 1.0, 0.5, 0.0381]
    print(range_test_rates(0.001, 1.0, 4))  # expect about [0.001, 0.01, 0.1, 1.0]
    rates = [0.001, 0.01, 0.1, 1.0, 10.0]
    print(range_test_pick(rates, [3.3, 3.0, 2.5, 11.0, 2.0]))  # expect (0.1, 1.0)

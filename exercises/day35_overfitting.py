"""Day 35 · Train, dev and test: a three-way split and an early-stopping rule.

Lesson: docs/lessons/day35_overfitting.md

1. three_way_split(items, n_dev, n_test, seed): shuffle a COPY of `items` with
   random.Random(seed).shuffle (the caller's list must stay as it was), then cut the
   shuffled copy in three:
       train = its first len(items) - n_dev - n_test items,
       dev   = the next n_dev,
       test  = the last n_test.
   Return (train, dev, test), three lists. The same seed gives the same three lists, and
   every item lands in exactly one of them. You may assume n_dev >= 1, n_test >= 1 and
   n_dev + n_test < len(items).

2. early_stopping(dev_losses, patience): dev_losses[i] is the dev loss measured at the
   i-th evaluation of a training run. Walk through them in order, as training does:
   - evaluation i is a new best when its loss is strictly lower than every loss before it
     (evaluation 0 is always a new best);
   - training stops at the first evaluation that comes `patience` evaluations after the
     latest new best; if that never happens, it stops at the last evaluation.
   Return (best, stop): the index of the latest new best up to and including `stop` (the
   weights you keep), and the index of the evaluation where training stops. Losses after
   `stop` are never looked at: training did not get there.
       early_stopping([3.0, 2.5, 2.6, 2.4, 2.7, 2.8, 2.9, 2.0], patience=2) -> (3, 5)

Check your work:  python -m grader --exercise day35_overfitting.py
"""

import random  # noqa: F401 (the code you write uses it)


def three_way_split(items, n_dev, n_test, seed):
    """(train, dev, test): a seeded shuffle of a copy of `items`, cut in three."""
    raise NotImplementedError(
        "Day 35: write three_way_split. Read docs/lessons/day35_overfitting.md"
    )


def early_stopping(dev_losses, patience):
    """(best, stop): the evaluation whose weights are kept, and where training stops."""
    raise NotImplementedError(
        "Day 35: write early_stopping. Read docs/lessons/day35_overfitting.md"
    )


if __name__ == "__main__":
    train, dev, test = three_way_split(list(range(10)), 2, 2, seed=0)
    print(len(train), len(dev), len(test))  # expect 6 2 2
    print(sorted(train + dev + test) == list(range(10)))  # expect True
    print(three_way_split(list(range(10)), 2, 2, seed=0) == (train, dev, test))  # expect True
    print(early_stopping([3.0, 2.5, 2.6, 2.4, 2.7, 2.8, 2.9, 2.0], patience=2))  # expect (3, 5)

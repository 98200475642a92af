"""Day 12 · Three loss functions.

Lesson: docs/lessons/day12_loss.md

Each loss is a mean over examples and returns one Value, built from Value operations
so that loss.backward() reaches every score:

  squared (MSE)   mean of (s - y) ** 2                   targets: any numbers
  hinge           mean of max(0, 1 - y * s)  = relu      labels: +1 / -1
  logistic        mean of log(1 + exp(-y * s))            labels: +1 / -1

Raise ValueError when the two lists are empty or of different lengths.

Check your work:  python -m grader --exercise day12_loss.py
"""

from engine import Value


def _check(scores, targets):
    """Given: the lists must be non-empty and of the same length."""
    if not scores or len(scores) != len(targets):
        raise ValueError(
            f"need one target per score and at least one of each; got {len(scores)} scores "
            f"and {len(targets)} targets"
        )


def mse(scores, targets):
    """The mean squared error of `scores` (Values) against `targets` (numbers)."""
    _check(scores, targets)
    total = Value(0.0)
    for s, y in zip(scores, targets):
        total = total + (s - y) ** 2
    return total * (1.0 / len(scores))


def hinge(scores, labels):
    """The mean hinge loss max(0, 1 - y * s) of `scores` for labels +1 / -1."""
    _check(scores, labels)
    total = Value(0.0)
    for s, y in zip(scores, labels):
        total = total + (1.0 - s * y).relu()
    return total * (1.0 / len(scores))


def logistic(scores, labels):
    """The mean logistic loss log(1 + exp(-y * s)) of `scores` for labels +1 / -1."""
    _check(scores, labels)
    total = Value(0.0)
    for s, y in zip(scores, labels):
        total = total + ((-(s * y)).exp() + 1.0).log()
    return total * (1.0 / len(scores))


if __name__ == "__main__":
    labels = [1.0, -1.0, 1.0]
    for loss in (mse, hinge, logistic):
        scores = [Value(0.8), Value(-0.2), Value(0.5)]
        value = loss(scores, labels)
        value.backward()
        print(f"{loss.__name__:8s} {value.data:.6f}  grads {[round(s.grad, 6) for s in scores]}")
    print("expect 0.31, 0.5 and 0.481106")

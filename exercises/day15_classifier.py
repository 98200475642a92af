"""Day 15 · A classifier: accuracy and one training step.

Lesson: docs/lessons/day15_classifier.md

Labels are +1 and -1 and the model gives a score s. The prediction is the sign of s,
so a point is classified correctly when y * s > 0 (a score of exactly 0 is wrong).
Training descends the mean hinge loss (given below) with an optimizer from
engine.optim, which has zero_grad() and step().

Check your work:  python -m grader --exercise day15_classifier.py
"""

from engine import Value


def hinge_loss(scores, labels):
    """Given: the mean of max(0, 1 - y * s), as a Value."""
    total = sum(((1.0 - y * s).relu() for s, y in zip(scores, labels)), Value(0.0))
    return total * (1.0 / len(labels))


def accuracy(scores, labels):
    """The share (0 to 1) of points whose score has the sign of their label.

    Scores may be Values or plain numbers.
    """
    # your code: see the hints under the exercise on the lesson page
    raise NotImplementedError("Day 15: write accuracy. Read docs/lessons/day15_classifier.md")


def train_step(model, optimizer, points, labels):
    """One step of training on all `points`; return (loss, accuracy) as floats,
    both measured on the scores before the update."""
    # your code: see the hints under the exercise on the lesson page
    raise NotImplementedError("Day 15: write train_step. Read docs/lessons/day15_classifier.md")


if __name__ == "__main__":
    from engine.nn import Neuron
    from engine.optim import SGD

    model = Neuron(2, nonlin=False)
    model.w[0].data, model.w[1].data, model.b.data = 1.0, -1.0, 0.25
    points, labels = [[2.0, 0.5], [0.5, 1.0], [0.0, 2.0]], [1.0, -1.0, 1.0]
    loss, acc = train_step(model, SGD(model.parameters(), lr=0.3), points, labels)
    print(
        f"loss = {loss:.6f} (expect 1.166667), accuracy = {acc:.4f} (expect 0.6667), "
        f"w = {[round(w.data, 6) for w in model.w]} (expect [0.95, -0.9])"
    )

"""Day 13 · The training loop: zero_grad and one training step.

Lesson: docs/lessons/day13_training_loop.md

One step of training does four things, always in this order:

  1. zero_grad   set every parameter's .grad back to 0. Leaves ADD gradients
                 across backward calls, so without this step the gradient of the
                 previous step leaks into this one.
  2. forward     predictions for every input, and the loss (mean squared error).
  3. backward    loss.backward() fills every parameter's .grad.
  4. update      p.data -= learning_rate * p.grad for every parameter.

Check your work:  python -m grader --exercise day13_training_loop.py
"""

from engine.nn import Neuron


def mean_squared_error(predictions, targets):
    """Given: the average of (prediction - target) ** 2, as a Value."""
    total = sum((p - t) ** 2 for p, t in zip(predictions, targets))
    return total * (1.0 / len(targets))


def zero_grad(params):
    """Set .grad of every Value in `params` to 0."""
    for p in params:
        p.grad = 0.0


def training_step(model, xs, ys, learning_rate):
    """One step of training `model` on inputs `xs` and targets `ys`; return the loss (a float).

    `model(x)` gives a prediction (a Value) and `model.parameters()` the Values to train.
    """
    params = model.parameters()
    zero_grad(params)
    loss = mean_squared_error([model(x) for x in xs], ys)
    loss.backward()
    for p in params:
        p.data -= learning_rate * p.grad
    return loss.data


if __name__ == "__main__":
    xs = [[0.0], [1.0], [2.0], [3.0]]
    ys = [1.0, 3.0, 5.0, 7.0]  # y = 2x + 1
    model = Neuron(1, nonlin=False)
    for _ in range(200):
        loss = training_step(model, xs, ys, learning_rate=0.05)
    w, b = model.parameters()
    print(f"loss = {loss:.6f}, w = {w.data:.3f} (expect 2), b = {b.data:.3f} (expect 1)")

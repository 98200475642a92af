"""Day 9 · One step of gradient descent.

Lesson: docs/lessons/day09_gradient_descent.md

After `loss.backward()`, each parameter's .grad says which way is uphill: how much
the loss rises per unit that the parameter rises. To lower the loss, move every
parameter a small step the other way:

  p.data  <-  p.data - learning_rate * p.grad

  p.grad > 0  (loss rises with p)  ->  p goes down
  p.grad < 0  (loss falls with p)  ->  p goes up

Change .data only: leave .grad as it is (clearing it is a separate job, day 13).

Check your work:  python -m grader --exercise day09_gradient_descent.py
"""

from engine import Value


def gradient_descent_step(params, learning_rate):
    """Move every Value in `params` one step downhill, in place."""
    for p in params:
        p.data -= learning_rate * p.grad


if __name__ == "__main__":
    x = Value(0.0)
    for _ in range(25):
        x.grad = 0.0
        loss = (x - 3.0) ** 2  # lowest at x = 3
        loss.backward()
        gradient_descent_step([x], learning_rate=0.1)
    print(f"x = {x.data:.4f} (expect close to 3), loss = {loss.data:.6f}")

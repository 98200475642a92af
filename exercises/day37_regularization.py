"""Day 37 · Weight decay (AdamW) and dropout.

Lesson: docs/lessons/day37_regularization.md

Everything here works on plain lists of floats.

1. adamw_step(params, grads, m, v, t, lr, weight_decay, beta1, beta2, eps): one AdamW
   step, changing params, m and v in place (return nothing). t is the number of this
   step, 1 for the first. For each i:
       m[i] = beta1 * m[i] + (1 - beta1) * grads[i]
       v[i] = beta2 * v[i] + (1 - beta2) * grads[i] ** 2
       m_hat = m[i] / (1 - beta1 ** t),  v_hat = v[i] / (1 - beta2 ** t)
       params[i] -= lr * (m_hat / (sqrt(v_hat) + eps) + weight_decay * params[i])
   with params[i] on the right its value BEFORE this step (PyTorch's AdamW convention:
   the decay is multiplied by the learning rate). The decay never enters m or v.
2. dropout_forward(xs, p, rng, training): inverted dropout of the list xs, with
   0 <= p < 1. Returns (out, mask), two lists as long as xs. In training mode, call
   u = rng.random() once per number, in order: u < p drops it (mask 0.0), otherwise
   the mask is 1 / (1 - p); out[i] = mask[i] * xs[i]. In evaluation mode
   (training=False) the output is a copy of xs, the mask is all 1.0, and rng is not
   called at all.
3. dropout_backward(grads, mask): the gradient with respect to xs, given the gradient
   `grads` with respect to the output and the mask the forward pass used.

Check your work:  python -m grader --exercise day37_regularization.py
"""

import math  # noqa: F401 (the code you write uses it)


def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.999, eps=1e-8):
    """One AdamW step on lists of floats, in place."""
    raise NotImplementedError("Day 37: write adamw_step. Read docs/lessons/day37_regularization.md")


def dropout_forward(xs, p, rng, training=True):
    """(out, mask) of inverted dropout: one rng.random() per number in training mode."""
    raise NotImplementedError(
        "Day 37: write dropout_forward. Read docs/lessons/day37_regularization.md"
    )


def dropout_backward(grads, mask):
    """The gradient with respect to the input: each upstream gradient times its mask."""
    raise NotImplementedError(
        "Day 37: write dropout_backward. Read docs/lessons/day37_regularization.md"
    )


if __name__ == "__main__":

    class Draws:
        """Stands in for random.Random: random() returns the given numbers in order."""

        def __init__(self, us):
            self.us = iter(us)

        def random(self):
            return next(self.us)

    params, m, v = [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]
    adamw_step(params, [0.5, 0.0], m, v, 1, lr=0.01, weight_decay=0.1)
    print([round(x, 6) for x in params])  # expect [0.989, 0.999]
    out, mask = dropout_forward([0.5, -0.2, 0.9, 0.4], 0.5, Draws([0.3, 0.8, 0.6, 0.1]))
    print(out, mask)  # expect [0.0, -0.4, 1.8, 0.0] [0.0, 2.0, 2.0, 0.0]
    print(dropout_backward([0.2, -1.0, 0.5, 0.3], mask))  # expect [0.0, -2.0, 1.0, 0.0]

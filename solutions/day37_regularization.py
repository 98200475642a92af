"""Day 37 · Weight decay (AdamW) and dropout.

Lesson: docs/lessons/day37_regularization.md

Everything here works on plain lists of floats.

1. adamw_step(params, grads, m, v, t, lr, weight_decay, beta1, beta2, eps): one AdamW
   step, changing params, m and v in place (return nothing). t is the number of this
   step, 1 for the first. It is day 14's Adam with the decay added outside Adam's
   ratio: for each number i, with m_hat and v_hat Adam's bias-corrected running means
   of the gradient and of its square,

       theta_i <- theta_i - lr * (m_hat_i / (sqrt(v_hat_i) + eps) + weight_decay * theta_i)

   where theta_i on the right is params[i] before this step (PyTorch's AdamW
   convention: the decay is multiplied by the learning rate).
2. dropout_forward(xs, p, rng, training): inverted dropout of the list xs, with
   0 <= p < 1. Returns (out, mask), two lists as long as xs, with out[i] = mask[i] * xs[i].
   In training mode each number is dropped (mask 0) with probability p, independently,
   and otherwise kept with mask 1 / (1 - p), using exactly one rng.random() per number,
   in order (a draw below p drops). In evaluation mode (training=False) nothing is
   dropped or scaled, and rng is not called at all.
3. dropout_backward(grads, mask): the gradient with respect to xs, given the gradient
   `grads` with respect to the output and the mask the forward pass used.

Check your work:  python -m grader --exercise day37_regularization.py
"""

import math  # noqa: F401 (the code you write uses it)


def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.999, eps=1e-8):
    """One AdamW step on lists of floats, in place."""
    for i, g in enumerate(grads):
        m[i] = beta1 * m[i] + (1 - beta1) * g
        v[i] = beta2 * v[i] + (1 - beta2) * g * g
        m_hat = m[i] / (1 - beta1**t)
        v_hat = v[i] / (1 - beta2**t)
        params[i] -= lr * (m_hat / (math.sqrt(v_hat) + eps) + weight_decay * params[i])


def dropout_forward(xs, p, rng, training=True):
    """(out, mask) of inverted dropout: one rng.random() per number in training mode."""
    if not training:
        return list(xs), [1.0] * len(xs)
    keep = 1.0 / (1.0 - p)
    mask = [0.0 if rng.random() < p else keep for _ in xs]
    return [mi * x for mi, x in zip(mask, xs)], mask


def dropout_backward(grads, mask):
    """The gradient with respect to the input: each upstream gradient times its mask."""
    return [g * mi for g, mi in zip(grads, mask)]


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

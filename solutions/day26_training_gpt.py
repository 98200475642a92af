"""Day 26 · Training microGPT: a decaying learning rate, an Adam step, a training step.

Lesson: docs/lessons/day26_training_gpt.md

1. lr_at(step, steps, lr): the learning rate decays in a straight line,
       lr_t = lr * (1 - step / steps)          step = 0, 1, ..., steps - 1

2. adam_step(params, m, v, step, lr, ...): one Adam update. For every parameter p with
   gradient g = p.grad, and its running means m[i] and v[i] (floats):
       m[i] = beta1 * m[i] + (1 - beta1) * g
       v[i] = beta2 * v[i] + (1 - beta2) * g * g
       m_hat = m[i] / (1 - beta1 ** (step + 1))      (step counts from 0)
       v_hat = v[i] / (1 - beta2 ** (step + 1))
       p.data -= lr * m_hat / (sqrt(v_hat) + eps)
   Update the lists m and v in place: the next step reads them.

3. train_step(model, optimizer, tokens, step, steps, lr): one step on one encoded name,
   with `optimizer` an Adam from engine.gpt.make_optimizer (it has .zero_grad(), .lr
   and .step()): zero the gradients, compute document_loss(model, tokens), run
   backward(), set the optimizer's learning rate for this step, step, and return the
   loss as a float.

Check your work:  python -m grader --exercise day26_training_gpt.py
"""

import math  # noqa: F401 (the code you write uses it)

from engine.gpt import document_loss  # noqa: F401 (the code you write uses it)


def lr_at(step, steps, lr):
    """The learning rate at `step` (from 0) of `steps`, decaying linearly from `lr`."""
    return lr * (1 - step / steps)


def adam_step(params, m, v, step, lr, beta1=0.85, beta2=0.99, eps=1e-8):
    """Move every Value in `params` by one Adam step; update the float lists m and v in place."""
    for i, p in enumerate(params):
        g = p.grad
        m[i] = beta1 * m[i] + (1 - beta1) * g
        v[i] = beta2 * v[i] + (1 - beta2) * g * g
        m_hat = m[i] / (1 - beta1 ** (step + 1))
        v_hat = v[i] / (1 - beta2 ** (step + 1))
        p.data -= lr * m_hat / (math.sqrt(v_hat) + eps)


def train_step(model, optimizer, tokens, step, steps, lr=0.01):
    """One training step of `model` on the encoded name `tokens`; return the loss (a float)."""
    optimizer.zero_grad()
    loss = document_loss(model, tokens)
    loss.backward()
    optimizer.lr = lr_at(step, steps, lr)
    optimizer.step()
    return loss.data


if __name__ == "__main__":
    from engine import Value

    print(lr_at(0, 1000, 0.01), lr_at(500, 1000, 0.01))  # expect 0.01 0.005
    p = Value(1.0)
    m, v = [0.0], [0.0]
    p.grad = 0.3
    adam_step([p], m, v, step=0, lr=0.01)
    print(round(p.data, 10))  # expect 0.9900000003
    p.grad = -0.3
    adam_step([p], m, v, step=1, lr=0.01)
    print(round(p.data, 6))  # expect 0.990811

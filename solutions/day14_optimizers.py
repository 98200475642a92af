"""Day 14 · One step of SGD with momentum, and one step of Adam.

Lesson: docs/lessons/day14_optimizers.md

Both change p.data of every parameter in place, reading p.grad, and keep their memory
in lists of plain floats, one entry per parameter, that you update in place too:

  momentum:  velocity[i] = momentum * velocity[i] + g
             p.data     -= lr * velocity[i]

  Adam:      m[i] = beta1 * m[i] + (1 - beta1) * g
             v[i] = beta2 * v[i] + (1 - beta2) * g * g
             m_hat = m[i] / (1 - beta1 ** t)       t = 1 on the first step
             v_hat = v[i] / (1 - beta2 ** t)
             p.data -= lr * m_hat / (sqrt(v_hat) + eps)

Check your work:  python -m grader --exercise day14_optimizers.py
"""

import math

from engine import Value


def sgd_momentum_step(params, velocity, lr, momentum=0.9):
    """One step of SGD with momentum: update `velocity` and every p.data in place."""
    for i, p in enumerate(params):
        velocity[i] = momentum * velocity[i] + p.grad
        p.data -= lr * velocity[i]


def adam_step(params, m, v, t, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
    """Step number `t` (from 1) of Adam: update `m`, `v` and every p.data in place."""
    for i, p in enumerate(params):
        g = p.grad
        m[i] = beta1 * m[i] + (1.0 - beta1) * g
        v[i] = beta2 * v[i] + (1.0 - beta2) * g * g
        m_hat = m[i] / (1.0 - beta1**t)
        v_hat = v[i] / (1.0 - beta2**t)
        p.data -= lr * m_hat / (math.sqrt(v_hat) + eps)


if __name__ == "__main__":
    w = Value(1.0)
    m, v = [0.0], [0.0]
    for t in (1, 2):
        w.grad = 0.0
        (w * w).backward()
        adam_step([w], m, v, t, lr=0.1)
        print(f"Adam step {t}: w = {w.data:.6f}")
    print("expect 0.9 and 0.800412")

"""Optimisers: they read `.grad` of each parameter and change its `.data`."""

import math

from .errors import said

__all__ = ["SGD", "Adam"]


class _Optimizer:
    def __init__(self, params, lr):
        self.params = list(params)
        if not self.params:
            raise said(
                ValueError,
                "optim.noParameters",
                "the optimiser got no parameters: pass model.parameters()",
            )
        if not lr > 0:
            raise said(
                ValueError,
                "optim.lr",
                f"the learning rate must be positive, got {lr!r}",
                lr=repr(lr),
            )
        self.lr = lr

    def zero_grad(self):
        """Reset every parameter's gradient to 0 before the next backward pass."""
        for p in self.params:
            p.grad = 0.0


class SGD(_Optimizer):
    """Stochastic gradient descent, with optional momentum (PyTorch's convention).

    velocity = momentum * velocity + grad;  data -= lr * velocity
    """

    def __init__(self, params, lr=0.01, momentum=0.0):
        super().__init__(params, lr)
        if not 0.0 <= momentum < 1.0:
            raise said(
                ValueError,
                "optim.momentum",
                f"momentum must be in [0, 1), got {momentum!r}",
                momentum=repr(momentum),
            )
        self.momentum = momentum
        self.velocity = [0.0] * len(self.params)

    def step(self):
        mu, lr, velocity = self.momentum, self.lr, self.velocity
        for i, p in enumerate(self.params):
            velocity[i] = mu * velocity[i] + p.grad
            p.data -= lr * velocity[i]


class Adam(_Optimizer):
    """Adam (Kingma & Ba, 2015): running means of the gradient and of its square,
    corrected for their zero start, give each parameter its own step size."""

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, lr)
        beta1, beta2 = betas
        if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0):
            raise said(
                ValueError,
                "optim.betas",
                f"betas must each be in [0, 1), got {betas!r}",
                betas=repr(betas),
            )
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.m = [0.0] * len(self.params)
        self.v = [0.0] * len(self.params)
        self.t = 0

    def step(self):
        self.t += 1
        b1, b2, eps = self.beta1, self.beta2, self.eps
        # The running means start at 0; dividing by (1 - beta^t) undoes that early bias.
        c1 = 1.0 - b1**self.t
        c2 = 1.0 - b2**self.t
        for i, p in enumerate(self.params):
            g = p.grad
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g
            m_hat = self.m[i] / c1
            v_hat = self.v[i] / c2
            p.data -= self.lr * m_hat / (math.sqrt(v_hat) + eps)

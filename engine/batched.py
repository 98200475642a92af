"""Day 21's MLP language model on tensors: a whole batch of contexts in one pass.

Shapes, with B contexts in a batch, T = block_size tokens in a context, E the
embedding width, D hidden neurons and V the vocabulary:

    X           (B, T)      token ids: the contexts
    C[X]        (B, T, E)   each token's embedding
    x           (B, T*E)    a context's embeddings end to end
    h           (B, D)      tanh(x W1^T + b1)
    logits      (B, V)      h W2^T + b2
    loss        ()          mean cross-entropy against the targets Y, shape (B,)

The weights are stored as on day 21, one row per output (W1 is (D, T*E)), so the same
numbers give the same logits as the scalar model.

    model = init_mlp_lm(seed=0)
    X, Y = examples(docs_tokens, model.block_size, bos)
    xb, yb = batch(X, Y, 32, rng)
    loss = model.loss(xb, yb); loss.backward(); optimizer.step()

`Adam` and `SGD` here update Tensors (the ones in engine.optim update Values).
"""

import math
import random

from .errors import said
from .tensor import Tensor, cross_entropy

__all__ = ["MLPLM", "init_mlp_lm", "examples", "batch", "SGD", "Adam", "AdamW"]


class MLPLM:
    """The MLP language model's weights as Tensors, and its forward pass on a batch."""

    def __init__(self, C, W1, b1, W2, b2, block_size):
        self.C, self.W1, self.b1, self.W2, self.b2 = C, W1, b1, W2, b2
        self.block_size = block_size
        self.vocab_size, self.n_embd = C.shape
        if W1.shape[1] != block_size * self.n_embd:
            raise said(
                ValueError,
                "batched.w1Columns",
                f"W1 has {W1.shape[1]} columns; a block of {block_size} embeddings of "
                f"{self.n_embd} needs {block_size * self.n_embd}",
                columns=W1.shape[1],
                block=block_size,
                n_embd=self.n_embd,
                needs=block_size * self.n_embd,
            )

    def parameters(self):
        return [self.C, self.W1, self.b1, self.W2, self.b2]

    def count(self):
        """How many numbers are learnt."""
        return sum(p.numel() for p in self.parameters())

    def hidden(self, X):
        """The hidden layer's activations h, shape (B, D), for contexts X of shape (B, T)."""
        emb = self.C.rows(X)  # (B, T, E)
        x = emb.reshape(len(X), self.block_size * self.n_embd)  # (B, T*E)
        return (x @ self.W1.T + self.b1).tanh()  # (B, D)

    def logits(self, X):
        """The logits, shape (B, V), of the token after each context of X, shape (B, T)."""
        return self.hidden(X) @ self.W2.T + self.b2  # (B, V)

    def loss(self, X, Y):
        """The mean cross-entropy of predicting Y[i] after X[i] (one Tensor of shape ())."""
        return cross_entropy(self.logits(X), Y)

    def zero_grad(self):
        for p in self.parameters():
            p.zero_grad()

    def __repr__(self):
        shapes = ", ".join(
            f"{n} {p.shape}" for n, p in zip(("C", "W1", "b1", "W2", "b2"), self.parameters())
        )
        return f"MLPLM({self.count():,} parameters: {shapes})"


def init_mlp_lm(vocab_size=27, block_size=3, n_embd=4, n_hidden=32, seed=0, rng=None):
    """A new model with day 21's starting scales: embeddings N(0, 1), W1 N(0, 1/(T E)),
    W2 N(0, 0.01 / D) (small, so the first predictions are nearly uniform), biases 0."""
    rng = random.Random(seed) if rng is None else rng
    fan_in = block_size * n_embd
    C = Tensor.randn(vocab_size, n_embd, std=1.0, rng=rng)
    W1 = Tensor.randn(n_hidden, fan_in, std=fan_in**-0.5, rng=rng)
    b1 = Tensor.zeros(n_hidden)
    W2 = Tensor.randn(vocab_size, n_hidden, std=0.1 * n_hidden**-0.5, rng=rng)
    b2 = Tensor.zeros(vocab_size)
    return MLPLM(C, W1, b1, W2, b2, block_size)


def examples(docs_tokens, block_size, bos):
    """(X, Y): every (context, next token) of every encoded name, as on day 21.

    Each name is BOS + letters + BOS; the context of a target is the `block_size` tokens
    before it, padded on the left with BOS."""
    X, Y = [], []
    for ids in docs_tokens:
        for t in range(1, len(ids)):
            before = ids[max(0, t - block_size) : t]
            X.append([bos] * (block_size - len(before)) + before)
            Y.append(ids[t])
    return X, Y


def batch(X, Y, batch_size, rng):
    """`batch_size` examples drawn at random (without replacement) from (X, Y)."""
    if not 1 <= batch_size <= len(X):
        raise said(
            ValueError,
            "batched.batchSize",
            f"a batch of {batch_size} cannot be drawn from {len(X)} examples",
            batch=batch_size,
            examples=len(X),
        )
    picked = rng.sample(range(len(X)), batch_size)
    return [X[i] for i in picked], [Y[i] for i in picked]


class SGD:
    """Plain gradient descent on Tensors: every number moves by -lr times its gradient."""

    def __init__(self, params, lr=0.1):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        for p in self.params:
            p.zero_grad()

    def step(self):
        for p in self.params:
            p.data[:] = [x - self.lr * g for x, g in zip(p.data, p.grad)]


class Adam(SGD):
    """Adam (day 14) on Tensors: the same update as engine.optim.Adam, number by number."""

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, lr)
        self.beta1, self.beta2 = betas
        self.eps = eps
        self.m = [[0.0] * p.numel() for p in self.params]
        self.v = [[0.0] * p.numel() for p in self.params]
        self.t = 0

    def step(self):
        self.t += 1
        b1, b2, eps, lr = self.beta1, self.beta2, self.eps, self.lr
        c1, c2 = 1.0 - b1**self.t, 1.0 - b2**self.t
        for p, m, v in zip(self.params, self.m, self.v):
            for i, g in enumerate(p.grad):
                m[i] = b1 * m[i] + (1.0 - b1) * g
                v[i] = b2 * v[i] + (1.0 - b2) * g * g
                p.data[i] -= lr * (m[i] / c1) / (math.sqrt(v[i] / c2) + eps)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter; day 37).

    Each step first shrinks every decayed number towards 0 by the factor 1 - lr * weight_decay,
    then takes Adam's step, which does not see the decay:

        p <- p - lr * (m_hat / (sqrt(v_hat) + eps) + weight_decay * p)

    (with p the value before the step). The update is PyTorch's AdamW: the decay is multiplied
    by the learning rate, and the default weight_decay is 0.01. Which tensors are decayed
    follows nanoGPT's grouping, not PyTorch's (which decays every parameter it is given):
    tensors with fewer than 2 axes (biases, scalars) are not decayed unless
    `decay_vectors=True`; nanoGPT decays only its weight matrices and embeddings, none of its
    biases and norm gains.
    """

    def __init__(
        self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01, decay_vectors=False
    ):
        super().__init__(params, lr, betas, eps)
        if weight_decay < 0:
            raise said(
                ValueError,
                "batched.weightDecay",
                f"weight_decay must be 0 or more, got {weight_decay}",
                weight_decay=weight_decay,
            )
        self.weight_decay = weight_decay
        self.decayed = [decay_vectors or p.ndim >= 2 for p in self.params]

    def step(self):
        shrink = 1.0 - self.lr * self.weight_decay
        for p, decayed in zip(self.params, self.decayed):
            if decayed:
                p.data[:] = [x * shrink for x in p.data]
        super().step()

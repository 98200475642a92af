"""Dropout (day 37): switching activations off at random while a model trains.

Inverted dropout, the form PyTorch's `nn.Dropout` uses: in training, each number of
the input is zeroed with probability `p`, and the numbers kept are multiplied by
1 / (1 - p), so that every number keeps its average, p * 0 + (1 - p) * x / (1 - p) = x.
At evaluation the input passes unchanged. The backward pass sends the gradient
through the same mask: zero where a number was dropped, times 1 / (1 - p) where kept.

    h = model.hidden(xb)                              # (B, D)
    h = dropout(h, 0.2, rng, training=True)           # a fresh mask at every call
    logits = h @ model.W2.T + model.b2

Weight decay is the other regulariser of day 37: `engine.batched.AdamW`.
"""

from numbers import Real

from .errors import said
from .tensor import Tensor, _accumulate

__all__ = ["dropout"]


def dropout(x, p, rng=None, training=True):
    """Inverted dropout of the Tensor `x`: a new Tensor of the same shape.

    In training (`training=True`, p > 0), one `rng.random()` per number, in the order of
    `x.data`: a number whose draw is below `p` becomes 0, the others are divided by 1 - p.
    With `training=False` or p = 0, `x` itself is returned and `rng` is not used.
    """
    if not isinstance(x, Tensor):
        raise said(
            TypeError,
            "regularize.dropoutNotTensor",
            f"dropout takes a Tensor, got {type(x).__name__}: wrap it in Tensor(...)",
            type=type(x).__name__,
        )
    if isinstance(p, bool) or not isinstance(p, Real) or not 0.0 <= p < 1.0:
        raise said(
            ValueError,
            "regularize.dropoutP",
            f"the dropout probability p must be a number in [0, 1), got {p!r}",
            p=repr(p),
        )
    if not training or p == 0:
        return x
    if rng is None or not hasattr(rng, "random"):
        raise said(
            TypeError,
            "regularize.dropoutRng",
            "dropout in training needs rng, a random.Random: e.g. random.Random(0)",
        )
    scale = 1.0 / (1.0 - p)
    mask = [0.0 if rng.random() < p else scale for _ in x.data]

    def backward(g):
        _accumulate(x, [gi * m for gi, m in zip(g, mask)], None)

    data = [xi * m for xi, m in zip(x.data, mask)]
    return Tensor(data, x.shape, (x,), backward, "dropout")

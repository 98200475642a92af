"""microGPT on batches: engine.gpt's model as whole-tensor operations on (B, T, C).

engine.gpt reads one token at a time and keeps a KV cache; here the model reads B
sequences of T tokens at once, and attention becomes three matrix products with a
causal mask. The weights are engine.gpt's (one row per output, as `from_gpt` copies
them), so the same numbers give the same logits and the same gradients.

Shapes, with B sequences, T positions, C = n_embd channels, nh heads of hd = C // nh
numbers each, and V tokens:

    idx                      (B, T)          token ids
    wte[idx] + wpe[:T]       (B, T, C)       the position rows (T, C) are broadcast over B
    q, k, v = x Wq^T, ...    (B, T, C)
    -> heads                 (B, nh, T, hd)  reshape (B, T, nh, hd), then permute(0, 2, 1, 3)
    scores = q k^T / sqrt(hd)  (B, nh, T, T) row i: position i's score for each position j
    masked, softmax(axis=-1) (B, nh, T, T)   j > i set to -inf first: weight 0 on the future
    weights @ v              (B, nh, T, hd)
    -> back                  (B, T, C)       permute(0, 2, 1, 3), then reshape
    logits                   (B, T, V)

    >>> from engine.gpt import init_gpt
    >>> model = init_gpt(seed=0)
    >>> params = from_gpt(model)
    >>> forward(params, model.config, [[26, 4, 12], [26, 0, 21]]).shape
    (2, 3, 27)
    >>> causal_mask(3)
    [[False, True, True], [False, False, True], [False, False, False]]

API:
    from_gpt(model) -> dict of Tensors         engine.gpt's weights, copied
    causal_mask(T) -> T x T list of bools      True where position i must not see j (j > i)
    rmsnorm(x, eps=1e-5) -> Tensor             over the last axis
    attention(x, wq, wk, wv, wo, n_head) -> Tensor   (B, T, C) -> (B, T, C), causal
    forward(params, config, idx) -> Tensor     logits (B, T, V)
    loss(params, config, idx, targets) -> Tensor   mean cross-entropy over all B * T
    batch_of_names(docs_tokens) -> (idx, targets)   encoded names of one length
"""

import math

from .errors import said
from .tensor import Tensor, cross_entropy, softmax

__all__ = [
    "from_gpt",
    "causal_mask",
    "rmsnorm",
    "attention",
    "forward",
    "loss",
    "batch_of_names",
]


def from_gpt(model):
    """engine.gpt's weights as Tensors, by the same names: each matrix (rows, cols).

    The Tensors are copies: training them leaves `model` unchanged."""
    return {
        name: Tensor([p.data for row in rows for p in row], (len(rows), len(rows[0])))
        for name, rows in model.params.items()
    }


def causal_mask(T):
    """A T x T table of bools: True at (i, j) when position i must not see position j,
    that is j > i (the upper triangle above the diagonal)."""
    if not isinstance(T, int) or T < 1:
        raise said(
            ValueError,
            "batchedGpt.causalMask",
            f"a causal mask needs a whole number of positions >= 1, got {T!r}",
            T=repr(T),
        )
    return [[j > i for j in range(T)] for i in range(T)]


def rmsnorm(x, eps=1e-5):
    """x / sqrt(mean(x^2) + eps) over the last axis (the channels), as engine.gpt.rmsnorm."""
    return x * ((x * x).mean(axis=-1, keepdims=True) + eps) ** -0.5


def attention(x, wq, wk, wv, wo, n_head):
    """Causal multi-head self-attention of x (B, T, C), then the output matrix wo: (B, T, C)."""
    B, T, C = x.shape
    if C % n_head:
        raise said(
            ValueError,
            "batchedGpt.heads",
            f"{C} channels do not split into {n_head} heads",
            C=C,
            n_head=n_head,
        )
    hd = C // n_head

    def heads(t):  # (B, T, C) -> (B, T, nh, hd) -> (B, nh, T, hd)
        return t.reshape(B, T, n_head, hd).permute(0, 2, 1, 3)

    q, k, v = heads(x @ wq.T), heads(x @ wk.T), heads(x @ wv.T)
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))  # (B, nh, T, T)
    weights = softmax(scores.masked_fill(causal_mask(T), -math.inf), axis=-1)
    out = (weights @ v).permute(0, 2, 1, 3).reshape(B, T, C)  # (B, T, nh, hd) -> (B, T, C)
    return out @ wo.T


def _check_idx(config, idx):
    if not isinstance(idx, (list, tuple)) or not idx or not isinstance(idx[0], (list, tuple)):
        raise said(
            TypeError, "batchedGpt.idxNotBatch", "idx is a batch: a list of B lists of T token ids"
        )
    T = len(idx[0])
    if any(len(row) != T for row in idx):
        raise said(
            ValueError,
            "batchedGpt.lengths",
            "every sequence of a batch needs the same length T; "
            f"got lengths {sorted({len(row) for row in idx})}",
            lengths=sorted({len(row) for row in idx}),
        )
    if not 1 <= T <= config.block_size:
        raise said(
            ValueError,
            "batchedGpt.blockSize",
            f"T = {T} positions, but the model has {config.block_size} (block_size)",
            T=T,
            block_size=config.block_size,
        )
    return len(idx), T


def forward(params, config, idx):
    """The logits (B, T, V) for a batch `idx` of B sequences of T token ids (T <= block_size).

    Row (b, t) of the result is what engine.gpt.gpt gives for idx[b][t] at position t,
    after positions 0..t-1 of the same sequence."""
    B, T = _check_idx(config, idx)
    pos = params["wpe"].rows(list(range(T)))  # (T, C)
    x = rmsnorm(params["wte"].rows(idx) + pos)  # (B, T, C) + (T, C) -> (B, T, C)
    for i in range(config.n_layer):
        w = {name: params[f"layer{i}.{name}"] for name in ("attn_wq", "attn_wk", "attn_wv")}
        x = x + attention(
            rmsnorm(x),
            w["attn_wq"],
            w["attn_wk"],
            w["attn_wv"],
            params[f"layer{i}.attn_wo"],
            config.n_head,
        )
        hidden = (rmsnorm(x) @ params[f"layer{i}.mlp_fc1"].T).relu()  # (B, T, 4C)
        x = x + hidden @ params[f"layer{i}.mlp_fc2"].T  # (B, T, C)
    return x @ params["lm_head"].T  # (B, T, V)


def loss(params, config, idx, targets):
    """The mean cross-entropy over all B * T predictions: targets[b][t] after idx[b][:t+1]."""
    B, T = _check_idx(config, idx)
    if len(targets) != B or any(len(row) != T for row in targets):
        raise said(
            ValueError,
            "batchedGpt.targetsShape",
            f"targets must have the shape of idx, ({B}, {T})",
            B=B,
            T=T,
        )
    logits = forward(params, config, idx)  # (B, T, V)
    flat = [t for row in targets for t in row]  # (B*T,)
    return cross_entropy(logits.reshape(B * T, config.vocab_size), flat)


def batch_of_names(docs_tokens):
    """(idx, targets) from encoded names of one length (BOS + letters + BOS): idx[b] is the
    name without its last token, targets[b] the name without its first."""
    docs = [list(d) for d in docs_tokens]
    if not docs or len({len(d) for d in docs}) != 1 or len(docs[0]) < 2:
        raise said(
            ValueError,
            "batchedGpt.namesLength",
            "batch_of_names needs encoded names of one length (at least 2 tokens): "
            "pick names with the same number of letters",
        )
    return [d[:-1] for d in docs], [d[1:] for d in docs]

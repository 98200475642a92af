"""microGPT: a one-layer GPT as plain functions over lists of Values.

A vector is a list of Values, a matrix a list of rows. The model reads one token at
a time and keeps the keys and values of earlier positions in a cache, so the same
`gpt` function serves training (teacher forcing, one position after another) and
sampling.

    token, position -> embeddings -> rmsnorm
        -> [ rmsnorm -> attention (4 heads) -> + residual
             rmsnorm -> MLP (16 -> 64 -> relu -> 16) -> + residual ]   x n_layer
        -> linear to 27 logits (one per symbol)

With the default `GPTConfig` (27 symbols, 16-dim embeddings, 4 heads of 4 dims, one
layer, block size 16) the model has exactly 4,192 parameters:

    wte 27x16 = 432   wpe 16x16 = 256   lm_head 27x16 = 432
    attention: wq, wk, wv, wo 16x16 = 4 x 256 = 1,024
    MLP: fc1 64x16 = 1,024, fc2 16x64 = 1,024          (no biases, no norm gains)

Speed without hiding the math. Each function below builds *one* Value per result
and hands the engine its local derivatives directly, instead of one Value per `*`
and `+`. `dot(a, b)` is one node whose local gradients are `b` (for `a`) and `a`
(for `b`); softmax's local gradients are `p_i (1[i=j] - p_j)`; the cross-entropy
node's are `p - onehot(target)`. The results and gradients are exactly those of the
composed versions the lessons build from `+`, `*`, `exp` and `log` (tests/gpt checks
that), with far fewer nodes to create and to sort: 5,955 instead of 51,311 for one
training step on the name "aaron" (`python -m benchmarks gpt` measures the time).

>>> model = init_gpt(GPTConfig(), seed=0)
>>> len(model.parameters())
4192
>>> keys, values = new_kv_cache(model.config)
>>> logits = gpt(model, token_id=26, pos_id=0, keys=keys, values=values)
>>> len(logits)
27

API (stable; lessons and the browser import it):
    GPTConfig(vocab_size=27, n_embd=16, n_head=4, n_layer=1, block_size=16)
        .head_dim; count_parameters(config) -> int (closed form)
    init_gpt(config=GPTConfig(), seed=0 | rng=random.Random) -> GPT
        GPT.config, GPT.params (dict: name -> matrix of Values), GPT.parameters() -> list
    building blocks (lists of Values in, Values out):
        dot(a, b, scale=1.0) -> Value            scale * sum_i a_i b_i
        linear(x, w) -> list                     [dot(row, x) for row in w]
        softmax(logits) -> list                  subtracts the max before exp
        cross_entropy(logits, target) -> Value   -log softmax(logits)[target]
        rmsnorm(x, eps=1e-5) -> list             x / sqrt(mean(x^2) + eps)
        attention_head(q, keys, values, record=None) -> list  one head over the cached
                                                 positions (record: a list for its weights)
        attention(q, keys, values, n_head, record=None) -> list   heads side by side
        mean(xs) -> Value
    the model:
        new_kv_cache(config) -> (keys, values)   one empty list per layer, each
        gpt(model, token_id, pos_id, keys, values, trace=None) -> list of vocab_size logits
                                                 (trace: a dict for the intermediate vectors)
        document_loss(model, tokens) -> Value    mean next-token loss of one encoded name
        evaluate(model, docs_tokens) -> float    mean loss per predicted token, no update
    training:
        make_optimizer(model, lr=0.01) -> engine.optim.Adam (betas 0.85, 0.99)
        lr_at(step, steps, lr) -> float          linear decay from lr towards 0
        train_step(model, optimizer, batch_tokens, lr) -> float loss
        training(model, docs_tokens, steps=1000, lr=0.01, batch_size=1, seed=0)
            a generator of TrainStep(step, loss, lr); stop iterating to stop training
        train(model, docs_tokens, ...) -> list of losses (all steps)
    sampling:
        next_token_probs(logits, temperature=1.0) -> list of floats (temperature 0: argmax)
        filter_probs(probs, top_k=None, top_p=None) -> list of floats   the k most likely,
                                                 then the smallest head reaching p, renormalised
        sampling_probs(logits, temperature=1.0, top_k=None, top_p=None) -> list of floats
                                                 temperature first, then the two filters
        sample(model, tokenizer, rng, temperature=1.0, top_k=None, top_p=None) -> str
        sample_names(model, tokenizer, n=10, seed=0, temperature=1.0, top_k=None, top_p=None)
"""

import math
import random
from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate
from operator import mul

from .errors import said
from .optim import Adam
from .value import Value

__all__ = [
    "GPTConfig",
    "GPT",
    "count_parameters",
    "init_gpt",
    "dot",
    "linear",
    "softmax",
    "cross_entropy",
    "rmsnorm",
    "attention_head",
    "attention",
    "mean",
    "new_kv_cache",
    "gpt",
    "document_loss",
    "evaluate",
    "make_optimizer",
    "lr_at",
    "train_step",
    "TrainStep",
    "training",
    "train",
    "next_token_probs",
    "filter_probs",
    "sampling_probs",
    "sample",
    "sample_names",
]


# -- configuration and parameters ------------------------------------------------------


@dataclass(frozen=True)
class GPTConfig:
    """The sizes of a microGPT. The defaults are the course's model."""

    vocab_size: int = 27  # 26 letters + BOS
    n_embd: int = 16  # width of every vector in the residual stream
    n_head: int = 4  # attention heads, each n_embd // n_head wide
    n_layer: int = 1  # transformer blocks
    block_size: int = 16  # longest context: positions 0 .. block_size - 1

    def __post_init__(self):
        for name in ("vocab_size", "n_embd", "n_head", "n_layer", "block_size"):
            size = getattr(self, name)
            if not (isinstance(size, int) and size >= 1):
                raise said(
                    ValueError,
                    "gpt.configSize",
                    f"GPTConfig.{name} must be a positive whole number, got {size!r}",
                    name=name,
                    size=repr(size),
                )
        if self.n_embd % self.n_head:
            raise said(
                ValueError,
                "gpt.heads",
                f"n_embd ({self.n_embd}) must split evenly into n_head ({self.n_head}) heads",
                n_embd=self.n_embd,
                n_head=self.n_head,
            )

    @property
    def head_dim(self):
        return self.n_embd // self.n_head


def count_parameters(config):
    """Parameters of a model of this shape: 2 V E + B E + 12 L E^2 (4,192 by default)."""
    V, E, B, L = config.vocab_size, config.n_embd, config.block_size, config.n_layer
    # token + position embeddings, output head; per layer 4 attention + 2 MLP (4E x E) matrices
    return V * E + B * E + V * E + L * (4 * E * E + 2 * 4 * E * E)


@dataclass
class GPT:
    """A microGPT: its sizes and its weight matrices, by name."""

    config: GPTConfig
    params: dict  # name -> matrix (list of rows, each a list of Values)

    def parameters(self):
        """Every weight as one flat list, in a fixed order (matrix by matrix, row by row)."""
        return [p for matrix in self.params.values() for row in matrix for p in row]

    def __repr__(self):
        shapes = ", ".join(f"{k} {len(m)}x{len(m[0])}" for k, m in self.params.items())
        return f"GPT({len(self.parameters()):,} parameters: {shapes})"


def init_gpt(config=None, seed=0, rng=None, std=0.08):
    """A new model with Gaussian weights (mean 0, `std`) drawn from `rng` or `seed`."""
    config = GPTConfig() if config is None else config
    rng = random.Random(seed) if rng is None else rng
    E = config.n_embd

    def matrix(rows, cols):
        return [[Value(rng.gauss(0.0, std)) for _ in range(cols)] for _ in range(rows)]

    params = {
        "wte": matrix(config.vocab_size, E),  # one row per token
        "wpe": matrix(config.block_size, E),  # one row per position
        "lm_head": matrix(config.vocab_size, E),  # residual stream -> logits
    }
    for i in range(config.n_layer):
        params[f"layer{i}.attn_wq"] = matrix(E, E)
        params[f"layer{i}.attn_wk"] = matrix(E, E)
        params[f"layer{i}.attn_wv"] = matrix(E, E)
        params[f"layer{i}.attn_wo"] = matrix(E, E)
        params[f"layer{i}.mlp_fc1"] = matrix(4 * E, E)
        params[f"layer{i}.mlp_fc2"] = matrix(E, 4 * E)
    return GPT(config, params)


# -- building blocks ---------------------------------------------------------------------


def dot(a, b, scale=1.0):
    """scale * sum_i a_i b_i as one Value: d/da_i = scale b_i, d/db_i = scale a_i."""
    if len(a) != len(b):
        raise said(
            ValueError,
            "gpt.dot",
            f"dot needs vectors of one length, got {len(a)} and {len(b)}",
            a=len(a),
            b=len(b),
        )
    ad = [v.data for v in a]
    bd = [v.data for v in b]
    total = scale * sum(map(mul, ad, bd))
    if scale != 1.0:
        ad = [scale * x for x in ad]
        bd = [scale * x for x in bd]
    return Value(total, (*a, *b), (*bd, *ad), "dot")


def linear(x, w):
    """The matrix-vector product w x: output i is dot(w[i], x)."""
    n = len(x)
    xd = [v.data for v in x]
    x = tuple(x)
    out = []
    for row in w:
        if len(row) != n:
            raise said(
                ValueError,
                "gpt.linear",
                f"linear: a row of {len(row)} weights cannot multiply {n} inputs",
                weights=len(row),
                n=n,
            )
        wd = [v.data for v in row]
        out.append(Value(sum(map(mul, wd, xd)), (*row, *x), (*xd, *wd), "linear"))
    return out


def _probabilities(z):
    """softmax of the floats z, computed as exp(z - max z) so exp cannot overflow."""
    top = max(z)
    e = [math.exp(zi - top) for zi in z]
    total = sum(e)
    return [ei / total for ei in e]


def softmax(logits):
    """Probabilities p_i = exp(z_i) / sum_j exp(z_j); d p_i / d z_j = p_i (1[i=j] - p_j)."""
    if not logits:
        raise said(
            ValueError,
            "gpt.softmaxEmpty",
            "softmax of an empty list is undefined: pass at least one logit",
        )
    p = _probabilities([z.data for z in logits])
    z = tuple(logits)
    out = []
    for i, pi in enumerate(p):
        local = [-pi * pj for pj in p]
        local[i] += pi
        out.append(Value(pi, z, tuple(local), "softmax"))
    return out


def cross_entropy(logits, target):
    """-log softmax(logits)[target], one Value whose local gradients are p - onehot(target)."""
    if not 0 <= target < len(logits):
        raise said(
            ValueError,
            "gpt.target",
            f"target {target} is not an index of the {len(logits)} logits",
            target=target,
            v=len(logits),
        )
    z = [v.data for v in logits]
    top = max(z)
    log_total = top + math.log(sum(math.exp(zi - top) for zi in z))
    p = [math.exp(zi - log_total) for zi in z]
    p[target] -= 1.0
    return Value(log_total - z[target], tuple(logits), tuple(p), "cross_entropy")


def rmsnorm(x, eps=1e-5):
    """x_i * s with s = (mean(x^2) + eps)^(-1/2): every vector leaves with RMS about 1.

    s is one Value with local gradients d s / d x_j = -s^3 x_j / n.
    """
    n = len(x)
    xd = [v.data for v in x]
    s = (sum(map(mul, xd, xd)) / n + eps) ** -0.5
    c = -(s**3) / n
    scale = Value(s, tuple(x), tuple(c * v for v in xd), "rms_scale")
    return [v * scale for v in x]


def attention_head(q, keys, values, record=None):
    """One head: weights = softmax(q . k_t / sqrt(d)) over the positions t seen so far,
    output = sum_t weights_t v_t. If `record` is a list, the weights are appended to it."""
    scale = 1.0 / math.sqrt(len(q))
    weights = softmax([dot(q, k, scale) for k in keys])
    if record is not None:
        record.append(weights)
    return [dot(weights, [v[j] for v in values]) for j in range(len(q))]


def attention(q, keys, values, n_head, record=None):
    """Multi-head attention: head h reads its own slice of q, the keys and the values.

    If `record` is a list, each head appends its weights to it, head 0 first."""
    d = len(q) // n_head
    out = []
    for h in range(n_head):
        s = slice(h * d, (h + 1) * d)
        out.extend(attention_head(q[s], [k[s] for k in keys], [v[s] for v in values], record))
    return out


def mean(xs):
    """The mean of Values as one node: each gets local gradient 1/n."""
    n = len(xs)
    if not n:
        raise said(ValueError, "gpt.meanEmpty", "the mean of no values is undefined")
    return Value(sum(v.data for v in xs) / n, tuple(xs), (1.0 / n,) * n, "mean")


# -- the model -------------------------------------------------------------------------------


def new_kv_cache(config):
    """An empty cache: for each layer, the keys and the values of the positions so far."""
    return [[] for _ in range(config.n_layer)], [[] for _ in range(config.n_layer)]


def gpt(model, token_id, pos_id, keys, values, trace=None):
    """The logits for the token after `token_id` at position `pos_id`.

    Appends this position's key and value to `keys` / `values` (the KV cache), so call it
    for positions 0, 1, 2, ... in order with the same cache.

    If `trace` is a dict, it receives this position's intermediate vectors (lists of the
    Values themselves: `.data` is the number, `.grad` the gradient after a backward):
    "tok_emb", "pos_emb", their sum "x" and its rmsnorm "embed" (the residual stream as it
    enters layer 0); "layers", one dict per layer with "heads" (each head's attention
    weights over positions 0..pos_id), "after_attn" and "after_mlp" (the residual stream
    after each of the block's two additions); and "logits".
    """
    cfg, p = model.config, model.params
    if not 0 <= token_id < cfg.vocab_size:
        raise said(
            ValueError,
            "gpt.tokenId",
            f"token id {token_id} is outside 0..{cfg.vocab_size - 1}",
            token=token_id,
            last=cfg.vocab_size - 1,
        )
    if not 0 <= pos_id < cfg.block_size:
        raise said(
            ValueError,
            "gpt.position",
            f"position {pos_id} is outside the block of {cfg.block_size}; "
            "the model has no embedding for it (cut the sequence to block_size)",
            pos=pos_id,
            block=cfg.block_size,
        )
    if len(keys[0]) != pos_id:
        raise said(
            ValueError,
            "gpt.kvCache",
            f"the KV cache holds {len(keys[0])} positions but pos_id is {pos_id}: "
            "feed positions 0, 1, 2, ... in order, with a fresh new_kv_cache() per sequence",
            held=len(keys[0]),
            pos=pos_id,
        )
    tok_emb, pos_emb = p["wte"][token_id], p["wpe"][pos_id]
    x = [t + q for t, q in zip(tok_emb, pos_emb)]
    if trace is not None:
        trace.update(tok_emb=tok_emb, pos_emb=pos_emb, x=x, layers=[])
    x = rmsnorm(x)
    if trace is not None:
        trace["embed"] = x
    for i in range(cfg.n_layer):
        heads = None if trace is None else []  # each head's weights, when tracing
        # attention: this position looks back at every cached one
        residual = x
        x = rmsnorm(x)
        q = linear(x, p[f"layer{i}.attn_wq"])
        keys[i].append(linear(x, p[f"layer{i}.attn_wk"]))
        values[i].append(linear(x, p[f"layer{i}.attn_wv"]))
        x = linear(attention(q, keys[i], values[i], cfg.n_head, heads), p[f"layer{i}.attn_wo"])
        x = [a + b for a, b in zip(x, residual)]
        after_attn = x
        # MLP: each position on its own, 16 -> 64 -> relu -> 16
        residual = x
        x = rmsnorm(x)
        x = [h.relu() for h in linear(x, p[f"layer{i}.mlp_fc1"])]
        x = linear(x, p[f"layer{i}.mlp_fc2"])
        x = [a + b for a, b in zip(x, residual)]
        if trace is not None:
            trace["layers"].append({"heads": heads, "after_attn": after_attn, "after_mlp": x})
    logits = linear(x, p["lm_head"])
    if trace is not None:
        trace["logits"] = logits
    return logits


def document_loss(model, tokens):
    """Mean cross-entropy of predicting tokens[1:] from what precedes them (one sequence).

    `tokens` is an encoded name, BOS on both ends; at most block_size predictions are made.
    """
    if len(tokens) < 2:
        raise said(
            ValueError,
            "gpt.shortSequence",
            f"a sequence needs at least 2 tokens to predict one, got {tokens!r}",
            tokens=repr(tokens),
        )
    n = min(model.config.block_size, len(tokens) - 1)
    keys, values = new_kv_cache(model.config)
    losses = [
        cross_entropy(gpt(model, tokens[pos], pos, keys, values), tokens[pos + 1])
        for pos in range(n)
    ]
    return mean(losses)


def evaluate(model, docs_tokens):
    """Mean loss per predicted token over encoded sequences (no gradients are kept)."""
    total, count = 0.0, 0
    for tokens in docs_tokens:
        n = min(model.config.block_size, len(tokens) - 1)
        total += document_loss(model, tokens).data * n
        count += n
    if not count:
        raise said(
            ValueError,
            "gpt.evaluateEmpty",
            "evaluate needs at least one sequence of 2 or more tokens",
        )
    return total / count


# -- training ------------------------------------------------------------------------------


def make_optimizer(model, lr=0.01, betas=(0.85, 0.99), eps=1e-8):
    """Adam over every parameter of the model (betas suited to short, noisy runs)."""
    return Adam(model.parameters(), lr=lr, betas=betas, eps=eps)


def lr_at(step, steps, lr):
    """Linear decay: lr at step 0, falling by lr / steps each step (lr / steps at the last)."""
    if not 0 <= step < steps:
        raise said(
            ValueError,
            "gpt.step",
            f"step {step} is outside 0..{steps - 1}",
            step=step,
            last=steps - 1,
        )
    return lr * (1.0 - step / steps)


def train_step(model, optimizer, batch_tokens, lr):
    """One update: mean loss over the batch's sequences, backward, Adam at rate `lr`."""
    if not batch_tokens:
        raise said(
            ValueError,
            "gpt.emptyBatch",
            "train_step needs at least one encoded sequence in the batch",
        )
    optimizer.zero_grad()
    if len(batch_tokens) == 1:
        loss = document_loss(model, batch_tokens[0])
    else:
        loss = mean([document_loss(model, tokens) for tokens in batch_tokens])
    loss.backward()
    optimizer.lr = lr
    optimizer.step()
    return loss.data


@dataclass(frozen=True)
class TrainStep:
    """What one training step reports: its index (from 0), its loss, its learning rate."""

    step: int
    loss: float
    lr: float


def training(model, docs_tokens, steps=1000, lr=0.01, batch_size=1, seed=0, optimizer=None):
    """Train for `steps` steps, yielding a TrainStep after each; stop iterating to stop.

    The sequences are shuffled once with `seed` and taken in turn, `batch_size` per step.
    """
    docs = [list(t) for t in docs_tokens]
    if not docs:
        raise said(ValueError, "gpt.noSequences", "training needs at least one encoded sequence")
    if steps < 1 or batch_size < 1:
        raise said(
            ValueError,
            "gpt.stepsBatch",
            f"steps and batch_size must be at least 1, got {steps}, {batch_size}",
            steps=steps,
            batch=batch_size,
        )
    random.Random(seed).shuffle(docs)
    optimizer = make_optimizer(model, lr) if optimizer is None else optimizer
    for step in range(steps):
        start = step * batch_size
        batch = [docs[(start + b) % len(docs)] for b in range(batch_size)]
        rate = lr_at(step, steps, lr)
        yield TrainStep(step, train_step(model, optimizer, batch, rate), rate)


def train(model, docs_tokens, steps=1000, lr=0.01, batch_size=1, seed=0, callback=None):
    """Run `training` to the end and return every step's loss; `callback(TrainStep)` if given."""
    losses = []
    for result in training(model, docs_tokens, steps, lr, batch_size, seed):
        losses.append(result.loss)
        if callback is not None:
            callback(result)
    return losses


# -- sampling ------------------------------------------------------------------------------


def next_token_probs(logits, temperature=1.0):
    """softmax(logits / temperature) as floats. Temperature 0 puts all mass on the argmax;
    below 1 sharpens the distribution, above 1 flattens it."""
    z = [v.data if isinstance(v, Value) else float(v) for v in logits]
    if temperature < 0:
        raise said(
            ValueError,
            "gpt.temperature",
            f"temperature must be 0 or more, got {temperature!r}",
            temperature=repr(temperature),
        )
    if temperature == 0:
        best = max(range(len(z)), key=z.__getitem__)  # first of equal maxima
        return [1.0 if i == best else 0.0 for i in range(len(z))]
    return _probabilities([zi / temperature for zi in z])


def _check_filters(top_k, top_p):
    """Refuse a top_k or top_p that does not say how many tokens to keep."""
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
        raise said(
            ValueError,
            "gpt.topK",
            f"top_k must be a whole number of tokens, 1 or more (or None to keep them all), "
            f"got {top_k!r}",
            top_k=repr(top_k),
        )
    if top_p is not None and (
        isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not 0 < top_p <= 1
    ):
        raise said(
            ValueError,
            "gpt.topP",
            f"top_p must be a probability above 0 and at most 1 (or None to keep every "
            f"token), got {top_p!r}",
            top_p=repr(top_p),
        )


def _keep(p, kept):
    """p with every index outside `kept` set to 0 and the rest divided by their sum."""
    total = sum(p[i] for i in kept)
    out = [0.0] * len(p)
    for i in kept:
        out[i] = p[i] / total
    return out


def filter_probs(probs, top_k=None, top_p=None):
    """Cut the unlikely tail off a distribution and renormalise what is left.

    The tokens are ranked by probability, largest first; equal probabilities keep their
    index order (the smaller index ranks first). `top_k` keeps the first top_k tokens of
    the ranking. `top_p` then works on what is left, renormalised: walking down the
    ranking, a token is kept while the tokens ranked before it add up to less than
    top_p, so the token whose probability makes the running total reach or cross top_p
    is kept and every later one is cut (the smallest head of the ranking whose
    probability is at least top_p). Cut tokens get probability 0, kept ones are divided
    by their sum. None switches a filter off; with both off the list comes back as it is.
    top_p = 1 is off too, as in Hugging Face's transformers: it would keep every token, but
    a running total of floats can reach 1 a little early and cut a token of 1e-20.

    >>> filter_probs([0.1, 0.5, 0.15, 0.25], top_k=2)
    [0.0, 0.6666666666666666, 0.0, 0.3333333333333333]
    >>> filter_probs([0.1, 0.5, 0.15, 0.25], top_p=0.75)
    [0.0, 0.6666666666666666, 0.0, 0.3333333333333333]
    """
    _check_filters(top_k, top_p)
    p = [float(x) for x in probs]
    if not p or min(p) < 0 or sum(p) <= 0:
        raise said(
            ValueError,
            "gpt.probs",
            "probs must be a non-empty list of probabilities (0 or more, not all 0), "
            f"got {list(probs)!r}",
            probs=repr(list(probs)),
        )
    ranking = sorted(range(len(p)), key=lambda i: -p[i])  # sorted() is stable: ties by index
    if top_k is not None:
        p = _keep(p, ranking[:top_k])
    if top_p is not None and top_p < 1:
        # The running totals down the ranking: a token stays while the tokens before it add
        # up to less than top_p, so the head ends just after the first total that reaches it.
        totals = list(accumulate(p[i] for i in ranking))
        p = _keep(p, ranking[: bisect_left(totals, top_p) + 1])
    return p


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """The distribution a token is drawn from: temperature on the logits first
    (`next_token_probs`), then top-k, then top-p (`filter_probs`). This order is a
    convention, the one Hugging Face's transformers uses; other orders give other results."""
    return filter_probs(next_token_probs(logits, temperature), top_k, top_p)


def sample(model, tokenizer, rng, temperature=1.0, top_k=None, top_p=None):
    """One new name: start from BOS, draw each next token, stop at BOS or the block's end.
    `top_k` and `top_p` (None: off) cut the tail of each distribution (`sampling_probs`)."""
    if tokenizer.vocab_size != model.config.vocab_size:
        raise said(
            ValueError,
            "gpt.tokenizer",
            f"the tokenizer has {tokenizer.vocab_size} symbols but the model "
            f"{model.config.vocab_size}; use the tokenizer the model was trained with",
            tokenizer=tokenizer.vocab_size,
            model=model.config.vocab_size,
        )
    _check_filters(top_k, top_p)
    keys, values = new_kv_cache(model.config)
    token, out = tokenizer.bos, []
    for pos in range(model.config.block_size):
        logits = gpt(model, token, pos, keys, values)
        probs = sampling_probs(logits, temperature, top_k, top_p)
        token = rng.choices(range(len(probs)), weights=probs)[0]
        if token == tokenizer.bos:
            break
        out.append(token)
    return tokenizer.decode(out)


def sample_names(model, tokenizer, n=10, seed=0, temperature=1.0, top_k=None, top_p=None):
    """`n` names drawn with a generator seeded by `seed` (top_k, top_p: as in `sample`)."""
    rng = random.Random(seed)
    return [sample(model, tokenizer, rng, temperature, top_k, top_p) for _ in range(n)]

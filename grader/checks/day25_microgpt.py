"""Checks of exercises/day25_microgpt.py: the microGPT forward pass and the loss of a name.

Each case gives a small model's weights (a few hundred numbers) and a token sequence.
The expected logits and loss come from a float implementation of the model's formulas
written here; the expected gradients of a handful of weights from central differences
of that float loss.
"""

import math
import random

from grader.messages import msg
from grader.verdict import CLOSED, NUMERIC, Expectation, Want

from .cases import case, central_difference, named

TITLE = msg("Day 25: microGPT, assembled")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): engine.gpt's
# building blocks, without its gpt and document_loss (this exercise) and what uses them.
ENGINE = {"value": (), "gpt": ("gpt", "document_loss")}
ENGINE_BY_KIND = {}


def _weights(rng, cfg):
    V, E, B = cfg["vocab_size"], cfg["n_embd"], cfg["block_size"]

    def matrix(rows, cols):
        return [[round(rng.gauss(0.0, 0.5), 4) for _ in range(cols)] for _ in range(rows)]

    params = {"wte": matrix(V, E), "wpe": matrix(B, E), "lm_head": matrix(V, E)}
    for i in range(cfg["n_layer"]):
        for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
            params[f"layer{i}.{name}"] = matrix(E, E)
        params[f"layer{i}.mlp_fc1"] = matrix(4 * E, E)
        params[f"layer{i}.mlp_fc2"] = matrix(E, 4 * E)
    return params


# (matrix, row, column) of the weights whose gradients are checked
PROBES = [
    ("wte", 2, 1),
    ("wpe", 1, 3),
    ("lm_head", 0, 2),
    ("layer0.attn_wq", 1, 0),
    ("layer0.attn_wk", 2, 3),
    ("layer0.attn_wv", 0, 1),
    ("layer0.attn_wo", 3, 2),
    ("layer0.mlp_fc1", 5, 1),
    ("layer0.mlp_fc2", 2, 7),
]


def _case(name, seed, tokens, public=True, n_layer=1):
    cfg = {"vocab_size": 5, "n_embd": 4, "n_head": 2, "n_layer": n_layer, "block_size": 8}
    return case(
        "model",
        name,
        public=public,
        config=cfg,
        params=_weights(random.Random(seed), cfg),
        tokens=tokens,
        probes=PROBES
        + ([("layer1.attn_wq", 0, 3), ("layer1.mlp_fc2", 1, 4)] if n_layer > 1 else []),
    )


def public_cases():
    return [
        _case(named("one position: BOS then the first letter"), 1, [4, 0]),
        _case(
            named("a short name: every position attends to the earlier ones"), 2, [4, 1, 2, 0, 4]
        ),
        _case(named("a repeated letter"), 3, [4, 3, 3, 1, 3, 3, 4]),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: the model's weights drawn from one of 10^9 seeds, and a random "
    "name of 2 to 6 letters (or a fixed one on two layers)"
)


def hidden_cases(rng):
    def name(shortest, longest):
        return [4] + [rng.randrange(4) for _ in range(rng.randint(shortest, longest))] + [4]

    def seed():
        return rng.randrange(10**9)

    return [
        _case(named("a random name on a random model"), seed(), name(2, 5), public=False),
        _case(named("a longer random name on a random model"), seed(), name(5, 6), public=False),
        _case(
            named("two layers: loop over every layer"),
            seed(),
            [4, 2, 0, 1, 4],
            public=False,
            n_layer=2,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _linear(x, w):
    return [sum(a * b for a, b in zip(row, x)) for row in w]


def _rmsnorm(x):
    s = (sum(v * v for v in x) / len(x) + 1e-5) ** -0.5
    return [v * s for v in x]


def _softmax(z):
    top = max(z)
    e = [math.exp(v - top) for v in z]
    t = sum(e)
    return [v / t for v in e]


def forward(cfg, p, tokens):
    """(logits of every position, mean cross-entropy) of the model on floats."""
    E, H = cfg["n_embd"], cfg["n_head"]
    d = E // H
    keys = [[] for _ in range(cfg["n_layer"])]
    vals = [[] for _ in range(cfg["n_layer"])]
    all_logits, losses = [], []
    for pos in range(len(tokens) - 1):
        x = _rmsnorm([a + b for a, b in zip(p["wte"][tokens[pos]], p["wpe"][pos])])
        for i in range(cfg["n_layer"]):
            road, n = x, _rmsnorm(x)
            q = _linear(n, p[f"layer{i}.attn_wq"])
            keys[i].append(_linear(n, p[f"layer{i}.attn_wk"]))
            vals[i].append(_linear(n, p[f"layer{i}.attn_wv"]))
            heads = []
            for h in range(H):
                lo, hi = h * d, (h + 1) * d
                w = _softmax(
                    [sum(a * b for a, b in zip(q[lo:hi], k[lo:hi])) / math.sqrt(d) for k in keys[i]]
                )
                heads += [sum(wt * v[j] for wt, v in zip(w, vals[i])) for j in range(lo, hi)]
            x = [a + b for a, b in zip(_linear(heads, p[f"layer{i}.attn_wo"]), road)]
            road = x
            hidden = [max(0.0, v) for v in _linear(_rmsnorm(x), p[f"layer{i}.mlp_fc1"])]
            x = [a + b for a, b in zip(_linear(hidden, p[f"layer{i}.mlp_fc2"]), road)]
        logits = _linear(x, p["lm_head"])
        all_logits.append(logits)
        losses.append(-math.log(_softmax(logits)[tokens[pos + 1]]))
    return all_logits, sum(losses) / len(losses)


def logit_wants(pos, row, setup):
    """The Wants of position `pos`'s logits `row` (day 28 asks for the same numbers)."""
    return [
        Want(
            f"position {pos}: logit {j}",
            z,
            CLOSED,
            setup,
            label=msg("position {pos}: logit {j}", pos=pos, j=j),
        )
        for j, z in enumerate(row)
    ]


def expect(case):
    inputs = case["inputs"]
    cfg, p, tokens = inputs["config"], inputs["params"], inputs["tokens"]
    setup = msg(
        "tokens {tokens}, n_embd {n_embd}, {n_head} heads, {n_layer} layer(s)",
        tokens=str(tokens),
        n_embd=cfg["n_embd"],
        n_head=cfg["n_head"],
        n_layer=cfg["n_layer"],
    )
    logits, loss = forward(cfg, p, tokens)
    V = cfg["vocab_size"]
    wants = []
    for pos, row in enumerate(logits):
        wants.append(
            Want(
                f"position {pos}: number of logits",
                float(V),
                CLOSED,
                setup,
                [
                    (
                        float(cfg["n_embd"]),
                        msg(
                            "gpt returned the last vector, not the logits: "
                            "finish with linear(x, lm_head)"
                        ),
                    )
                ],
                label=msg("position {pos}: number of logits", pos=pos),
            )
        )
        wants += logit_wants(pos, row, setup)
    wants.append(
        Want(
            "keys cached",
            float(len(tokens) - 1),
            CLOSED,
            setup,
            [
                (
                    0.0,
                    msg(
                        "gpt must append this position's key to keys[i] (and its value "
                        "to values[i]) before attending"
                    ),
                )
            ],
            label=msg("keys cached"),
        )
    )
    wants.append(Want("loss", loss, CLOSED, setup, label=msg("loss")))
    for name, r, c in inputs["probes"]:

        def f(x, name=name, r=r, c=c):
            changed = {k: [list(row) for row in m] for k, m in p.items()}
            changed[name][r][c] = x
            return forward(cfg, changed, tokens)[1]

        wants.append(
            Want(f"{name}[{r}][{c}].grad", central_difference(f, p[name][r][c]), NUMERIC, setup)
        )
    return Expectation(
        wants,
        hint=msg(
            "Compare your gpt step by step with the lesson's "
            "formulas: embeddings, then each branch with its road."
        ),
    )

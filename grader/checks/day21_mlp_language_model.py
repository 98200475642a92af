"""Checks of exercises/day21_mlp_language_model.py: training windows and the MLP's forward.

Expected windows come from the definition (start full of BOS, slide one id per
prediction). Expected logits and gradients come from the forward pass on floats and its
backward pass written out by hand, for the loss L = sum_j w_j z_j:
    dz = w,  dW2 = w h^T,  db2 = w,  dh = W2^T w,  da = dh (1 - h^2),
    dW1 = da x^T,  db1 = da,  dx = W1^T da,  and slot s of dx goes to row C[context[s]].
Likely bugs (a window that never slides, a missing tanh or bias, the slots in reverse
order) are named by the numbers they give.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want, WantList

from .cases import case, uniform

TITLE = msg("Day 21: an MLP language model")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.gpt's linear would write half of mlp_logits.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}

TINY = {  # the lesson's worked example: 3 tokens, d = 1, a block of 2, one hidden neuron
    "C": [[1.0], [-1.0], [0.5]],
    "W1": [[1.0, -1.0]],
    "b1": [0.0],
    "W2": [[2.0], [0.0], [-2.0]],
    "b2": [0.0, 0.0, 0.0],
}


def _examples(ids, block_size, bos):
    # Prediction i sees the block_size ids before target ids[i + 1], padded with BOS.
    padded = [bos] * block_size + list(ids[1:])
    return [
        (tuple(padded[i : i + block_size]), padded[i + block_size]) for i in range(len(ids) - 1)
    ]


def public_cases():
    small = {
        "C": [[0.5, -1.0], [1.0, 0.25], [-0.5, 0.75], [0.0, 1.0]],
        "W1": [[0.5, -0.5, 1.0, 0.25], [-1.0, 0.5, 0.0, 0.75], [0.25, 0.25, -0.5, 1.0]],
        "b1": [0.1, -0.2, 0.0],
        "W2": [[1.0, -1.0, 0.5], [0.0, 2.0, -1.0], [-0.5, 0.5, 1.0], [0.25, 0.0, -0.75]],
        "b2": [0.0, 0.5, -0.5, 0.25],
    }
    return [
        case(
            "examples", "the windows of 'ava', block of 3", ids=[26, 0, 21, 0, 26], block=3, bos=26
        ),
        case(
            "examples",
            "a block of 1 is a bigram model",
            ids=[26, 4, 12, 12, 0, 26],
            block=1,
            bos=26,
        ),
        case("examples", "a block longer than the name", ids=[3, 0, 3], block=4, bos=3),
        case(
            "logits", "the lesson's tiny worked example", context=[2, 0], w=[0.0, 0.0, 1.0], **TINY
        ),
        case(
            "logits",
            "two slots of 2 numbers, 3 hidden neurons, biases",
            context=[3, 1],
            w=[1.0, -2.0, 0.5, 1.5],
            **small,
        ),
        case(
            "logits",
            "the same token in both slots",
            context=[2, 2],
            w=[0.5, 1.0, -1.0, 2.0],
            **small,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: a name of 9 to 14 tokens from 10 to 27 and a block of 1 to 5; "
    "weights of 3 to 6 tokens, 1 to 3 numbers each, 2 to 4 hidden neurons, all in [-1, 1] "
    "to 3 decimals, and a context of distinct tokens (or a token repeated)"
)


def hidden_cases(rng):
    V, d, B, H = rng.randint(3, 6), rng.randint(1, 3), rng.randint(2, 3), rng.randint(2, 4)

    def numbers(n, spread=1.0):
        return [uniform(rng, -spread, spread) for _ in range(n)]

    def params():
        return {
            "C": [numbers(d) for _ in range(V)],
            "W1": [numbers(B * d) for _ in range(H)],
            "b1": numbers(H, 0.5),
            "W2": [numbers(H) for _ in range(V)],
            "b2": numbers(V, 0.5),
        }

    n_tokens = rng.randint(10, 27)
    bos = n_tokens - 1
    ids = [bos] + [rng.randrange(bos) for _ in range(rng.randint(9, 14))] + [bos]
    a, b = rng.sample(range(V), 2)
    return [
        case(
            "examples",
            "a random name and block",
            public=False,
            ids=ids,
            block=rng.randint(1, 5),
            bos=bos,
        ),
        case(
            "logits",
            "random weights and a context of distinct tokens",
            public=False,
            context=rng.sample(range(V), B),
            w=numbers(V, 2.0),
            **params(),
        ),
        case(
            "logits",
            "random weights, a token repeated in the context",
            public=False,
            context=([a] * (B - 1) + [b]),
            w=numbers(V, 2.0),
            **params(),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _forward(context, C, W1, b1, W2, b2, act=math.tanh, bias=True):
    x = [v for t in context for v in C[t]]
    h = [act(sum(w * xi for w, xi in zip(row, x)) + (b if bias else 0.0)) for row, b in zip(W1, b1)]
    z = [sum(w * hi for w, hi in zip(row, h)) + (b if bias else 0.0) for row, b in zip(W2, b2)]
    return x, h, z


def _expect_examples(x):
    ids, block, bos = x["ids"], x["block"], x["bos"]
    ex = _examples(ids, block, bos)
    flat = [t for c, _ in ex for t in c]
    setup = f"ids = {ids}, block_size = {block}, bos = {bos}"  # no words
    stuck = [bos] * (block * len(ex))
    ahead, window = [], [bos] * block  # the window slid BEFORE the example is emitted
    for token in ids[1:]:
        window = window[1:] + [token]
        ahead.extend(window)
    bugs = [
        (
            stuck,
            msg(
                "the context never changes: after each example drop its oldest id and append "
                "the id just predicted (context = context[1:] + [token])"
            ),
        )
    ]
    if ahead != flat:
        bugs.append(
            (
                ahead,
                msg(
                    "each context already holds its own target: emit (context, token) "
                    "BEFORE sliding the window"
                ),
            )
        )
    return Expectation(
        [
            WantList(
                "contexts",
                flat,
                msg("{setup} (contexts laid end to end)", setup=setup),
                bugs,
                msg("start with block_size BOS ids and slide one id per prediction"),
                label=msg("contexts"),
            ),
            WantList(
                "targets",
                ids[1:],
                setup,
                [(ids[1:-1], msg("the last example (last letter -> BOS) is missing"))],
                msg("every id after the first is predicted once"),
                label=msg("targets"),
            ),
        ]
    )


def _expect_logits(x):
    context, w = x["context"], x["w"]
    C, W1, b1, W2, b2 = (x[k] for k in ("C", "W1", "b1", "W2", "b2"))
    xs, h, z = _forward(context, C, W1, b1, W2, b2)
    setup = f"context = {context}, C = {C}, W1 = {W1}, b1 = {b1}, W2 = {W2}, b2 = {b2}"
    no_tanh = _forward(context, C, W1, b1, W2, b2, act=lambda a: a)[2]
    reversed_slots = _forward(list(reversed(context)), C, W1, b1, W2, b2)[2]
    no_bias = _forward(context, C, W1, b1, W2, b2, bias=False)[2]
    wants = [Want("len(z)", float(len(W2)), CLOSED, setup)]
    for j, zj in enumerate(z):
        bugs = [
            (no_tanh[j], msg("the hidden layer has no tanh: h = tanh(W1 x + b1)")),
            (
                reversed_slots[j],
                msg(
                    "the context's embeddings are in reverse order: lay C[t] end "
                    "to end in the order of the context"
                ),
            ),
            (no_bias[j], msg("the biases b1 and b2 are missing")),
        ]
        wants.append(Want(f"z[{j}]", zj, CLOSED, setup, [b for b in bugs if abs(b[0] - zj) > 1e-9]))
    # backward by hand for L = sum_j w_j z_j
    dh = [sum(w[j] * W2[j][k] for j in range(len(W2))) for k in range(len(h))]
    da = [dh[k] * (1.0 - h[k] ** 2) for k in range(len(h))]
    dx = [sum(da[k] * W1[k][i] for k in range(len(W1))) for i in range(len(xs))]
    d = len(C[0])
    grads = {}
    for j in range(len(W2)):
        grads[f"b2[{j}].grad"] = w[j]
        for k in range(len(h)):
            grads[f"W2[{j}][{k}].grad"] = w[j] * h[k]
    for k in range(len(W1)):
        grads[f"b1[{k}].grad"] = da[k]
        for i in range(len(xs)):
            grads[f"W1[{k}][{i}].grad"] = da[k] * xs[i]
    dC = [[0.0] * d for _ in C]
    for s, t in enumerate(context):
        for m in range(d):
            dC[t][m] += dx[s * d + m]
    for t in range(len(C)):
        for m in range(d):
            grads[f"C[{t}][{m}].grad"] = dC[t][m]
    loss_setup = msg("{setup}, loss = sum_j w_j z_j with w = {w}", setup=setup, w=str(w))
    for key, g in grads.items():
        bugs = (
            [
                (
                    0.0,
                    msg(
                        "no gradient reached this weight: use every weight (z = W2 h + b2) and "
                        "build h and z from Value operations on the given Values (no .data, no "
                        "new Values)"
                    ),
                )
            ]
            if abs(g) > 1e-9
            else []
        )
        wants.append(Want(key, g, CLOSED, loss_setup, bugs))
    return Expectation(
        wants, hint=msg("x = the rows C[t] end to end; h = tanh(W1 x + b1); z = W2 h + b2")
    )


def expect(case):
    if case["kind"] == "examples":
        return _expect_examples(case["inputs"])
    return _expect_logits(case["inputs"])

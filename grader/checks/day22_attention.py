"""Checks of exercises/day22_attention.py: the scores and the output of one attention head.

Expected scores and outputs come from the formulas on floats; expected gradients from
central differences of them. Likely bugs (no scaling, dividing by d instead of sqrt(d),
a blend of the keys instead of the values, weights without softmax) are recognised by
their outputs.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, NUMERIC, Expectation, Want

from . import lm
from .cases import case, central_difference, uniform

TITLE = msg("Day 22: one head of self-attention")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.gpt's dot and attention_head are this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}

HINT = msg(
    "Build everything from Value operations so backward() reaches q, the keys and the values."
)


def public_cases():
    q2, keys2 = [1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]]
    q4 = [0.5, -1.0, 0.25, 2.0]
    keys4 = [[1.0, 0.5, -0.5, 0.0], [0.0, 2.0, 1.0, -1.0], [1.5, -0.5, 0.0, 0.5]]
    values4 = [[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 0.0], [0.5, 0.5, -0.5, 2.0]]
    return [
        case("scores", "scores of the lesson's example", q=q2, keys=keys2, w=[1.0, -1.0]),
        case(
            "scores",
            "scores of a 4-wide query over three keys",
            q=q4,
            keys=keys4,
            w=[1.0, 2.0, -1.0],
        ),
        case(
            "head",
            "the lesson's example: two positions",
            q=q2,
            keys=keys2,
            values=[[1.0, 2.0], [3.0, 4.0]],
            w=[1.0, 0.5],
        ),
        case(
            "head",
            "one position: the output is its value",
            q=[0.3, -0.7, 1.2],
            keys=[[2.0, 1.0, -1.0]],
            values=[[0.5, -1.5, 2.0]],
            w=[1.0, 1.0, 1.0],
        ),
        case(
            "head",
            "three positions, 4-wide",
            q=q4,
            keys=keys4,
            values=values4,
            w=[1.0, -2.0, 0.5, 1.0],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^20 or more each: a query and 2 to 5 keys (and values) of width 2, 4 or 8, and "
    "upstream weights, all in [-1.5, 1.5] to 3 decimals"
)


def hidden_cases(rng):
    def vec(d):
        return [uniform(rng, -1.5, 1.5) for _ in range(d)]

    def head(d, t):
        keys, values = [vec(d) for _ in range(t)], [vec(d) for _ in range(t)]
        return {"q": vec(d), "keys": keys, "values": values, "w": vec(d)}

    d, t = rng.choice([2, 4, 8]), rng.randint(2, 5)
    return [
        case(
            "scores",
            "random query and keys",
            public=False,
            q=vec(d),
            keys=[vec(d) for _ in range(t)],
            w=vec(t),
        ),
        case("head", "random query, keys and values", public=False, **head(d, t)),
        case(
            "head",
            "another random width and length",
            public=False,
            # two positions at least: with one, the output is values[0] whatever q is
            **head(rng.choice([2, 4, 8]), rng.randint(2, 5)),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _scores(q, keys, scale_by=None):
    d = len(q) if scale_by is None else scale_by
    return [sum(a * b for a, b in zip(q, k)) / math.sqrt(d) for k in keys]


def _forward(kind, q, keys, values):
    return _scores(q, keys) if kind == "scores" else lm.attention_head(q, keys, values)


def _gradients(kind, inputs):
    """d (sum_j w_j out_j) / d every input number, by central differences."""
    q, keys, values, w = inputs["q"], inputs["keys"], inputs.get("values", []), inputs["w"]
    parts = {"q": [q], "keys": keys, "values": values}
    grads = {}
    for name, vectors in parts.items():
        for t, vec in enumerate(vectors):
            for j in range(len(vec)):

                def loss(x, name=name, t=t, j=j):
                    changed = {k: [list(v) for v in vs] for k, vs in parts.items()}
                    changed[name][t][j] = x
                    out = _forward(kind, changed["q"][0], changed["keys"], changed["values"])
                    return sum(a * b for a, b in zip(w, out))

                key = f"q[{j}].grad" if name == "q" else f"{name}[{t}][{j}].grad"
                grads[key] = central_difference(loss, vec[j])
    return grads


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    q, keys, vals = inputs["q"], inputs["keys"], inputs.get("values", [])
    d = len(q)
    setup = f"q = {q}, keys = {keys}" + (f", values = {vals}" if vals else "")  # no words
    if kind == "scores":
        expected = _scores(q, keys)
        bug_sets = [
            (
                _scores(q, keys, scale_by=1),
                msg("the scores are unscaled: divide each dot product by sqrt(len(q))"),
            ),
            (
                _scores(q, keys, scale_by=d * d),
                msg("the scores are divided by len(q): divide by its square root"),
            ),
        ]
        length = float(len(keys))
        length_bug = []
    else:
        expected = lm.attention_head(q, keys, vals)
        bug_sets = [
            (
                lm.attention_head(q, keys, vals, scale_by=1),
                msg(
                    "the scores look unscaled: divide "
                    "each dot product by sqrt(len(q)) before the softmax"
                ),
            ),
            (
                lm.attention_head(q, keys, vals, scale_by=d * d),
                msg("the scores look divided by len(q): divide by its square root"),
            ),
            (
                lm.attention_head(q, keys, keys),
                msg("this blends the keys: the output is a weighted sum of the VALUES"),
            ),
            (
                [sum(s * v[j] for s, v in zip(_scores(q, keys), vals)) for j in range(d)],
                msg("the scores were used as weights directly: pass them through softmax first"),
            ),
        ]
        length = float(d)
        length_bug = [
            (
                float(len(keys)),
                msg(
                    "one number per position came back: return one number "
                    "per dimension j, sum_t weights_t * v_t[j]"
                ),
            )
        ]
    wants = [Want("len(out)", length, CLOSED, setup, length_bug)]
    for j, e in enumerate(expected):
        bugs = [(b[j], advice) for b, advice in bug_sets if j < len(b) and abs(b[j] - e) > 1e-7]
        wants.append(Want(f"out[{j}]", e, CLOSED, setup, bugs))
    for key, g in _gradients(kind, inputs).items():
        loss = msg("{setup}, loss = sum of {w} * out", setup=setup, w=str(inputs["w"]))
        wants.append(Want(key, g, NUMERIC, loss))
    return Expectation(wants, hint=HINT)

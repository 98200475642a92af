"""Checks of exercises/day23_multi_head.py: multi-head attention over Values.

Expected outputs come from a float implementation of the formulas here; expected
gradients from central differences of it. Likely bugs (scaling by the full width,
no scaling, one head over everything) are recognised by their outputs.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, NUMERIC, Expectation, Want

from .cases import case, central_difference, then_wants, uniform

TITLE = msg("Day 23: multi-head attention")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.gpt's attention is this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case(
            "attend",
            "the lesson's example: two heads look at different positions",
            q=[1.0, 1.0, 0.0, 2.0],
            keys=[[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]],
            values=[[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0]],
            n_head=2,
            weights=[1.0, 0.0, 0.0, 0.0],
        ),
        case(
            "attend",
            "one head is ordinary attention",
            q=[0.5, -1.0, 0.25, 2.0],
            keys=[[1.0, 0.5, -0.5, 0.0], [0.0, 2.0, 1.0, -1.0], [1.5, -0.5, 0.0, 0.5]],
            values=[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 0.0], [0.5, 0.5, -0.5, 2.0]],
            n_head=1,
            weights=[1.0, -2.0, 0.5, 1.0],
        ),
        case(
            "attend",
            "four heads of two numbers, a single position",
            q=[0.3, -0.2, 1.0, 0.4, -0.7, 0.9, 0.1, 0.5],
            keys=[[0.2, 0.1, -0.4, 0.8, 0.5, -0.3, 0.6, 0.0]],
            values=[[1.0, -1.0, 0.5, 0.25, 2.0, 0.0, -0.5, 1.5]],
            n_head=4,
            weights=[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        ),
        case(
            "attend",
            "four heads of two numbers over three positions",
            q=[0.3, -0.2, 1.0, 0.4, -0.7, 0.9, 0.1, 0.5],
            keys=[
                [0.2, 0.1, -0.4, 0.8, 0.5, -0.3, 0.6, 0.0],
                [1.0, -0.5, 0.3, 0.3, -0.2, 0.7, 0.0, 1.2],
                [-0.6, 0.4, 0.9, -1.0, 0.1, 0.2, -0.3, 0.8],
            ],
            values=[
                [1.0, -1.0, 0.5, 0.25, 2.0, 0.0, -0.5, 1.5],
                [0.0, 0.5, -1.0, 1.0, 0.5, 0.5, 1.0, -1.0],
                [2.0, 1.0, 0.0, -0.5, -1.0, 1.5, 0.25, 0.0],
            ],
            n_head=4,
            weights=[0.5, -1.0, 2.0, 0.0, 1.0, -0.5, 1.5, 1.0],
        ),
        case(
            "uneven",
            "a width that does not split into the heads raises ValueError",
            q=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5],
            keys=[[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]],
            values=[[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]],
            n_head=4,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^30 or more each: a query, 2 to 4 keys and values of width 8 (or 5 to 15 for a width "
    "that does not split) and weights, all in [-1.5, 1.5] to 3 decimals; 2 or 4 heads"
)


def hidden_cases(rng):
    def vec(d):
        return [uniform(rng, -1.5, 1.5) for _ in range(d)]

    def vectors(d, n_pos):
        return {
            "q": vec(d),
            "keys": [vec(d) for _ in range(n_pos)],
            "values": [vec(d) for _ in range(n_pos)],
        }

    n_head = rng.choice([2, 4])
    uneven_heads = rng.choice([2, 3, 4])
    uneven_width = rng.choice([d for d in range(5, 16) if d % uneven_heads])
    attend = [
        case(
            "attend",
            "random heads, keys and values",
            public=False,
            n_head=n_head,
            weights=vec(8),
            **vectors(8, rng.randint(2, 4)),
        ),
        case(
            "attend",
            "random vectors, two or three positions, the other number of heads",
            public=False,
            n_head=6 - n_head,
            weights=vec(8),
            # never one position: its softmax weight is 1 whatever q is, so values[0] is
            # the answer and a file that attends to nothing would earn the mark
            **vectors(8, rng.randint(2, 3)),
        ),
    ]
    uneven = case(
        "uneven",
        "a random width that does not split into the heads",
        public=False,
        n_head=uneven_heads,
        then=rng.choice(attend),  # a valid call in the same child: see runners/refusal.py
        **vectors(uneven_width, rng.randint(1, 3)),
    )
    return [*attend, uneven]


# -- what a right answer gives ---------------------------------------------------------


def reference(q, keys, values, n_head, scale_by=None):
    """Multi-head attention on floats; `scale_by` overrides the head width (for bugs)."""
    d = len(q)
    size = d // n_head
    scale = 1.0 / math.sqrt(size if scale_by is None else scale_by)
    out = []
    for h in range(n_head):
        lo, hi = h * size, (h + 1) * size
        scores = [sum(a * b for a, b in zip(q[lo:hi], k[lo:hi])) * scale for k in keys]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        weights = [e / total for e in exps]
        out += [sum(w * v[j] for w, v in zip(weights, values)) for j in range(lo, hi)]
    return out


def _loss(inputs, q, keys, values):
    out = reference(q, keys, values, inputs["n_head"])
    return sum(w * o for w, o in zip(inputs["weights"], out))


def _gradients(inputs):
    """d loss / d every input number, by central differences of the float reference."""
    q, keys, values = inputs["q"], inputs["keys"], inputs["values"]
    grads = {}

    def nudge(name, vector, j, rebuild):
        def f(x):
            changed = list(vector)
            changed[j] = x
            return _loss(inputs, *rebuild(changed))

        grads[name] = central_difference(f, vector[j])

    for j in range(len(q)):
        nudge(f"q[{j}].grad", q, j, lambda c: (c, keys, values))
    for t in range(len(keys)):
        for j in range(len(q)):
            nudge(
                f"keys[{t}][{j}].grad",
                keys[t],
                j,
                lambda c, t=t: (q, keys[:t] + [c] + keys[t + 1 :], values),
            )
            nudge(
                f"values[{t}][{j}].grad",
                values[t],
                j,
                lambda c, t=t: (q, keys, values[:t] + [c] + values[t + 1 :]),
            )
    return grads


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "uneven":
        setup = msg(
            "q = {q} ({count} numbers), n_head = {n_head}",
            q=str(inputs["q"]),
            count=len(inputs["q"]),
            n_head=inputs["n_head"],
        )
        want = Want(
            "raised ValueError",
            1.0,
            CLOSED,
            setup,
            label=msg("raised ValueError"),
            bugs=[
                (
                    0.0,
                    msg(
                        "no ValueError: check that len(q) % n_head == 0 and raise ValueError "
                        "with a message saying the width must split into equal heads"
                    ),
                )
            ],
        )
        return Expectation([want, *then_wants(expect, case)])
    q, keys, vals, n_head = inputs["q"], inputs["keys"], inputs["values"], inputs["n_head"]
    d = len(q)
    setup = msg(
        "q = {q}, {count} position(s), n_head = {n_head}",
        q=str(q),
        count=len(keys),
        n_head=n_head,
    )
    full = reference(q, keys, vals, n_head, scale_by=d)
    unscaled = reference(q, keys, vals, n_head, scale_by=1)
    one_head = reference(q, keys, vals, 1)
    wants = [
        Want(
            "len(out)",
            float(d),
            CLOSED,
            setup,
            [
                (
                    float(d // n_head),
                    msg("only one head's numbers came back: concatenate the outputs of every head"),
                )
            ],
        )
    ]
    for j, expected in enumerate(reference(q, keys, vals, n_head)):
        bugs = []
        if n_head > 1:
            bugs.append(
                (
                    full[j],
                    msg(
                        "the scores look divided by sqrt(len(q)); divide by the square "
                        "root of the head size, len(q) // n_head"
                    ),
                )
            )
            bugs.append(
                (
                    one_head[j],
                    msg(
                        "this is one head over all the numbers: cut q, the keys "
                        "and the values into n_head slices and attend per slice"
                    ),
                )
            )
        bugs.append(
            (
                unscaled[j],
                msg("the scores look unscaled: multiply each dot product by 1 / sqrt(head size)"),
            )
        )
        wants.append(Want(f"out[{j}]", expected, CLOSED, setup, bugs))
    for key, g in _gradients(inputs).items():
        loss = msg("{setup}, loss = sum of weights * out", setup=setup)
        wants.append(Want(key, g, NUMERIC, loss))
    return Expectation(
        wants,
        hint=msg(
            "Build everything from Value operations so backward() reaches "
            "q, the keys and the values."
        ),
    )

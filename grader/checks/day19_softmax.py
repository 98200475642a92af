"""Checks of exercises/day19_softmax.py: softmax and the cross-entropy loss over Values.

Expected probabilities are exp(z - max) / sum; expected gradients are closed forms:
p_j (w_j - sum_i w_i p_i) for a weighted sum of the probabilities, and p - onehot for
the cross-entropy. Likely bugs (no normalisation, a flipped sign, a log of the wrong
entry) are recognised by the numbers they produce.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from . import lm
from .cases import case

TITLE = msg("Day 19: softmax and the cross-entropy loss")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.gpt's softmax and cross_entropy are this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}

HINT = msg("Build the result from Value operations so that backward() reaches every logit.")
# A hint shown with any wrong number of the case, so it says what must hold, not what the
# learner did: a file that subtracts the maximum and forgets the sum fails here too.
LARGE = msg(
    "With logits this large, exp must see z - max(z) (exp of hundreds overflows, or its "
    "square underflows the gradient to 0); then check the sum and the log."
)


def _hint(z):
    return LARGE if max(abs(x) for x in z) > 100 else HINT


def public_cases():
    return [
        case(
            "softmax",
            "softmax of the lesson's logits [2, 1, 0]",
            z=[2.0, 1.0, 0.0],
            w=[1.0, 0.0, 0.0],
        ),
        case(
            "softmax",
            "softmax of four logits, gradient of a weighted sum",
            z=[0.5, -1.0, 2.5, 0.0],
            w=[1.0, -2.0, 0.5, 3.0],
        ),
        case(
            "softmax",
            "equal logits give equal probabilities",
            z=[0.7, 0.7, 0.7, 0.7, 0.7],
            w=[1.0, 2.0, 3.0, 4.0, 5.0],
        ),
        case(
            "softmax",
            "large logits: subtract the max before exp",
            z=[1000.0, 999.0, 998.0],
            w=[0.0, 1.0, 0.0],
        ),
        case(
            "xent", "cross-entropy of the lesson's example, target 0", z=[2.0, 1.0, 0.0], target=0
        ),
        case(
            "xent", "cross-entropy when the target is unlikely", z=[3.0, -1.0, 0.5, 2.0], target=1
        ),
        case("xent", "cross-entropy of 27 equal logits is ln 27", z=[0.0] * 27, target=26),
        case(
            "xent", "cross-entropy with logits in the hundreds", z=[-300.0, 400.0, 399.0], target=2
        ),
    ]


HIDDEN_SPACE = (
    "≈10^15 or more each: 4 to 9 logits in [-3, 3] to 3 decimals (or 5 around 500), random "
    "weights in [-2, 2] and a random target"
)


def hidden_cases(rng):
    def logits(n, spread=3.0):
        return [round(rng.uniform(-spread, spread), 3) for _ in range(n)]

    n = rng.randint(4, 9)
    return [
        case("softmax", "random logits", public=False, z=logits(n), w=logits(n, 2.0)),
        case(
            "xent", "random logits and target", public=False, z=logits(n), target=rng.randrange(n)
        ),
        case(
            "xent",
            "random large logits",
            public=False,
            z=[500.0 + x for x in logits(5)],
            target=rng.randrange(5),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inputs = case["inputs"]
    z = inputs["z"]
    p = lm.softmax(z)
    if case["kind"] == "softmax":
        w = inputs["w"]
        setup = f"z = {z}"
        top = max(z)
        wants = [Want("len(p)", float(len(z)), CLOSED, setup)]
        for i, pi in enumerate(p):
            bugs = [
                (
                    math.exp(z[i] - top),
                    msg(
                        "these are exp(z - max) without the division: "
                        "divide every exp by their sum so the probabilities add up to 1"
                    ),
                )
            ]
            wants.append(Want(f"p[{i}]", pi, CLOSED, setup, bugs))
        grads = lm.softmax_weighted_grad(z, w)
        loss_text = msg("{setup}, loss = sum of {w} * p", setup=setup, w=str(w))
        wants += [Want(f"z[{i}].grad", g, CLOSED, loss_text) for i, g in enumerate(grads)]
        return Expectation(wants, hint=_hint(z))

    t = inputs["target"]
    setup = f"z = {z}, target = {t}"
    loss = lm.logsumexp(z) - z[t]
    wrong_entry = [
        (-math.log(pi), msg("this is -log p[{i}]: take the probability of index target", i=i))
        for i, pi in enumerate(p)
        if i != t and abs(pi - p[t]) > 1e-6
    ]
    wants = [
        Want(
            "loss",
            loss,
            CLOSED,
            setup,
            [
                (-loss, msg("the sign is flipped: the loss is MINUS the log of the probability")),
                (p[t], msg("this is the probability itself: the loss is -log of it")),
            ]
            + wrong_entry,
            label=msg("loss"),
        )
    ]
    for i, pi in enumerate(p):
        flipped = [(-(pi - (i == t)), msg("the gradient has the wrong sign: the loss is -log p"))]
        wants.append(
            Want(
                f"z[{i}].grad",
                pi - (i == t),
                CLOSED,
                msg("{setup}, expected gradient p - onehot(target)", setup=setup),
                flipped,
            )
        )
    return Expectation(wants, hint=_hint(z))

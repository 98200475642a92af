"""Checks of exercises/day37_regularization.py: an AdamW step, dropout's forward and backward.

AdamW has a closed form, replayed here on floats over one to three steps so that m and v
must carry over. Dropout's mask follows from the case's scripted draws: u < p drops.
Likely bugs (L2 in the gradient instead of decoupled decay, the decay not multiplied by
the learning rate or applied after Adam's step, no bias correction, t + 1 in the correction; no
1 / (1 - p), a scale of 1 - p, u <= p, dropout in evaluation mode, a backward pass that
ignores the mask) are replayed the same way and named.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Pattern, Want

from .cases import case, then_wants, uniform

TITLE = msg("Day 37: AdamW and dropout")
ENGINE = {}
ENGINE_BY_KIND = {}

LESSON_US = [0.3, 0.8, 0.6, 0.1]


def public_cases():
    return [
        case(
            "adamw",
            "one step: a gradient of 0.5 and a gradient of 0 (the stub's example)",
            params=[1.0, 1.0],
            grads=[[0.5, 0.0]],
            lr=0.01,
            weight_decay=0.1,
            beta1=0.9,
            beta2=0.999,
        ),
        case(
            "adamw",
            "three steps, so m and v carry over",
            params=[0.5, -2.0, 1.5],
            grads=[[0.2, -1.0, 0.0], [-0.1, -0.5, 0.3], [0.4, 0.25, -0.3]],
            lr=0.05,
            weight_decay=0.2,
            beta1=0.9,
            beta2=0.999,
        ),
        case(
            "adamw",
            "weight decay 0 is Adam",
            params=[1.0, -1.0],
            grads=[[0.3, -0.002], [-0.3, 0.001]],
            lr=0.01,
            weight_decay=0.0,
            beta1=0.85,
            beta2=0.99,
        ),
        case(
            "dropout",
            "the lesson's example: p = 0.5",
            xs=[0.5, -0.2, 0.9, 0.4],
            p=0.5,
            us=LESSON_US,
            training=True,
        ),
        case(
            "dropout",
            "p = 0.25, with a draw exactly equal to p (kept)",
            xs=[1.0, 2.0, -3.0, 0.5, 0.25],
            p=0.25,
            us=[0.25, 0.1, 0.9, 0.24, 0.5],
            training=True,
        ),
        case(
            "eval",
            "evaluation mode: no mask, no draws",
            xs=[0.5, -0.2, 0.9, 0.4],
            p=0.5,
            us=LESSON_US,
            training=False,
        ),
        case(
            "backward",
            "the lesson's upstream gradient through its mask",
            grads=[0.2, -1.0, 0.5, 0.3],
            mask=[0.0, 2.0, 2.0, 0.0],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^15 or more each: 2 to 4 parameters in [-3, 3] and 1 to 3 steps of gradients in "
    "[-2, 2], all to 3 decimals, lr in [0.001, 0.1] to 4, weight decay in [0.05, 1] to 3, "
    "betas to 2 and 3 decimals; 4 to 8 numbers in [-2, 2] to 3 decimals, p in [0.1, 0.8] to "
    "3 and draws to 4 (one exactly p), in training mode and in evaluation mode followed by "
    "a training call; upstream gradients to 3 decimals and a random mask"
)


def _dropout_inputs(rng, training=True):
    """Numbers, p and draws with at least one drop, one keep and one draw exactly p."""
    n = rng.randint(4, 8)
    p = uniform(rng, 0.1, 0.8)
    us = [round(rng.random(), 4) for _ in range(n)]
    low, high, edge = rng.sample(range(n), 3)
    us[low] = uniform(rng, 0.0, p - 0.01, 4)
    us[high] = uniform(rng, p + 0.01, 0.9999, 4)
    us[edge] = p
    xs = [uniform(rng, -2, 2) or 0.5 for _ in range(n)]
    return {"xs": xs, "p": p, "us": us, "training": training}


def hidden_cases(rng):
    def params():
        return [uniform(rng, -3, 3) or 1.0 for _ in range(rng.randint(2, 4))]

    start = params()
    steps = rng.randint(1, 3)
    grads = [[uniform(rng, -2, 2) or 0.5 for _ in start] for _ in range(steps)]
    # one parameter idle at the first step: only the decay moves it
    grads[0][rng.randrange(len(start))] = 0.0
    p = uniform(rng, 0.1, 0.8)
    n = rng.randint(3, 8)
    keep = 1.0 / (1.0 - p)
    mask = [0.0 if i % 2 else keep for i in range(n)]
    rng.shuffle(mask)
    training = case("dropout", "random numbers, p and draws", public=False, **_dropout_inputs(rng))
    # Evaluation mode alone is the identity, which a file that drops nothing passes: the
    # hidden case also carries a call in training mode, checked in the same child (`then`).
    evaluation = _dropout_inputs(rng, False)
    return [
        case(
            "adamw",
            "random parameters, gradients, rate and decay",
            public=False,
            params=start,
            grads=grads,
            lr=uniform(rng, 0.001, 0.1, 4),
            weight_decay=uniform(rng, 0.05, 1.0),
            beta1=uniform(rng, 0.8, 0.95, 2),
            beta2=uniform(rng, 0.95, 0.999),
        ),
        training,
        case("eval", "evaluation mode, random numbers", public=False, **evaluation, then=training),
        case(
            "backward",
            "random gradients through a random mask",
            public=False,
            grads=[uniform(rng, -2, 2) or 0.5 for _ in range(n)],
            mask=mask,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _adamw(inputs, bug=None):
    """(params, m, v) after the case's steps; `bug` replays a likely mistake."""
    params = list(inputs["params"])
    lr, wd, b1, b2 = inputs["lr"], inputs["weight_decay"], inputs["beta1"], inputs["beta2"]
    m, v = [0.0] * len(params), [0.0] * len(params)
    for t, grads in enumerate(inputs["grads"], start=1):
        for i, g in enumerate(grads):
            if bug == "l2":
                g = g + wd * params[i]
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            c = t + 1 if bug == "t + 1" else t
            if bug == "no correction":
                m_hat, v_hat = m[i], v[i]
            else:
                m_hat, v_hat = m[i] / (1 - b1**c), v[i] / (1 - b2**c)
            step = m_hat / (math.sqrt(v_hat) + 1e-8)
            if bug == "l2":
                params[i] -= lr * step
            elif bug == "no lr on decay":
                params[i] -= lr * step + wd * params[i]
            elif bug == "decay after":
                params[i] -= lr * step
                params[i] -= lr * wd * params[i]
            else:
                params[i] -= lr * (step + wd * params[i])
    return params, m, v


ADAMW_BUGS = {
    "l2": msg(
        "the decay went into the gradient (L2 regularisation): AdamW keeps it out of m and "
        "v and subtracts lr * weight_decay * params[i] beside Adam's ratio"
    ),
    "no lr on decay": msg(
        "multiply the decay by the learning rate: lr * (ratio + weight_decay * params[i])"
    ),
    "decay after": msg(
        "decay the value from BEFORE the step: params[i] -= lr * (ratio + "
        "weight_decay * params[i]) in one line"
    ),
    "no correction": msg(
        "correct m and v for starting at 0: m / (1 - beta1 ** t), v / (1 - beta2 ** t)"
    ),
    "t + 1": msg(
        "t is already the number of this step (1 for the first): correct with "
        "1 - beta1 ** t, not 1 - beta1 ** (t + 1)"
    ),
}


def _expect_adamw(inputs):
    setup = msg(
        "params = {params}, gradients of each step = {grads}, lr = {lr}, "
        "weight_decay = {weight_decay}, betas = ({beta1}, {beta2})",
        params=str(inputs["params"]),
        grads=str(inputs["grads"]),
        lr=inputs["lr"],
        weight_decay=inputs["weight_decay"],
        beta1=inputs["beta1"],
        beta2=inputs["beta2"],
    )
    right = _adamw(inputs)
    replays = {bug: _adamw(inputs, bug) for bug in ADAMW_BUGS}
    n = len(inputs["params"])
    wants = [Want(f"len({name})", float(n), EXACT, setup) for name in ("m", "v", "params")]
    for which, name in ((1, "m"), (2, "v"), (0, "params")):
        for i in range(n):
            e = right[which][i]
            bugs = [
                (replay[which][i], ADAMW_BUGS[bug])
                for bug, replay in replays.items()
                if abs(replay[which][i] - e) > 1e-9 * (1 + abs(e))
            ]
            wants.append(Want(f"{name}[{i}]", e, CLOSED, setup, bugs))
    return Expectation(wants, hint=msg("Update m and v in place, then params[i] in place."))


def _mask(inputs, inclusive=False):
    p = inputs["p"]
    if not inputs["training"]:
        return [1.0] * len(inputs["xs"])
    return [0.0 if (u <= p if inclusive else u < p) else 1.0 / (1.0 - p) for u in inputs["us"]]


EDGE = msg("a draw equal to p keeps its number: drop only when u < p")
FLIPPED = msg("a number is dropped when u < p, kept otherwise")


def _expect_dropout(inputs):
    xs, p = inputs["xs"], inputs["p"]
    training = inputs["training"]
    if training:
        setup = msg(
            "xs = {xs}, p = {p}, training mode, rng draws {us}",
            xs=str(xs),
            p=p,
            us=str(inputs["us"]),
        )
    else:
        setup = msg(
            "xs = {xs}, p = {p}, evaluation mode, rng draws {us}",
            xs=str(xs),
            p=p,
            us=str(inputs["us"]),
        )
    mask = _mask(inputs)
    n = len(xs)
    calls_bugs = [] if training else [(float(n), msg("in evaluation mode do not call rng at all"))]
    wants = [
        Want(
            "calls",
            float(n if training else 0),
            EXACT,
            setup,
            calls_bugs,
            msg("rng.random() calls"),
        ),
        Want("len(mask)", float(n), EXACT, setup),
        Want("len(out)", float(n), EXACT, setup),
    ]
    edge = _mask(inputs, inclusive=True)
    for i, e in enumerate(mask):
        bugs = []
        if training:
            if edge[i] != e:
                bugs.append((edge[i], EDGE))
            if e != 0.0:
                bugs.append(
                    (1.0, msg("divide the kept numbers by 1 - p: their mask is 1 / (1 - p)"))
                )
                bugs.append(
                    (1.0 - p, msg("the kept numbers are multiplied by 1 / (1 - p), not 1 - p"))
                )
                bugs.append((0.0, FLIPPED))
            else:
                bugs.append((1.0 / (1.0 - p), FLIPPED))
        else:
            bugs.append((0.0, msg("in evaluation mode nothing is dropped: the mask is all 1.0")))
            bugs.append((1.0 / (1.0 - p), msg("in evaluation mode the mask is all 1.0")))
        wants.append(Want(f"mask[{i}]", e, CLOSED, setup, bugs))
    for i, (e, x) in enumerate(zip(mask, xs)):
        wants.append(
            Want(f"out[{i}]", e * x, CLOSED, setup, [(x, msg("out[i] is mask[i] * xs[i]"))])
        )
    # At a draw equal to p, u <= p and a mask turned over give the same number: the whole
    # mask tells them apart.
    patterns = []
    if training:
        flipped = [1.0 / (1.0 - p) if e == 0.0 else 0.0 for e in mask]
        for whole, advice in ((edge, EDGE), (flipped, FLIPPED)):
            if whole != mask:
                match = {f"mask[{i}]": m for i, m in enumerate(whole)}
                patterns.append(Pattern(match, advice, CLOSED))
    return Expectation(wants, patterns=patterns)


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "adamw":
        return _expect_adamw(inputs)
    if kind in ("dropout", "eval"):
        expectation = _expect_dropout(inputs)
        expectation.wants += then_wants(expect, case)
        return expectation
    grads, mask = inputs["grads"], inputs["mask"]
    setup = msg(
        "upstream gradients {grads}, mask {mask}",
        grads=str(grads),
        mask=str([round(x, 6) for x in mask]),
    )
    wants = [Want("len(dx)", float(len(grads)), EXACT, setup)]
    for i, (g, mi) in enumerate(zip(grads, mask)):
        bugs = [(g, msg("multiply each gradient by its mask: dropped numbers get no gradient"))]
        if mi != 0.0:
            bugs.append(
                (g * mi * mi, msg("the mask already holds 1 / (1 - p): multiply by it once"))
            )
        wants.append(Want(f"dx[{i}]", g * mi, CLOSED, setup, bugs))
    return Expectation(wants)

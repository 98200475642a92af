"""Checks of exercises/day15_classifier.py: accuracy and one training step.

Accuracy is checked exactly (ties at a score of 0 count as wrong). The training step
runs on a linear neuron with SGD, whose hinge-loss gradient has a closed form, so the
returned loss and accuracy and the updated weights are computed here independently.
Stale gradients are planted before the step to catch a missing zero_grad.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 15: a classifier's accuracy and training step")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Neuron and
# the optimizers are given; the engine has no accuracy and no hinge training step.
ENGINE = {"value": (), "nn": (), "optim": ()}
ENGINE_BY_KIND = {}

_POINTS = [[2.0, 0.5], [0.5, 1.0], [0.0, 2.0]]
_LABELS = [1.0, -1.0, 1.0]


def public_cases():
    return [
        case("accuracy", "two of three right", scores=[1.75, -0.25, -1.75], labels=_LABELS),
        case(
            "accuracy",
            "a score of exactly 0 is wrong",
            scores=[0.0, 0.0, 2.0, -2.0],
            labels=[1.0, -1.0, 1.0, -1.0],
        ),
        case("accuracy", "all wrong", scores=[-1.0, 3.0], labels=[1.0, -1.0]),
        case(
            "step",
            "the worked example: one SGD step",
            w=[1.0, -1.0],
            b=0.25,
            points=_POINTS,
            labels=_LABELS,
            lr=0.3,
            stale=0.0,
        ),
        case(
            "step",
            "stale gradients must be cleared first",
            w=[1.0, -1.0],
            b=0.25,
            points=_POINTS,
            labels=_LABELS,
            lr=0.3,
            stale=5.0,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^10 or more each: 3 to 7 scores in [-2, 2] to 3 decimals with random labels (some "
    "exactly 0); a linear classifier, its points, rate and stale gradient, all random"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -2, 2)

    def labels(n):
        return [rng.choice((1.0, -1.0)) for _ in range(n)]

    n = rng.randint(3, 7)
    points = [[num(), num()] for _ in range(n)]
    m = rng.randint(4, 7)
    with_zeros = [num() for _ in range(m)]
    for i in rng.sample(range(m), 2):
        with_zeros[i] = 0.0  # a score of exactly 0 is wrong whatever the label
    return [
        case(
            "accuracy",
            "random scores",
            public=False,
            scores=[num() for _ in range(n)],
            labels=labels(n),
        ),
        case(
            "accuracy",
            "random scores, two of them exactly 0",
            public=False,
            scores=with_zeros,
            labels=labels(m),
        ),
        case(
            "step",
            "a random linear classifier",
            public=False,
            w=[num(), num()],
            b=num(),
            points=points,
            labels=labels(n),
            lr=uniform(rng, 0.05, 0.5),
            stale=num(),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _accuracy(scores, labels):
    return sum(1 for s, y in zip(scores, labels) if y * s > 0) / len(labels)


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "accuracy":
        s, y = inputs["scores"], inputs["labels"]
        right = _accuracy(s, y)
        ties = sum(1 for si, yi in zip(s, y) if si == 0 or yi * si >= 0) / len(y)
        setup = f"scores = {s}, labels = {y}"  # no words
        bugs = [
            (
                right * len(y),
                msg("return the share of points, not their count: divide by the number of points"),
            )
        ]
        if ties != right:
            no_sign = msg("a score of exactly 0 has no sign: count it as wrong (y * s > 0)")
            bugs.append((ties, no_sign))
        return Expectation(
            [
                Want(
                    "accuracy of Values",
                    right,
                    EXACT,
                    setup,
                    bugs,
                    label=msg("accuracy of Values"),
                ),
                Want(
                    "accuracy of floats",
                    right,
                    EXACT,
                    setup,
                    bugs,
                    label=msg("accuracy of floats"),
                ),
            ]
        )
    (w1, w2), b, lr, pts, ys = (
        inputs["w"],
        inputs["b"],
        inputs["lr"],
        inputs["points"],
        inputs["labels"],
    )
    n = len(ys)
    scores = [w1 * x1 + w2 * x2 + b for x1, x2 in pts]
    loss = sum(max(0.0, 1.0 - y * s) for s, y in zip(scores, ys)) / n
    ds = [(-y / n if y * s < 1.0 else 0.0) for s, y in zip(scores, ys)]
    g = [sum(d * p[0] for d, p in zip(ds, pts)), sum(d * p[1] for d, p in zip(ds, pts)), sum(ds)]
    stale = inputs["stale"]
    setup = f"w = {inputs['w']}, b = {b}, points = {pts}, labels = {ys}, lr = {lr}"  # no words
    forgot = msg("the step used stale gradients: call optimizer.zero_grad() before backward()")
    wants = [
        Want("loss", loss, CLOSED, setup, label=msg("loss")),
        Want("accuracy", _accuracy(scores, ys), EXACT, setup, label=msg("accuracy")),
        Want(
            "w[0]",
            w1 - lr * g[0],
            CLOSED,
            setup,
            [
                (w1 - lr * (g[0] + stale), forgot),
                (w1, msg("the weights did not move: call optimizer.step() after backward()")),
            ],
        ),
        Want("w[1]", w2 - lr * g[1], CLOSED, setup, [(w2 - lr * (g[1] + stale), forgot)]),
        Want("b", b - lr * g[2], CLOSED, setup, [(b - lr * (g[2] + stale), forgot)]),
    ]
    return Expectation(wants)

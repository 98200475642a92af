"""Checks of exercises/day12_loss.py: mean squared error, hinge and logistic losses.

Each loss and the gradient of every score are checked against closed forms:
2 (s - y) / N, -y / N when y s < 1, and -y sigmoid(-y s) / N.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, named, then_wants, uniform

TITLE = msg("Day 12: loss functions")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; nothing else is needed.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}
LOSSES = ("mse", "hinge", "logistic")
# The cases' names, one literal each for the catalog (cases.named)
ON_THE_EXAMPLE = {
    "mse": named("mse on the worked example"),
    "hinge": named("hinge on the worked example"),
    "logistic": named("logistic on the worked example"),
}
ON_RANDOM_SCORES = {
    "mse": named("mse on random scores"),
    "hinge": named("hinge on random scores"),
    "logistic": named("logistic on random scores"),
}

_S, _Y = [0.8, -0.2, 0.5], [1.0, -1.0, 1.0]


def public_cases():
    cases = [case("loss", ON_THE_EXAMPLE[name], loss=name, s=_S, y=_Y) for name in LOSSES]
    cases += [
        case(
            "loss",
            "hinge: margins above 1 cost nothing and teach nothing",
            loss="hinge",
            s=[3.0, -2.0, 0.5, -0.5],
            y=[1.0, -1.0, -1.0, 1.0],
        ),
        case(
            "loss", "logistic on a very wrong score", loss="logistic", s=[-4.0, 2.0], y=[1.0, 1.0]
        ),
        case(
            "loss",
            "mse with numeric targets",
            loss="mse",
            s=[2.5, -1.0, 0.0, 4.0],
            y=[3.0, -1.0, 1.0, 2.0],
        ),
        case(
            "lengths",
            "lists of different lengths raise ValueError",
            loss="mse",
            s=[1.0, 2.0],
            y=[1.0],
        ),
    ]
    return cases


HIDDEN_SPACE = (
    "≈10^11 or more each: 3 to 6 scores in [-3, 3] to 3 decimals with random ±1 labels; "
    "lists of two random different lengths for a random loss"
)


def hidden_cases(rng):
    def scores(n):
        return [uniform(rng, -3, 3) for _ in range(n)]

    def labels(n):
        return [rng.choice((1.0, -1.0)) for _ in range(n)]

    cases = []
    for name in LOSSES:
        n = rng.randint(3, 6)
        cases.append(
            case(
                "loss",
                ON_RANDOM_SCORES[name],
                public=False,
                loss=name,
                s=scores(n),
                y=labels(n),
            )
        )
    n, m = rng.sample(range(1, 8), 2)
    cases.append(
        case(
            "lengths",
            "random lists of different lengths raise ValueError",
            public=False,
            loss=rng.choice(LOSSES),
            s=scores(n),
            y=labels(m),
            then=rng.choice(cases),  # a valid loss in the same child: see runners/refusal.py
        )
    )
    return cases


# -- what a right answer gives ---------------------------------------------------------


def _sigmoid(t):
    return 1.0 / (1.0 + math.exp(-t)) if t >= 0 else math.exp(t) / (1.0 + math.exp(t))


def expect(case):
    inputs = case["inputs"]
    s, y, name = inputs["s"], inputs["y"], inputs["loss"]
    setup = f"{name}(scores = {s}, targets = {y})"
    if case["kind"] == "lengths":
        return Expectation(
            [
                Want(
                    "raised ValueError",
                    1.0,
                    CLOSED,
                    setup,
                    [(0.0, msg("check that there is one target per score and raise ValueError"))],
                    label=msg("raised ValueError"),
                ),
                *then_wants(expect, case),
            ],
        )
    n = len(s)
    if name == "mse":
        terms = [(si - yi) ** 2 for si, yi in zip(s, y)]
        grads = [2.0 * (si - yi) / n for si, yi in zip(s, y)]
    elif name == "hinge":
        terms = [max(0.0, 1.0 - yi * si) for si, yi in zip(s, y)]
        grads = [(-yi / n if yi * si < 1.0 else 0.0) for si, yi in zip(s, y)]
    else:
        terms = [math.log1p(math.exp(-yi * si)) for si, yi in zip(s, y)]
        grads = [-yi * _sigmoid(-yi * si) / n for si, yi in zip(s, y)]
    total = sum(terms)
    wants = [
        Want(
            "loss",
            total / n,
            CLOSED,
            setup,
            [(total, msg("that is the sum: the loss is the mean, divide by N"))],
            label=msg("loss"),
        )
    ]
    for i, g in enumerate(grads):
        wants.append(
            Want(
                f"s[{i}].grad",
                g,
                CLOSED,
                setup,
                [(g * n, msg("the gradient of the sum: did you divide by N?"))] if g else [],
            )
        )
    return Expectation(wants)

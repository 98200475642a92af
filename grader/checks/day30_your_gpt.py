"""Checks of exercises/day30_your_gpt.py: held-out loss, perplexity, bits per character.

Expected losses come from the float model of the day-25 checks; perplexity and bits from
their closed forms, e^L and L / log 2.
"""

import math
import random

from grader.messages import msg
from grader.verdict import CLOSED, Expectation, Want

from .cases import case, named
from .day25_microgpt import _weights, forward

TITLE = msg("Day 30: measuring your GPT")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): gpt() and
# cross_entropy are given; document_loss and evaluate would be held_out_loss.
ENGINE = {"value": (), "gpt": ("document_loss", "evaluate")}
ENGINE_BY_KIND = {}

CONFIG = {"vocab_size": 5, "n_embd": 4, "n_head": 2, "n_layer": 1, "block_size": 8}


def _loss_case(name, seed, docs, public=True):
    return case(
        "loss",
        name,
        public=public,
        config=CONFIG,
        params=_weights(random.Random(seed), CONFIG),
        docs=docs,
    )


def public_cases():
    return [
        _loss_case(named("the loss of one name"), 7, [[4, 1, 2, 4]]),
        _loss_case(
            named("names of different lengths: average per predicted token"),
            8,
            [[4, 0, 4], [4, 1, 3, 3, 2, 0, 4]],
        ),
        case(
            "measures", "perplexity and bits of log 27 (uniform over 27 symbols)", loss=math.log(27)
        ),
        case("measures", "perplexity and bits of a loss of 2.25", loss=2.25),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: the model's weights drawn from one of 10^9 seeds and 2 or 3 random "
    "names of 1 to 6 letters; a loss in [0.5, 4] to 9 decimals"
)


def hidden_cases(rng):
    def names(n):
        return [[4] + [rng.randrange(4) for _ in range(rng.randint(1, 6))] + [4] for _ in range(n)]

    return [
        _loss_case(named("three random names"), rng.randrange(10**9), names(3), public=False),
        _loss_case(named("two random names"), rng.randrange(10**9), names(2), public=False),
        case("measures", "a random loss", public=False, loss=round(rng.uniform(0.5, 4.0), 9)),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "measures":
        loss = inputs["loss"]
        setup = f"loss = {loss}"  # no words: a code name
        return Expectation(
            [
                Want(
                    "perplexity",
                    math.exp(loss),
                    CLOSED,
                    setup,
                    [
                        (
                            2.0**loss,
                            msg(
                                "perplexity uses e, the base of the natural log the loss is in: "
                                "math.exp(loss)"
                            ),
                        )
                    ],
                    label=msg("perplexity"),
                ),
                Want(
                    "bits per character",
                    loss / math.log(2),
                    CLOSED,
                    setup,
                    [(loss * math.log(2), msg("divide by log 2, do not multiply"))],
                    label=msg("bits per character"),
                ),
            ]
        )
    cfg, p, docs = inputs["config"], inputs["params"], inputs["docs"]
    per_name = [forward(cfg, p, tokens)[1] for tokens in docs]
    counts = [len(tokens) - 1 for tokens in docs]
    expected = sum(loss * c for loss, c in zip(per_name, counts)) / sum(counts)
    setup = msg("{count} name(s): {docs}", count=len(docs), docs=str(docs))
    bugs = []
    if len(docs) > 1:
        bugs.append(
            (
                sum(per_name) / len(per_name),
                msg(
                    "this is the mean of each name's mean: divide "
                    "the sum over all predictions by the number of predictions instead"
                ),
            )
        )
    bugs.append(
        (
            sum(loss * c for loss, c in zip(per_name, counts)),
            msg("this is the total: divide by the number of predicted tokens"),
        )
    )
    return Expectation(
        [Want("held-out loss", expected, CLOSED, setup, bugs, label=msg("held-out loss"))],
        hint=msg("Use a fresh KV cache for every name."),
    )

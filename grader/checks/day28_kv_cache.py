"""Checks of exercises/day28_kv_cache.py: logits with and without a KV cache.

The expected logits come from the float model of the day-25 checks (the formulas, on
floats); the number of `gpt` calls from n (n + 1) / 2 and n. The child counts the calls by
wrapping the `gpt` the learner's module imported.
"""

import random

from grader.messages import msg
from grader.verdict import EXACT, Expectation, Want

from .cases import case, named
from .day25_microgpt import _weights, forward, logit_wants

TITLE = msg("Day 28: the KV cache")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): the given
# gpt() and its building blocks; the engine has no loop over positions to hide.
ENGINE = {"value": (), "gpt": ()}
ENGINE_BY_KIND = {}

CONFIG = {"vocab_size": 5, "n_embd": 4, "n_head": 2, "n_layer": 1, "block_size": 8}


def _case(kind, name, seed, tokens, public=True):
    return case(
        kind,
        name,
        public=public,
        config=CONFIG,
        params=_weights(random.Random(seed), CONFIG),
        tokens=tokens,
    )


def public_cases():
    return [
        _case("without", named("without a cache: the logits of every position"), 5, [4, 1, 2, 2]),
        _case(
            "with",
            named("with a cache: the same logits, one gpt call per position"),
            5,
            [4, 1, 2, 2],
        ),
        _case(
            "without",
            named("without a cache, a longer sequence: n (n + 1) / 2 calls"),
            6,
            [4, 0, 3, 3, 1, 2],
        ),
        _case("with", named("with a cache, a longer sequence: n calls"), 6, [4, 0, 3, 3, 1, 2]),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: the model's weights drawn from one of 10^9 seeds, and a random "
    "sequence of 3 to 7 tokens after BOS"
)


def hidden_cases(rng):
    def tokens():
        return [4] + [rng.randrange(4) for _ in range(rng.randint(3, 7))]

    seed, sequence = rng.randrange(10**9), tokens()
    return [
        _case("without", named("a random sequence without a cache"), seed, sequence, public=False),
        _case("with", named("a random sequence with a cache"), seed, sequence, public=False),
        _case(
            "with",
            named("another random sequence with a cache"),
            rng.randrange(10**9),
            tokens(),
            public=False,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inputs = case["inputs"]
    tokens = inputs["tokens"]
    n = len(tokens)
    setup = msg("tokens {tokens}", tokens=str(tokens))
    # forward() predicts tokens[1:], so give it one extra token to get a logit row for every position
    logits, _ = forward(inputs["config"], inputs["params"], tokens + [0])
    cached = case["kind"] == "with"
    expected_calls = float(n if cached else n * (n + 1) // 2)
    other = float(n * (n + 1) // 2 if cached else n)
    advice = (
        msg(
            "gpt ran once per position: a fresh cache per position means running positions "
            "0..t again every time"
        )
        if not cached
        else msg(
            "gpt ran for the whole prefix at every position: make one cache before the loop "
            "and run each position once"
        )
    )
    wants = [
        Want("positions returned", float(n), EXACT, setup, label=msg("positions returned")),
        Want(
            "calls of gpt",
            expected_calls,
            EXACT,
            setup,
            [
                (other, advice),
                (
                    0.0,
                    msg("gpt was not called through the name imported in the exercise file"),
                ),
            ],
            label=msg("calls of gpt"),
        ),
    ]
    for pos, row in enumerate(logits):
        wants += logit_wants(pos, row, setup)
    return Expectation(wants)

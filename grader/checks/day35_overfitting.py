"""Checks of exercises/day35_overfitting.py: a three-way split and an early-stopping rule.

The split is defined by a seeded shuffle of a copy (the standard library's
random.Random(seed).shuffle) and three cuts, so the expected lists come from doing
exactly that here. The early-stopping rule is walked through evaluation by evaluation
from its definition. Likely bugs (no shuffle, the caller's list shuffled, the cuts in
another order, ties counted as new bests, patience off by one, the best read from the
whole list) are recognised by what they give.
"""

import random

from grader.messages import msg
from grader.verdict import EXACT, Expectation, Want, WantList

from .cases import case, uniform

TITLE = msg("Day 35: a three-way split and early stopping")
ENGINE = {}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case(
            "split", "ten items, 2 dev and 2 test", items=list(range(10)), n_dev=2, n_test=2, seed=0
        ),
        case(
            "split",
            "another seed, another split",
            items=[10, 20, 30, 40, 50, 60, 70, 80],
            n_dev=1,
            n_test=2,
            seed=35,
        ),
        case(
            "stop",
            "the docstring's example",
            losses=[3.0, 2.5, 2.6, 2.4, 2.7, 2.8, 2.9, 2.0],
            patience=2,
        ),
        case("stop", "a tie is not a new best", losses=[2.9, 2.7, 2.8, 2.7, 2.9], patience=3),
        case(
            "stop",
            "never patient enough to stop: the run ends",
            losses=[3.3, 3.1, 3.0, 3.05, 2.95, 2.9],
            patience=2,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^15 or more each: 12 to 40 distinct items from 0 to 10^6 with random dev and test "
    "sizes and a seed from 10^9; 7 to 33 dev losses in [1, 3.5] to 3 decimals, falling then "
    "rising (with a tie to the best and a lower loss after the stop), patience 2 to 4, or "
    "never waiting long enough and ending 0 to patience - 1 evaluations after the last best, "
    "patience 3 to 10"
)


def _losses(rng, patience):
    """A dev curve that falls, then rises for long enough to stop, with a tie to the best
    during the wait and a lower loss after the stop (which must not count)."""
    n_fall = rng.randint(3, 8)
    level = uniform(rng, 2.8, 3.5)
    losses = [level]
    for _ in range(n_fall):
        level = round(level - uniform(rng, 0.01, 0.2), 3)
        losses.append(level)
    best = level
    wait = [round(best + uniform(rng, 0.001, 0.3), 3) for _ in range(patience)]
    wait[rng.randrange(patience)] = best  # equal, not lower: no new best
    losses += wait
    losses += [round(best - uniform(rng, 0.01, 0.3), 3)]  # after the stop: never seen
    losses += [uniform(rng, 1.5, 3.5) for _ in range(rng.randint(0, 6))]
    return losses


def hidden_cases(rng):
    n = rng.randint(12, 40)
    n_dev = rng.randint(1, n // 3)
    n_test = rng.randint(1, n // 3)
    patience = rng.randint(2, 4)
    endless = [uniform(rng, 2.8, 3.5)]
    best = endless[0]
    for _ in range(rng.randint(8, 16)):  # never more than one evaluation without a new best
        if rng.random() < 0.5:
            endless.append(round(best + uniform(rng, 0.001, 0.1), 3))
        best = round(best - uniform(rng, 0.01, 0.1), 3)
        endless.append(best)
    # The run ends 0 to patience - 1 evaluations after its last new best (one of them may
    # tie it), with a patience of its own, 3 to 10: the latest new best is not simply the
    # last index, so (len - 1, len - 1) is no answer.
    endless_patience = rng.randint(3, 10)
    tail = [
        round(best + uniform(rng, 0.001, 0.1), 3) for _ in range(rng.randrange(endless_patience))
    ]
    if tail and rng.random() < 0.5:
        tail[rng.randrange(len(tail))] = best
    endless += tail
    return [
        case(
            "split",
            "random items, sizes and seed",
            public=False,
            items=rng.sample(range(10**6), n),
            n_dev=n_dev,
            n_test=n_test,
            seed=rng.randrange(10**9),
        ),
        case(
            "stop",
            "a random curve that turns up",
            public=False,
            losses=_losses(rng, patience),
            patience=patience,
        ),
        case(
            "stop",
            "a random curve that never waits long enough",
            public=False,
            losses=endless,
            patience=endless_patience,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _cut(shuffled, n_dev, n_test):
    n_train = len(shuffled) - n_dev - n_test
    return shuffled[:n_train], shuffled[n_train : n_train + n_dev], shuffled[n_train + n_dev :]


def _stopping(losses, patience, new_best=lambda loss, best: loss < best, wait=None):
    """(best, stop) walked through from the definition; the keywords replay likely bugs."""
    wait = patience if wait is None else wait
    best = 0
    for i, loss in enumerate(losses):
        if i and new_best(loss, losses[best]):
            best = i
        elif i - best >= wait:
            return best, i
    return best, len(losses) - 1


def _expect_split(x):
    items, n_dev, n_test = list(x["items"]), x["n_dev"], x["n_test"]
    shuffled = list(items)
    random.Random(x["seed"]).shuffle(shuffled)
    train, dev, test = _cut(shuffled, n_dev, n_test)
    plain = _cut(items, n_dev, n_test)
    setup = f"items = {items}, n_dev = {n_dev}, n_test = {n_test}, seed = {x['seed']}"  # no words
    n_train = len(items) - n_dev - n_test
    other_order = (shuffled[n_dev + n_test :], shuffled[:n_dev], shuffled[n_dev : n_dev + n_test])
    hint = msg("shuffle a copy with random.Random(seed).shuffle, then cut: train, dev, test")
    unshuffled = msg("the items were not shuffled: random.Random(seed).shuffle(a copy)")
    return Expectation(
        [
            WantList(
                "train",
                train,
                setup,
                [
                    (plain[0], unshuffled),
                    (
                        other_order[0],
                        msg(
                            "the cuts are in another order: train is the FIRST "
                            "{n_train} items of the shuffled copy, then dev, then test",
                            n_train=n_train,
                        ),
                    ),
                ],
                hint,
                label=msg("train"),
            ),
            WantList(
                "dev",
                dev,
                setup,
                [
                    (plain[1], unshuffled),
                    (
                        other_order[1],
                        msg("the cuts are in another order: dev comes right after train"),
                    ),
                ],
                hint,
                label=msg("dev"),
            ),
            WantList(
                "test",
                test,
                setup,
                [
                    (
                        other_order[2],
                        msg("the cuts are in another order: test is the LAST n_test items"),
                    )
                ],
                hint,
                label=msg("test"),
            ),
            WantList(
                "items afterwards",
                items,
                setup,
                [
                    (
                        shuffled,
                        msg(
                            "the caller's list was shuffled in place: shuffle a copy, "
                            "list(items), and leave the list you were given as it was"
                        ),
                    )
                ],
                msg("the list you are given must be left as it was"),
                label=msg("items afterwards"),
            ),
            WantList(
                "train, second call",
                train,
                setup,
                [],
                msg(
                    "the same seed must give the same split: use random.Random(seed), not the "
                    "global random module unseeded"
                ),
                label=msg("train, second call"),
            ),
        ]
    )


def _expect_stop(x):
    losses, patience = list(x["losses"]), x["patience"]
    best, stop = _stopping(losses, patience)
    setup = f"dev_losses = {losses}, patience = {patience}"  # no words: code names
    tie = msg("a loss EQUAL to the best is not a new best: use < , not <=")
    too_late = msg("one evaluation too late: stop when i - best reaches patience (>=)")
    ties = _stopping(losses, patience, new_best=lambda loss, b: loss <= b)
    later = _stopping(losses, patience, wait=patience + 1)
    hindsight = min(range(len(losses)), key=losses.__getitem__)
    return Expectation(
        [
            Want(
                "best",
                best,
                EXACT,
                setup,
                [
                    (ties[0], tie),
                    (
                        hindsight,
                        msg(
                            "the best was taken over the whole list: training stopped at "
                            "evaluation {stop} and never saw the losses after it",
                            stop=stop,
                        ),
                    ),
                    (later[0], too_late),
                ],
                label="best",
            ),
            Want(
                "stop",
                stop,
                EXACT,
                setup,
                [
                    (ties[1], tie),
                    (later[1], too_late),
                    (
                        len(losses) - 1,
                        msg(
                            "training never stopped: stop at the first evaluation "
                            "that is `patience` evaluations after the latest new best"
                        ),
                    ),
                ],
                label=msg("stop"),
            ),
        ]
    )


def expect(case):
    if case["kind"] == "split":
        return _expect_split(case["inputs"])
    return _expect_stop(case["inputs"])

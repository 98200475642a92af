"""Checks of exercises/day36_learning_rate.py: a warmup + cosine schedule, the rates of a
learning-rate range test, and what a range test's losses say.

The schedule and the rates have closed forms, computed here; the range test's result is
walked through step by step from its definition. Likely bugs (warmup off by one, no
floor, the cosine over the whole run, a linear decay, rates that miss lr_end or grow by
steps of the same size, divergence judged against the first loss, the lowest loss read
past the divergence, an index returned for a rate) are recognised by what they give.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 36: a warmup + cosine schedule and a learning-rate range test")
ENGINE = {}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case(
            "schedule",
            "the lesson's schedule: 20 warmup steps of 200, 0.03 down to 0.003",
            warmup=20,
            steps=200,
            lr_max=0.03,
            lr_min=0.003,
            at=[0, 9, 19, 20, 65, 110, 155, 199],
        ),
        case(
            "schedule",
            "the docstring's: 2 warmup steps of 10, 1.0 down to 0",
            warmup=2,
            steps=10,
            lr_max=1.0,
            lr_min=0.0,
            at=[0, 1, 2, 6, 9],
        ),
        case("rates", "1e-4 to 10 in 101 steps, x10 every 20", lr_start=1e-4, lr_end=10.0, n=101),
        case("rates", "four rates, 0.001 to 1", lr_start=0.001, lr_end=1.0, n=4),
        case(
            "pick",
            "the docstring's example",
            rates=[0.001, 0.01, 0.1, 1.0, 10.0],
            losses=[3.3, 3.0, 2.5, 11.0, 2.0],
            k=4.0,
        ),
        case(
            "pick",
            "never diverged: the lowest of all",
            rates=[0.001, 0.01, 0.1, 1.0],
            losses=[3.3, 3.1, 2.6, 2.8],
            k=4.0,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: warmup 1 to 50 of 60 to 10^5 steps, lr_max in [0.001, 0.1] to 6 "
    "decimals and a floor below it, at 6 steps; lr_start in [10^-5, 10^-3] to 7 decimals, "
    "lr_end in [0.5, 10] to 3, 20 to 200 rates; 25 to 60 losses to 3 decimals that dip, "
    "blow up past k in [2, 5] to 2 decimals and dip again after (or that never blow up, "
    "their lowest a dip late in the run)"
)


def hidden_cases(rng):
    warmup = rng.randint(1, 50)
    steps = rng.randint(60, 10**5)
    lr_max = uniform(rng, 0.001, 0.1, 6)
    at = [0, warmup - 1, warmup, rng.randrange(warmup + 1, steps), steps - 1]
    at.append(rng.randrange(warmup, steps))
    n = rng.randint(20, 200)
    return [
        case(
            "schedule",
            "a random schedule",
            public=False,
            warmup=warmup,
            steps=steps,
            lr_max=lr_max,
            lr_min=round(lr_max * uniform(rng, 0.01, 0.3), 8),
            at=sorted(set(at)),
        ),
        case(
            "rates",
            "random ends and length",
            public=False,
            lr_start=uniform(rng, 1e-5, 1e-3, 7),
            lr_end=uniform(rng, 0.5, 10, 3),
            n=n,
        ),
        _pick_case(rng),
        _calm_case(rng),
    ]


def _pick_case(rng):
    """Losses of a range test: flat, a dip to the lowest, a rise (with a tie to the lowest),
    a blow-up past k times the lowest (but below k times the first loss), then a lower loss
    that must not count."""
    k = uniform(rng, 2, 5, 2)
    first = uniform(rng, 3.0, 3.5)
    flat = [round(first + uniform(rng, -0.05, 0.05), 3) for _ in range(rng.randint(8, 20))]
    low = uniform(rng, 0.3, 0.6)
    dip = [round(first - (first - low) * (j + 1) / 6, 3) for j in range(6)]
    rise = [
        round(low + uniform(rng, 0.001, low * (k - 1) * 0.9), 3) for _ in range(rng.randint(3, 10))
    ]
    rise[rng.randrange(len(rise))] = dip[-1]  # a loss equal to the lowest: the first one wins
    blow = round(low * k + uniform(rng, 0.1, 0.5), 3)
    while blow >= first * k:
        blow = round(blow - 0.05, 3)
    after = [round(low - uniform(rng, 0.05, 0.2), 3)] + [
        uniform(rng, 1, 20) for _ in range(rng.randint(2, 20))
    ]
    losses = [first] + flat + dip + rise + [blow] + after
    start, factor = uniform(rng, 1e-5, 1e-3, 7), 10 ** (1 / uniform(rng, 8, 30, 2))
    rates = [round(start * factor**i, 12) for i in range(len(losses))]
    return case("pick", "a random range test", public=False, rates=rates, losses=losses, k=k)


def _rates(rng, n):
    start, factor = uniform(rng, 1e-5, 1e-3, 7), 10 ** (1 / uniform(rng, 8, 30, 2))
    return [round(start * factor**i, 12) for i in range(n)]


def _calm_case(rng):
    """Losses of a range test that never diverge: flat, a dip, a rise (with a tie to the
    lowest) that stays below k times the lowest, then a lower loss, which counts, and a
    rise after it: the answer is (that loss's rate, None)."""
    k = uniform(rng, 2, 5, 2)
    first = uniform(rng, 3.0, 3.5)
    flat = [round(first + uniform(rng, -0.05, 0.05), 3) for _ in range(rng.randint(8, 20))]
    low = uniform(rng, 0.6, 1.2)
    dip = [round(first - (first - low) * (j + 1) / 6, 3) for j in range(6)]
    rise = [
        round(low + uniform(rng, 0.001, low * (k - 1) * 0.9), 3) for _ in range(rng.randint(3, 10))
    ]
    rise[rng.randrange(len(rise))] = dip[-1]
    lower = round(low - uniform(rng, 0.05, 0.2), 3)
    after = [
        round(lower + uniform(rng, 0.001, lower * (k - 1) * 0.9), 3)
        for _ in range(rng.randint(2, 8))
    ]
    losses = [first] + flat + dip + rise + [lower] + after
    return case(
        "pick",
        "a random range test that never diverges",
        public=False,
        rates=_rates(rng, len(losses)),
        losses=losses,
        k=k,
    )


# -- what a right answer gives ---------------------------------------------------------


def _schedule(step, warmup, steps, lr_max, lr_min, bug=None):
    if step < warmup:
        return lr_max * (step if bug == "warmup_from_0" else step + 1) / warmup
    progress = (step - warmup) / (steps - warmup)
    if bug == "whole_run":
        progress = step / steps
    if bug == "linear":
        return lr_max - (lr_max - lr_min) * progress
    if bug == "no_floor":
        return lr_max * 0.5 * (1 + math.cos(math.pi * progress))
    if bug == "no_pi":
        return lr_min + (lr_max - lr_min) * 0.5 * (1 + math.cos(progress))
    return lr_min + (lr_max - lr_min) * 0.5 * (1 + math.cos(math.pi * progress))


SCHEDULE_BUGS = {
    "warmup_from_0": msg(
        "warmup off by one: step 0 gets lr_max * 1 / warmup, not 0 (lr_max * (step + 1) / warmup)"
    ),
    "whole_run": msg(
        "the cosine runs over the whole run: progress = (step - warmup) / "
        "(steps - warmup), 0 when the warmup ends"
    ),
    "linear": msg("that is a straight line: the decay follows 0.5 * (1 + cos(pi * progress))"),
    "no_floor": msg("the floor is missing: lr_min + (lr_max - lr_min) * 0.5 * (1 + cos(...))"),
    "no_pi": msg("the cosine's argument is pi * progress, so that it ends at cos(pi) = -1"),
}


def _expect_schedule(x):
    args = (x["warmup"], x["steps"], x["lr_max"], x["lr_min"])
    setup = f"warmup = {x['warmup']}, steps = {x['steps']}, lr_max = {x['lr_max']}, lr_min = {x['lr_min']}"
    wants = []
    for s in x["at"]:
        right = _schedule(s, *args)
        bugs = []
        for bug, advice in SCHEDULE_BUGS.items():
            value = _schedule(s, *args, bug=bug)
            if abs(value - right) > 1e-9 * max(1.0, abs(right)):
                bugs.append((value, advice))
        wants.append(
            Want(
                f"lr at step {s}",
                right,
                CLOSED,
                setup,
                bugs,
                label=msg("lr at step {step}", step=s),
            )
        )
    return Expectation(wants)


def _expect_rates(x):
    a, b, n = x["lr_start"], x["lr_end"], x["n"]
    setup = f"lr_start = {a}, lr_end = {b}, n = {n}"  # no words: code names
    wants = [Want("len(rates)", n, EXACT, setup, [], label=msg("how many rates"))]
    for i in range(n):
        right = a * (b / a) ** (i / (n - 1))
        bugs = [
            (
                a * (b / a) ** (i / n),
                msg("the last rate must be lr_end: the exponent is i / (n - 1)"),
            ),
            (
                a + (b - a) * i / (n - 1),
                msg(
                    "these rates grow by equal steps: each must be the "
                    "previous one TIMES the same factor (lr_end / lr_start) ** (1 / (n - 1))"
                ),
            ),
        ]
        bugs = [(v, m) for v, m in bugs if abs(v - right) > 1e-9 * abs(right)]
        wants.append(Want(f"rates[{i}]", right, CLOSED, setup, bugs))
    return Expectation(wants)


def _pick(losses, k, against_first=False):
    lowest, diverged = 0, None
    for i in range(1, len(losses)):
        bar = losses[0] if against_first else losses[lowest]
        if losses[i] > k * bar:
            diverged = i
            break
        if losses[i] < losses[lowest]:
            lowest = i
    return lowest, diverged


INDEX = msg("that is an index: return the RATE, rates[i]")
AGAINST_FIRST = msg(
    "divergence is judged against the lowest loss BEFORE the step, not the first loss"
)


def _expect_pick(x):
    rates, losses, k = list(x["rates"]), list(x["losses"]), x["k"]
    lowest, diverged = _pick(losses, k)
    setup = f"rates = {rates}, losses = {losses}, k = {k}"  # no words: code names
    first = _pick(losses, k, against_first=True)
    hindsight = min(range(len(losses)), key=losses.__getitem__)
    lowest_bugs = [(float(lowest), INDEX)]
    if rates[first[0]] == rates[hindsight]:
        lowest_bugs.append(
            (
                rates[hindsight],
                msg(
                    "the test ends at the first step whose loss is above k times the lowest "
                    "loss before it (not the first loss), and nothing past the divergence counts"
                ),
            )
        )
    else:
        lowest_bugs.append(
            (
                rates[first[0]],
                AGAINST_FIRST,
            )
        )
        lowest_bugs.append(
            (
                rates[hindsight],
                msg(
                    "the lowest was read past the divergence: the test ends where the loss blew up"
                ),
            )
        )
    lowest_bugs = [(v, m) for v, m in lowest_bugs if v != rates[lowest]]
    wants = [Want("lowest", rates[lowest], CLOSED, setup, lowest_bugs, label=msg("lowest"))]
    if diverged is None:
        wants.append(
            Want(
                "diverged is None",
                1.0,
                EXACT,
                setup,
                [],
                label="diverged",
                more=msg("The loss never went above k times the lowest before it: return None."),
            )
        )
    else:
        bugs = [(float(diverged), INDEX)]
        if first[1] is not None and first[1] != diverged:
            bugs.append(
                (
                    rates[first[1]],
                    AGAINST_FIRST,
                )
            )
        wants.append(
            Want(
                "diverged",
                rates[diverged],
                CLOSED,
                setup,
                bugs,
                more=msg("If you returned None: the loss went above k times the lowest before it."),
                label=msg("diverged"),
            )
        )
    return Expectation(wants)


def expect(case):
    x = case["inputs"]
    if case["kind"] == "schedule":
        return _expect_schedule(x)
    if case["kind"] == "rates":
        return _expect_rates(x)
    return _expect_pick(x)

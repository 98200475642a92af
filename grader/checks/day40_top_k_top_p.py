"""Checks of exercises/day40_top_k_top_p.py: top-k, top-p, and the two after temperature.

Expected values are exact: the filters are computed here with fractions from the rules
(rank by probability, ties by index; top-k keeps the first k; top-p keeps a token while
the tokens ranked before it add up to less than p; renormalise), the draws by day 27's
cumulative rule on the result. Likely bugs (the smallest k, no renormalising, ties the
wrong way, every tie kept, the token that crosses p cut, a total that reaches p exactly
treated as below it, index order instead of the ranking, top-p before top-k, no
temperature) are recognised.
"""

from fractions import Fraction

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want, WantList

from . import lm
from .cases import case, uniform

TITLE = msg("Day 40: top-k and top-p sampling")
ENGINE = {"value": (), "gpt": ("filter_probs", "sampling_probs", "_keep")}
ENGINE_BY_KIND = {}

CONFIDENT = [0.70, 0.15, 0.06, 0.04, 0.03, 0.02]
FLAT = [0.22, 0.20, 0.18, 0.16, 0.14, 0.10]


def public_cases():
    return [
        case("topk", "the lesson's confident distribution, k = 3", probs=CONFIDENT, k=3),
        case("topk", "the lesson's flat distribution, k = 3", probs=FLAT, k=3),
        case("topk", "k = 1 keeps the favourite alone", probs=[0.1, 0.6, 0.3], k=1),
        case("topk", "k above the vocabulary keeps every token", probs=[0.5, 0.2, 0.3], k=5),
        case(
            "topk",
            "equal probabilities: the smaller index ranks first",
            probs=[0.1, 0.3, 0.3, 0.3],
            k=2,
        ),
        case("topp", "the lesson's confident distribution, p = 0.8", probs=CONFIDENT, p=0.8),
        case("topp", "the lesson's flat distribution, p = 0.8", probs=FLAT, p=0.8),
        case(
            "topp",
            "a running total exactly p: the next token is cut",
            probs=[0.125, 0.5, 0.125, 0.25],
            p=0.75,
        ),
        case("topp", "the favourite alone reaches p", probs=[0.2, 0.7, 0.1], p=0.5),
        case("topp", "p = 1 keeps every token", probs=[0.25, 0.5, 0.25], p=1.0),
        case(
            "next",
            "top-k 2, then top-p 0.7 on what is left",
            z=[2.0, 1.0, 0.0],
            T=1.0,
            top_k=2,
            top_p=0.7,
            us=[0.1, 0.5, 0.8, 0.99],
        ),
        case(
            "next",
            "top-k only, at T = 0.5",
            z=[0.5, 2.0, -1.0, 1.5, 0.0],
            T=0.5,
            top_k=3,
            top_p=None,
            us=[0.05, 0.6, 0.85, 0.97],
        ),
        case(
            "next",
            "top-p only, at T = 2",
            z=[0.5, 2.0, -1.0, 1.5, 0.0],
            T=2.0,
            top_k=None,
            top_p=0.6,
            us=[0.05, 0.35, 0.6, 0.9],
        ),
        case(
            "next",
            "both off: day 27's draw",
            z=[2.0, 1.0, 0.0],
            T=1.0,
            top_k=None,
            top_p=None,
            us=[0.3, 0.7, 0.95],
        ),
        case(
            "next",
            "temperature 0 stays greedy",
            z=[0.5, 3.0, 3.0, -1.0],
            T=0.0,
            top_k=2,
            top_p=0.9,
            us=[0.0, 0.5, 0.99],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^10 or more each: 4 to 9 logits in [-3, 3] to 3 decimals (softmaxed for the "
    "filters), k in 1 to n - 1 (or two equal probabilities at the k-th place), p in "
    "[0.2, 0.95] to 3 decimals (or exactly on a running total of k / 4096); for the draws "
    "T in [0.3, 2.5] to 3 decimals, k, p and 8 values of u to 4 decimals"
)


def _logits(rng, lo=4, hi=9):
    return [uniform(rng, -3, 3) for _ in range(rng.randint(lo, hi))]


def _running(q, order):
    """The running totals of q down `order` (floats, as a learner adds them)."""
    totals, s = [], 0.0
    for i in order:
        s += q[i]
        totals.append(s)
    return totals


def _tie_at_k(rng):
    """Probabilities with two equal ones at places k and k + 1 of the ranking."""
    while True:
        z = _logits(rng, 4, 9)
        a, b = sorted(rng.sample(range(len(z)), 2))
        z[b] = z[a]
        probs = lm.softmax(z)
        order = _order(probs)
        k = order.index(a) + 1
        if k < len(z) and order[k] == b:
            return {"probs": probs, "k": k}


def _random_topp(rng):
    while True:
        probs = lm.softmax(_logits(rng))
        p = uniform(rng, 0.2, 0.95)
        order = _order(probs)
        near = any(abs(t - p) < 1e-6 for t in _running(probs, order))
        if max(probs) < p and not near and _top_p(probs, p, by_index=True) != _top_p(probs, p):
            return {"probs": probs, "p": p}


def _exact_topp(rng, total=4096):
    """Weights k / 4096 (their sums are exact floats) and p equal to a running total."""
    while True:
        n = rng.randint(4, 8)
        cuts = sorted(rng.sample(range(1, total), n - 1))
        weights = [b - a for a, b in zip([0] + cuts, cuts + [total])]
        probs = [w / total for w in weights]
        order = _order(probs)
        j = rng.randint(1, n - 1)
        p = sum(weights[i] for i in order[:j]) / total
        if p < 1:
            return {"probs": probs, "p": p}


def _random_next(rng, both=True):
    while True:
        z = _logits(rng, 5, 9)
        inputs = {
            "z": z,
            "T": uniform(rng, 0.3, 2.5),
            "top_k": rng.randint(2, len(z) - 1),
            "top_p": uniform(rng, 0.3, 0.95),
            "us": [round(rng.random(), 4) for _ in range(8)],
        }
        if not both:
            inputs[rng.choice(["top_k", "top_p"])] = None
        right = _tokens(inputs)
        if right is None:
            continue
        if both and (
            _tokens(inputs, swapped=True) == right or _tokens(inputs, no_temperature=True) == right
        ):
            continue
        if not both and _tokens(inputs, no_temperature=True) == right:
            continue
        return inputs


def hidden_cases(rng):
    topk = _logits(rng)
    return [
        case(
            "topk",
            "random probabilities and k",
            public=False,
            probs=lm.softmax(topk),
            k=rng.randint(1, len(topk) - 1),
        ),
        case("topk", "two equal probabilities at the k-th place", public=False, **_tie_at_k(rng)),
        case("topp", "random probabilities and p", public=False, **_random_topp(rng)),
        case("topp", "p exactly on a running total", public=False, **_exact_topp(rng)),
        case("next", "temperature, top-k and top-p", public=False, **_random_next(rng)),
        case("next", "temperature and one filter", public=False, **_random_next(rng, both=False)),
    ]


# -- what a right answer gives (exact fractions) ------------------------------------------


def _order(probs, smaller_first=True):
    """The ranking: largest probability first; ties by index (or the larger index first)."""
    sign = 1 if smaller_first else -1
    return sorted(range(len(probs)), key=lambda i: (-Fraction(probs[i]), sign * i))


def _keep(probs, kept, renormalise=True):
    q = [Fraction(x) for x in probs]
    total = sum(q[i] for i in kept) if renormalise else Fraction(1)
    return [float(q[i] / total) if i in kept else 0.0 for i in range(len(q))]


def _top_k(probs, k, smaller_first=True, renormalise=True, every_tie=False):
    order = _order(probs, smaller_first)
    kept = set(order[:k])
    if every_tie and k <= len(probs):
        kth = Fraction(probs[order[k - 1]])
        kept = {i for i in range(len(probs)) if Fraction(probs[i]) >= kth}
    return _keep(probs, kept, renormalise)


def _top_p(probs, p, rule="before", by_index=False, renormalise=True):
    """rule "before": keep while the tokens before add up to < p (right); "through": while
    the total with the token is <= p (the crossing token cut); "strict": while before <= p."""
    order = list(range(len(probs))) if by_index else _order(probs)
    p, q = Fraction(p), [Fraction(x) for x in probs]
    head, before = set(), Fraction(0)
    for i in order:
        if rule == "before" and before >= p:
            break
        if rule == "strict" and before > p:
            break
        if rule == "through" and before + q[i] > p:
            break
        head.add(i)
        before += q[i]
    if not head:
        return None
    return _keep(probs, head, renormalise)


def _probs(z, T):
    if T == 0:
        best = z.index(max(z))
        return [1.0 if i == best else 0.0 for i in range(len(z))]
    return lm.softmax([x / T for x in z])


def _draw(q, u):
    """Day 27's draw; None when u is within rounding of an edge (the case is redrawn)."""
    total = 0.0
    for i, x in enumerate(q):
        if x > 0 and abs(u - (total + x)) < 1e-9:
            return None
        total += x
        if u < total:
            return i
    return max(i for i, x in enumerate(q) if x > 0)


def _tokens(inputs, swapped=False, no_temperature=False):
    z, k, p = inputs["z"], inputs["top_k"], inputs["top_p"]
    q = _probs(z, 1.0 if no_temperature else inputs["T"])
    steps = [("p", p), ("k", k)] if swapped else [("k", k), ("p", p)]
    for name, value in steps:
        if value is None:
            continue
        if name == "k":
            q = _top_k(q, value)
        else:
            if any(abs(t - value) < 1e-9 for t in _running(q, _order(q))[:-1]):
                return None  # a total within rounding of p: not a fair case
            q = _top_p(q, value)
    tokens = [_draw(q, u) for u in inputs["us"]]
    return None if None in tokens else tokens


def _filter_wants(q, setup, bugs):
    """One Want per probability, with the value each likely bug gives there (if it differs)."""
    wants = [Want("len(q)", float(len(q)), EXACT, setup)]
    for i, e in enumerate(q):
        named = [(b[i], advice) for b, advice in bugs if b is not None and abs(b[i] - e) > 1e-9]
        wants.append(Want(f"q[{i}]", e, CLOSED, setup, named))
    return wants


RENORMALISE = msg("divide the kept probabilities by their sum, so that they add up to 1 again")


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "topk":
        probs, k = inputs["probs"], inputs["k"]
        setup = f"probs = {[round(x, 6) for x in probs]}, k = {k}"
        bugs = [
            (
                _top_k(probs, k, renormalise=False),
                RENORMALISE,
            ),
            (
                _top_k(probs, k, every_tie=True),
                msg(
                    "keep exactly k tokens: of equal probabilities at the k-th place, the one "
                    "with the SMALLER index ranks first"
                ),
            ),
            (
                _top_k(probs, k, smaller_first=False),
                msg("equal probabilities rank the SMALLER index first"),
            ),
            (
                _keep(probs, set(_order(probs)[::-1][:k])),
                msg("keep the k LARGEST probabilities: rank largest first"),
            ),
        ]
        return Expectation(_filter_wants(_top_k(probs, k), setup, bugs))
    if kind == "topp":
        probs, p = inputs["probs"], inputs["p"]
        setup = f"probs = {[round(x, 6) for x in probs]}, p = {p}"
        bugs = [
            (
                _top_p(probs, p, renormalise=False),
                RENORMALISE,
            ),
            (
                _top_p(probs, p, rule="strict"),
                msg(
                    "when the running total reaches p exactly, the tokens kept already hold p: "
                    "cut the next one (keep a token only while the total before it is < p)"
                ),
            ),
            (
                _top_p(probs, p, rule="through"),
                msg(
                    "keep the token that crosses p: a token is kept while the tokens ranked "
                    "BEFORE it add up to less than p"
                ),
            ),
            (
                _top_p(probs, p, by_index=True),
                msg("walk down the ranking, most likely first, not in index order"),
            ),
        ]
        return Expectation(_filter_wants(_top_p(probs, p), setup, bugs))
    setup = msg(
        "logits = {z}, temperature = {T}, top_k = {top_k}, top_p = {top_p}, one call per u in {us}",
        z=str(inputs["z"]),
        T=inputs["T"],
        top_k=str(inputs["top_k"]),
        top_p=str(inputs["top_p"]),
        us=str(inputs["us"]),
    )
    right = _tokens(inputs)
    bugs = []
    for other, advice in (
        (
            _tokens(inputs, swapped=True),
            msg("apply top-k first, then top-p to what top-k left (renormalised)"),
        ),
        (
            _tokens(inputs, no_temperature=True),
            msg(
                "divide the logits by the temperature first: next_token_probs(logits, temperature)"
            ),
        ),
    ):
        if other is not None and other != right:
            bugs.append((other, advice))
    return Expectation(
        [
            WantList(
                "tokens",
                right,
                setup,
                bugs,
                hint=msg("Draw each token with day 27's draw(probs, u)."),
                label=msg("tokens"),
            )
        ]
    )

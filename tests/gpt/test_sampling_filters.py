"""engine.gpt's top-k and top-p filters (day 40), checked against exact fractions.

The expected distributions are computed here with `fractions.Fraction` from the rules
the docstrings state (rank by probability, ties by index; top-k keeps the first k; top-p
keeps a token while the tokens ranked before it add up to less than p; renormalise), not
with the engine's floats.
"""

import random
from fractions import Fraction

import pytest

from engine.gpt import (
    filter_probs,
    init_gpt,
    next_token_probs,
    sample,
    sample_names,
    sampling_probs,
)
from engine.tokenizer import Tokenizer


def exact(probs, top_k=None, top_p=None):
    p = [Fraction(x) for x in probs]
    order = sorted(range(len(p)), key=lambda i: (-p[i], i))
    keep = order if top_k is None else order[:top_k]
    total = sum(p[i] for i in keep)
    p = [p[i] / total if i in keep else Fraction(0) for i in range(len(p))]
    if top_p is not None:
        head, before = [], Fraction(0)
        for i in order:
            if before >= Fraction(top_p):
                break
            head.append(i)
            before += p[i]
        total = sum(p[i] for i in head)
        p = [p[i] / total if i in head else Fraction(0) for i in range(len(p))]
    return [float(x) for x in p]


def test_the_docstring_example_and_the_token_that_crosses_p_is_kept():
    probs = [0.1, 0.5, 0.15, 0.25]
    assert filter_probs(probs, top_k=2) == pytest.approx([0, 2 / 3, 0, 1 / 3])
    # 0.5 < 0.7, so the token ranked second (0.25) is kept: it crosses 0.7
    assert filter_probs(probs, top_p=0.7) == pytest.approx([0, 2 / 3, 0, 1 / 3])
    # the running total reaches 0.75 exactly with the second token: the third is cut
    assert filter_probs(probs, top_p=0.75) == pytest.approx([0, 2 / 3, 0, 1 / 3])
    assert filter_probs(probs, top_p=0.5) == [0.0, 1.0, 0.0, 0.0]


def test_ties_rank_the_smaller_index_first():
    quarters = [0.25, 0.25, 0.25, 0.25]
    assert filter_probs(quarters, top_k=2) == [0.5, 0.5, 0.0, 0.0]
    assert filter_probs(quarters, top_p=0.5) == [0.5, 0.5, 0.0, 0.0]
    assert filter_probs([0.2, 0.4, 0.4], top_k=1) == [0.0, 1.0, 0.0]


def test_off_returns_the_probabilities_unchanged():
    probs = next_token_probs([2.0, 1.0, 0.0, -1.0], 0.7)
    assert filter_probs(probs) == probs
    assert filter_probs(probs, top_k=4) == pytest.approx(probs, abs=1e-15)
    assert filter_probs(probs, top_p=1.0) == pytest.approx(probs, abs=1e-15)


def test_top_p_1_is_off_even_for_a_token_of_1e_20():
    # a running total of floats reaches 1.0 before the last token: a walk would cut it
    probs = next_token_probs([0.0, -46.0])
    assert probs[0] == 1.0 and 0 < probs[1] < 1e-19
    assert filter_probs(probs, top_p=1.0) == probs
    assert filter_probs(probs, top_p=1) == probs
    assert filter_probs(probs, top_k=2, top_p=1.0) == probs
    assert filter_probs(probs, top_p=0.999) == [1.0, 0.0]  # below 1 the filter works


@pytest.mark.parametrize("seed", range(30))
def test_random_distributions_match_exact_fractions(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 12)
    weights = [rng.randint(0, 4096) for _ in range(n)]
    weights[0] += 1  # not all 0
    probs = [w / sum(weights) for w in weights]
    # powers-of-two weights keep the floats exact; these are not, so avoid a p that lands
    # within rounding of a running total
    top_k = rng.choice([None, rng.randint(1, n)])
    top_p = rng.choice([None, round(rng.uniform(0.05, 1.0), 3)])
    ranked = sorted(range(n), key=lambda i: (-probs[i], i))
    kept = exact(probs, top_k)
    running = [sum(kept[i] for i in ranked[:j]) for j in range(n + 1)]
    if top_p is not None and any(abs(r - top_p) < 1e-9 for r in running):
        top_p = None
    assert filter_probs(probs, top_k, top_p) == pytest.approx(exact(probs, top_k, top_p), abs=1e-12)


def test_top_p_applies_to_what_top_k_left():
    probs = [0.5, 0.3, 0.2]
    # alone, top-p 0.6 keeps two tokens (0.5 < 0.6); after top-k 2 the first holds 0.625
    assert filter_probs(probs, top_p=0.6) == pytest.approx([0.625, 0.375, 0])
    assert filter_probs(probs, top_k=2, top_p=0.6) == [1.0, 0.0, 0.0]


def test_sampling_probs_is_temperature_then_the_filters():
    z = [1.0, 3.0, 2.0, 0.5]
    for t in (0.5, 1.0, 2.0):
        assert sampling_probs(z, t, 2, 0.9) == filter_probs(next_token_probs(z, t), 2, 0.9)
    assert sampling_probs(z, 0, None, 0.5) == [0.0, 1.0, 0.0, 0.0]  # greedy stays greedy


@pytest.mark.parametrize(
    "top_k, top_p, message",
    [
        (0, None, "top_k must be a whole number of tokens, 1 or more"),
        (2.5, None, "top_k must be a whole number"),
        (True, None, "top_k must be a whole number"),
        (None, 0.0, "top_p must be a probability above 0 and at most 1"),
        (None, 1.5, "top_p must be a probability above 0"),
        (None, "0.9", "top_p must be a probability"),
    ],
)
def test_bad_filters_say_what_to_pass(top_k, top_p, message):
    with pytest.raises(ValueError, match=message):
        filter_probs([0.5, 0.5], top_k, top_p)


def test_bad_probabilities_are_refused():
    with pytest.raises(ValueError, match="non-empty list of probabilities"):
        filter_probs([], top_k=1)
    with pytest.raises(ValueError, match="non-empty list of probabilities"):
        filter_probs([0.5, -0.1], top_k=1)


def test_sample_with_the_filters_off_is_sample_as_before():
    model, tok = init_gpt(seed=3), Tokenizer()
    plain = [sample(model, tok, random.Random(5)) for _ in range(3)]
    off = [sample(model, tok, random.Random(5), 1.0, None, None) for _ in range(3)]
    assert plain == off


def test_top_k_1_samples_the_greedy_name():
    model, tok = init_gpt(seed=3), Tokenizer()
    greedy = sample(model, tok, random.Random(0), temperature=0)
    assert sample_names(model, tok, n=3, seed=9, top_k=1) == [greedy] * 3
    with pytest.raises(ValueError, match="top_p must be"):
        sample(model, tok, random.Random(0), top_p=2)

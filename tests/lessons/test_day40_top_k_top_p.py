"""Day 40: the tail after `em`, the worked example, the order of the filters, and the table of
names sampled under five settings.

Independent computations: the worked example with exact fractions; the temperature-2 row as
square roots (softmax of ln p at T = 2 is sqrt(p) renormalised); the model's probabilities
with engine Values' exp (not next_token_probs); the names sampled again with filters, a
softmax and a draw written here, from a model trained here with the page's seeds.
"""

import math
import random
from fractions import Fraction

import pytest

from engine import Value
from engine.data import load_names, split_names
from engine.gpt import gpt, init_gpt, new_kv_cache, train
from engine.tokenizer import Tokenizer

from .ahead import ahead
from .pages import assert_states, lesson

PAGE = lesson("day40_top_k_top_p")
CONFIDENT = [0.70, 0.15, 0.06, 0.04, 0.03, 0.02]
FLAT = [0.22, 0.20, 0.18, 0.16, 0.14, 0.10]


def ranked(p):
    return sorted(range(len(p)), key=lambda i: (-p[i], i))


def renormalised(p, kept):
    total = sum(p[i] for i in kept)
    return [p[i] / total if i in kept else 0 * p[i] for i in range(len(p))]


def top_k(p, k):
    return renormalised(p, set(ranked(p)[:k]))


def top_p(p, cut_at):
    kept, before = set(), 0 * p[0]
    for i in ranked(p):
        if before >= cut_at:
            break
        kept.add(i)
        before += p[i]
    return renormalised(p, kept)


def exact(row):
    return [Fraction(x).limit_denominator(1000) for x in row]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def train_model():
    tok = Tokenizer()
    train_names, _ = split_names(load_names(), seed=0)
    model = init_gpt(seed=0)
    train(model, [tok.encode(n) for n in train_names], steps=100, lr=0.01, seed=0)
    return model, tok, train_names


@pytest.fixture(scope="module")
def trained():
    return train_model()


def value_softmax(z, temperature=1.0):
    exps = [(Value(x) * (1.0 / temperature)).exp() for x in z]
    total = sum(e.data for e in exps)
    return [e.data / total for e in exps]


# -- the worked example -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "row, texts_k, texts_p",
    [
        (CONFIDENT, ["0.769231", "0.164835", "0.065934"], ["0.823529", "0.176471"]),
        (
            FLAT,
            ["0.366667", "0.333333", "0.300000"],
            ["0.244444", "0.222222", "0.200000", "0.177778", "0.155556"],
        ),
    ],
)
def test_the_worked_example_table(row, texts_k, texts_p):
    k3 = top_k(exact(row), 3)
    p8 = top_p(exact(row), Fraction(8, 10))
    assert sum(q > 0 for q in k3) == 3 and sum(q > 0 for q in p8) == len(texts_p)
    for q, text in zip(k3, texts_k):
        assert_states(PAGE, float(q), text)
    for q, text in zip(p8, texts_p):
        assert_states(PAGE, float(q), text)
    assert "confident: top-k keeps 3, top-p keeps 2" in PAGE.text
    assert "flat: top-k keeps 3, top-p keeps 5" in PAGE.text


def test_the_running_totals_and_the_spin():
    c, f = exact(CONFIDENT), exact(FLAT)
    assert sum(c[:3]) == Fraction(91, 100) and sum(f[:3]) == Fraction(60, 100)
    assert "$S_3 = 0.91$" in PAGE.text and "only $0.60$" in PAGE.text
    assert [sum(c[:j]) for j in (1, 2, 3)] == [
        Fraction(7, 10),
        Fraction(85, 100),
        Fraction(91, 100),
    ]
    assert [float(sum(f[:j])) for j in range(1, 6)] == pytest.approx([0.22, 0.42, 0.60, 0.76, 0.90])
    assert "$0.22, 0.42, 0.60, 0.76, 0.90$" in PAGE.text
    # u = 0.9: the whole wheel draws token 3 (0.85 <= 0.9 < 0.91); after top-p 0.8, token 2
    assert sum(c[:2]) <= Fraction(9, 10) < sum(c[:3])
    kept = top_p(c, Fraction(8, 10))
    assert kept[0] <= Fraction(9, 10) < kept[0] + kept[1]
    text = " ".join(PAGE.text.split())
    assert "draws the third token (index 2), the 6% one" in text
    assert "the same spin draws the second (index 1)" in text


def test_top_k_then_top_p_keeps_one_and_the_other_order_two():
    row = exact([0.5, 0.3, 0.2])
    k_then_p = top_p(top_k(row, 2), Fraction(6, 10))
    p_then_k = top_k(top_p(row, Fraction(6, 10)), 2)
    assert sum(q > 0 for q in k_then_p) == 1 and sum(q > 0 for q in p_then_k) == 2
    assert top_k(row, 2)[:2] == [Fraction(5, 8), Fraction(3, 8)]
    assert_states(PAGE, 0.625, "0.625")
    assert_states(PAGE, 0.375, "0.375")


def test_a_close_second_can_grow_as_the_temperature_falls():
    row = [Fraction(40, 100), Fraction(35, 100)] + [Fraction(125, 10000)] * 20
    assert sum(row) == 1
    at_half = [x**2 / sum(y**2 for y in row) for x in row]  # softmax of log p at T = 0.5
    assert at_half[1] > row[1] and round(float(at_half[1]), 2) == 0.43
    assert at_half[0] / at_half[1] > row[0] / row[1]  # it still loses ground to the favourite
    assert "twenty tokens of 0.0125" in PAGE.text
    assert "takes the second\nfrom 0.35 to 0.43" in PAGE.text


def test_every_ratio_is_raised_to_the_power_one_over_t():
    z = [math.log(x) for x in CONFIDENT]
    for T in (0.5, 2.0):
        q = value_softmax(z, T)
        for i in range(6):
            for j in range(6):
                assert q[i] / q[j] == pytest.approx((CONFIDENT[i] / CONFIDENT[j]) ** (1 / T))
    assert "to the power\n  $1/T$" in PAGE.text


def test_float_sums_and_p_1():
    assert 0.7 + 0.1 < 0.8  # an exact total p depends on rounding
    assert 0.5 + 0.25 == 0.75 and 0.125 + 0.5 + 0.125 == 0.75  # values floats hold exactly
    assert "`0.7 + 0.1 < 0.8`" in PAGE.text
    # a running total of floats reaches 1 before a token of 1e-20: a walk at p = 1 would cut it
    tiny = value_softmax([0.0, -46.0])
    assert 1e-21 < tiny[1] < 1e-19 and tiny[0] == 1.0
    assert top_p(tiny, 1.0) == [1.0, 0.0]  # the walk written here cuts it
    assert "at $p = 1$ the filter is off" in PAGE.text and "$10^{-20}$" in PAGE.text


def test_the_engine_treats_p_1_as_off(namespace):
    tiny = value_softmax([0.0, -46.0])
    assert namespace["filter_probs"](tiny, top_p=1.0) == tiny


def test_the_temperature_two_row():
    roots = [math.sqrt(x) for x in CONFIDENT]  # softmax(ln p / 2) = sqrt(p) / sum
    q = [r / sum(roots) for r in roots]
    for x, text in zip(q, ["0.421803", "0.195257", "0.123491", "0.100830", "0.087321", "0.071298"]):
        assert_states(PAGE, x, text)
    totals = [sum(q[: j + 1]) for j in range(4)]
    for x, text in zip(totals, ["0.421803", "0.617060", "0.740551", "0.841381"]):
        assert_states(PAGE, x, text)
    for x, text in zip(top_p(q, 0.8), ["0.501322", "0.232067", "0.146772", "0.119839"]):
        assert_states(PAGE, x, text)
    for x, text in zip(top_k(q, 3), ["0.569580", "0.263664", "0.166756"]):
        assert_states(PAGE, x, text)


def test_the_cells_agree_with_the_worked_example(namespace):
    filter_probs = namespace["filter_probs"]
    assert filter_probs(CONFIDENT, top_p=0.8) == pytest.approx(
        [float(x) for x in top_p(exact(CONFIDENT), Fraction(8, 10))], abs=1e-12
    )
    assert namespace["sampling_probs"](namespace["logits"], 2.0, top_p=0.8)[3] == pytest.approx(
        0.119839, abs=5e-7
    )


# -- the tail after "em" ----------------------------------------------------------------------


def logits_after(model, tok, prefix):
    keys, values = new_kv_cache(model.config)
    for pos, token in enumerate([tok.bos] + tok.encode(prefix, bos=False)):
        out = gpt(model, token, pos, keys, values)
    return [v.data for v in out]


def test_the_tail_after_em(trained):
    model, tok, _ = trained
    z = logits_after(model, tok, "em")
    p = value_softmax(z)
    tail = [i for i, q in enumerate(p) if q < 0.02]
    assert len(p) == 27 and len(tail) == 13
    assert "13 of the 27 symbols get less than 2% each" in PAGE.text
    assert_states(PAGE, 100 * sum(p[i] for i in tail), "10.0")
    assert tok.symbol(p.index(max(p))) == "a"
    assert_states(PAGE, 100 * max(p), "21.7")
    for T, tail_text, top_text in ((0.5, "1.21", "47.8"), (0.3, "0.05", "73.5")):
        q = value_softmax(z, T)
        assert_states(PAGE, 100 * sum(q[i] for i in tail), tail_text)
        assert_states(PAGE, 100 * max(q), top_text)
    bos = tok.bos
    assert bos in tail and tok.symbol(bos) == "."  # stopping after em is itself unlikely
    assert "the `.` among them is BOS" in PAGE.text
    assert_states(PAGE, 0.9**6, "0.531441")
    assert_states(PAGE, 100 * (1 - 0.9**6), "47")


# -- the names ------------------------------------------------------------------------------

SETTINGS = [
    ("T = 1", 1.0, None, None, (47, 5, 96, "5.58")),
    ("T = 0.5", 0.5, None, None, (6, 22, 96, "4.57")),
    ("top-k 5", 1.0, 5, None, (1, 18, 87, "4.70")),
    ("top-p 0.8", 1.0, None, 0.8, (0, 13, 95, "4.97")),
    ("T = 0.8, top-k 10, top-p 0.9", 0.8, 10, 0.9, (0, 16, 90, "4.54")),
]
ROWS = ["$T = 1$ (day 27)", "$T = 0.5$", "top-k 5", "top-p 0.8", "$T = 0.8$, top-k 10, top-p 0.9"]


def sample_here(model, tok, rng, T, k, p):
    """The page's protocol written again: one rng.random() per draw, the first running total
    above u; a draw from the tail is a symbol under 2% at T = 1."""
    keys, values = new_kv_cache(model.config)
    token, letters, tail = tok.bos, [], 0
    for pos in range(model.config.block_size):
        z = [v.data for v in gpt(model, token, pos, keys, values)]
        top = max(z)
        e = [math.exp((x - top) / T) for x in z]
        q = [x / sum(e) for x in e]
        if k is not None:
            q = top_k(q, k)
        if p is not None:
            q = top_p(q, p)
        u, running, token = rng.random(), 0.0, None
        for i, x in enumerate(q):
            running += x
            if x > 0 and u < running:
                token = i
                break
        if token is None:
            token = max(i for i, x in enumerate(q) if x > 0)
        tail += value_softmax(z)[token] < 0.02
        if token == tok.bos:
            break
        letters.append(token)
    return tok.decode(letters), tail


def sample_tables():
    """{label: (100 names, their tail counts)} of each setting, sampled here from the model."""
    model, tok, _ = train_model()
    tables = {}
    for label, T, k, p, _ in SETTINGS:
        rng = random.Random(40)
        tables[label] = tuple(zip(*(sample_here(model, tok, rng, T, k, p) for _ in range(100))))
    return tables


SAMPLED = ahead(sample_tables)  # made in another process while the page's cells run here


@pytest.mark.parametrize("setting, row", list(zip(SETTINGS, ROWS)), ids=[s[0] for s in SETTINGS])
def test_the_table_of_names(trained, namespace, setting, row):
    model, tok, train_names = trained
    label, T, k, p, (tails, known, distinct, mean) = setting
    names, tail_counts = SAMPLED()[label]  # 100 draws of sample_here(model, ...), rng seed 40
    assert sum(t > 0 for t in tail_counts) == tails
    assert sum(n in set(train_names) for n in names) == known
    assert len(set(names)) == distinct
    assert_states(PAGE, sum(map(len, names)) / 100, mean)
    assert f"| {row} | {tails} | {known} | {distinct} | {mean} |" in PAGE.text
    assert namespace["results"][label][0] == names  # the page's cell samples the same names
    if label == "T = 0.5":  # "about five to six draws each, the end included"
        assert 5 <= sum(len(n) + 1 for n in names) / 100 <= 6

"""Day 17: the three-name example worked with fractions, and the dataset counts the page states.

The counts are recomputed here from the names file, letters numbered by the alphabet, so the
test does not rely on the page's cells or on engine.tokenizer.
"""

import random
import string
from collections import Counter
from fractions import Fraction

import pytest

from .pages import ROOT, assert_states, lesson

PAGE = lesson("day17_bigrams")
NAMES = (ROOT / "engine" / "data" / "names.txt").read_text(encoding="utf-8").split()
BOS = "."


def bigrams(names):
    counts = Counter()
    for name in names:
        seq = BOS + name + BOS
        counts.update(zip(seq, seq[1:]))
    return counts


def model(names):
    """P(next | current) as exact fractions."""
    counts = bigrams(names)
    totals = Counter()
    for (a, _), n in counts.items():
        totals[a] += n
    return lambda a, b: Fraction(counts[(a, b)], totals[a])


def draw(row, u):
    """Inverse-CDF draw over (symbol, probability) pairs in vocabulary order."""
    running = 0
    for symbol, p in row:
        running += p
        if u < running:
            return symbol
    raise AssertionError("probabilities do not sum to 1")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_three_name_example():
    tiny = ["emma", "ava", "anna"]
    counts = bigrams(tiny)
    assert sum(counts.values()) == 14 and "14 pairs in all" in PAGE.text
    assert counts[("a", BOS)] == 3 and "(a, BOS) = 3" in PAGE.text
    P = model(tiny)
    assert_states(PAGE, float(P(BOS, "a")), "0.666667")
    assert_states(PAGE, float(P(BOS, "e")), "0.333333")
    assert P("a", BOS) == Fraction(3, 5) and "3/5 = 0.6" in PAGE.text
    assert P("a", "n") == P("a", "v") == Fraction(1, 5) and "1/5 = 0.2" in PAGE.text
    assert P("m", "m") == P("m", "a") == Fraction(1, 2)
    # sampling with u = 0.5, 0.3, 0.9, 0.8, rows walked in id order (a..z, then BOS)
    order = list(string.ascii_lowercase) + [BOS]
    symbol, sampled = BOS, ""
    for u in (Fraction(1, 2), Fraction(3, 10), Fraction(9, 10), Fraction(8, 10)):
        symbol = draw([(s, P(symbol, s)) for s in order], u)
        sampled += symbol
    assert sampled == "ava" + BOS
    assert "The sample is `ava`." in PAGE.text
    assert P(BOS, "a") * P("a", BOS) == Fraction(2, 5)
    assert "= 0.4$" in PAGE.text


def test_dataset_numbers_stated():
    counts = bigrams(NAMES)
    assert_states(PAGE, counts[("m", "a")], "405")
    m_total = sum(n for (a, _), n in counts.items() if a == "m")
    assert_states(PAGE, m_total, "946")
    assert "$405 / 946 \\approx 0.43$" in PAGE.text
    assert_states(PAGE, counts[("a", BOS)], "1,758")
    assert max(counts, key=counts.get) == ("a", BOS)
    assert 0.3 < counts[("a", BOS)] / len(NAMES) < 0.36  # "about a third"
    starts = {b: n for (a, b), n in counts.items() if a == BOS}
    assert max(starts, key=starts.get) == "m" and starts["m"] == 487
    assert "`m` (487 names)" in PAGE.text
    zeros = 27 * 27 - len(counts)
    assert_states(PAGE, zeros, "279")
    assert "279 of the 729 cells are zero" in PAGE.text
    assert {b for (a, b) in counts if a == "q"} == {"u", "i"}
    assert "only ever followed by `u` or `i`" in PAGE.text


def test_cells_count_like_the_test(namespace):
    counts = bigrams(NAMES)
    tok, N = namespace["tok"], namespace["N"]
    index = {ch: i for i, ch in enumerate(string.ascii_lowercase)} | {BOS: 26}
    assert tok.bos == 26
    for a in index:
        for b in index:
            assert N[index[a]][index[b]] == counts[(a, b)]
    assert namespace["total"] == sum(counts.values())
    assert namespace["zeros"] == 27 * 27 - len(counts)
    assert namespace["P"][namespace["m"]][namespace["a"]] == pytest.approx(405 / 946)


class FixedDraws(random.Random):
    """A generator whose uniform numbers u are given in advance."""

    def __init__(self, draws):
        super().__init__(0)
        self.draws = iter(draws)

    def random(self):
        return next(self.draws)


@pytest.mark.parametrize(
    "draws",
    [
        (0.5, 0.3, 0.9, 0.8),
        (0.5, 0.1, 0.6, 0.2, 0.7),
        (0.9999999999999999, 0.5, 0.2, 0.9999999999999999),  # u just below 1: a row's end
    ],
)
def test_cell_sample_draws_by_the_running_total(namespace, draws):
    """The page's sampler, with its rng.choices, on the three-name table with given u: the
    name the running-total walk of the worked example and of the question gives."""
    tiny = ["emma", "ava", "anna"]
    P, tok = model(tiny), namespace["tok"]
    order = list(string.ascii_lowercase) + [BOS]  # the page's ids: letters, then BOS (26)
    table = [
        [float(P(a, b)) for b in order] if a in "".join(tiny) + BOS else [1 / 27] * 27
        for a in order
    ]
    symbol, expected = BOS, ""
    for u in draws:
        symbol = draw([(s, P(symbol, s)) for s in order], Fraction(u))
        expected += symbol
    assert expected.endswith(BOS)
    assert tok.bos == 26
    assert namespace["sample"](table, FixedDraws(draws)) == expected[:-1]


def test_samples_are_words_of_letters(namespace):
    import random

    rng = random.Random(0)
    names = [namespace["sample"](namespace["P"], rng) for _ in range(50)]
    assert all(set(n) <= set(string.ascii_lowercase) for n in names)
    assert any(n in set(NAMES) for n in names)  # a counting model often finds real names


def test_try_this_letters_that_never_end_a_name():
    counts = bigrams(NAMES)
    # Row i is what follows token i; its BOS column counts the names ending in i.
    for letter in string.ascii_lowercase:
        assert counts[(letter, BOS)] == sum(1 for n in NAMES if n.endswith(letter))
    never = [c for c in string.ascii_lowercase if counts[(c, BOS)] == 0]
    assert never == ["j", "q"]  # the try-this has an answer on the full dataset
    assert counts[(BOS, BOS)] == 0  # no empty name: BOS is left out
    text = " ".join(PAGE.text.split())
    assert "the rows `i` whose entry in the BOS column is 0, `N[i][BOS] == 0`" in text
    assert "the columns where" not in text

"""Day 39: the worked example's counts and merges, the merges of the names, the trade-off
table and the losses per token and per character.

Expected values come from a BPE written here on strings (pieces of text glued together,
no ids, no engine) and from a bigram counted with Counter, not from the page's cells.
"""

import math
from collections import Counter

import pytest

from engine.data import load_names, split_names

from .ahead import ahead
from .pages import assert_states, lesson

PAGE = lesson("day39_bpe")
SMALL = ["lana", "alana", "lanie", "elaine", "alan"]
STEPS = (0, 25, 50, 100, 200)


def pair_counts(words):
    """{(left, right): n} over lists of strings, in order of first meeting."""
    counts = {}
    for word in words:
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def glue(word, pair):
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out


def learn(docs, num_merges):
    """[(merged pair, its count, the counts of that round, the words after)] per round."""
    words, rounds = [list(doc) for doc in docs], []
    for _ in range(num_merges):
        counts = pair_counts(words)
        top = max(counts.values())
        best = next(pair for pair, n in counts.items() if n == top)  # the first met
        words = [glue(word, best) for word in words]
        rounds.append((best, top, counts, words))
    return rounds


def cut(word, merges):
    pieces = list(word)
    for pair in merges:
        pieces = glue(pieces, pair)
    return pieces


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


@pytest.fixture(scope="module")
def split():
    return split_names(load_names(), seed=0)


@pytest.fixture(scope="module")
def merges(split):
    return [best for best, _, _, _ in learn(split[0], 200)]


def test_the_worked_example_round_by_round():
    rounds = learn(SMALL, 3)
    counts0 = rounds[0][2]
    assert sum(map(len, SMALL)) == 24 and sum(counts0.values()) == 19
    assert counts0[("l", "a")] == 5 and counts0[("a", "n")] == 4
    assert counts0[("n", "a")] == counts0[("a", "l")] == 2
    ones = {a + "+" + b for (a, b), n in counts0.items() if n == 1}
    assert ones == {"n+i", "i+e", "e+l", "a+i", "i+n", "n+e"}
    assert rounds[0][0] == ("l", "a") and sum(map(len, rounds[0][3])) == 19
    counts1 = rounds[1][2]
    assert sum(counts1.values()) == 14 and counts1[("la", "n")] == 4
    assert counts1[("n", "a")] == counts1[("a", "la")] == 2
    assert sorted(counts1.values()) == [1] * 6 + [2, 2, 4]
    assert rounds[1][0] == ("la", "n") and sum(map(len, rounds[1][3])) == 15
    assert rounds[1][3][3] == ["e", "la", "i", "n", "e"]
    counts2 = rounds[2][2]
    assert sum(counts2.values()) == 10
    assert counts2[("lan", "a")] == counts2[("a", "lan")] == 2  # the tie
    assert sorted(counts2.values()) == [1] * 6 + [2, 2]
    assert rounds[2][0] == ("lan", "a") and sum(map(len, rounds[2][3])) == 13
    assert rounds[2][3] == [
        ["lana"],
        ["a", "lana"],
        ["lan", "i", "e"],
        ["e", "la", "i", "n", "e"],
        ["a", "lan"],
    ]
    # the other side of the tie cuts alana as alan a
    assert glue(rounds[1][3][1], ("a", "lan")) == ["alan", "a"]
    text = " ".join(PAGE.text.split())
    for stated in (
        "4 + 5 + 5 + 6 + 4 = 24",
        "3 + 4 + 4 + 5 + 3 = 19",
        "5 + 4 + 2 + 2 + 6 = 19",
        "13 tokens for 24 letters",
        "$(3, 0), (5, 4), (6, 0)$",
        "$5 + 3 + 1 = 9$",
    ):
        assert stated in text, stated


def test_encoding_and_decoding_new_words_by_hand():
    merges = [best for best, _, _, _ in learn(SMALL, 3)]
    chars = sorted(set("".join(SMALL)))
    assert "".join(chars) == "aeiln"
    assert cut("ilana", merges) == ["i", "lana"]
    assert cut("allan", merges) == ["a", "l", "lan"]  # the question: 3 tokens
    pieces = chars + [a + b for a, b in merges]
    assert [pieces.index(p) for p in cut("ilana", merges)] == [2, 7]
    assert [pieces.index("".join(pair)) for pair in merges] == [5, 6, 7]
    text = " ".join(PAGE.text.split())
    assert "$[2, 3, 0, 4, 0]$" in text and "$[2, 7]$" in text


def test_the_small_cell_matches():
    first = {}
    exec(compile(PAGE.cells[0], "day39 cell 1", "exec"), first)  # later cells reuse `tok`
    tok = first["tok"]
    assert [(tok.piece(a), tok.piece(b)) for a, b in tok.merges] == [
        best for best, _, _, _ in learn(SMALL, 3)
    ]
    assert tok.encode("allan", bos=False) == [0, 3, 6] and tok.bos == 8


def test_the_merges_of_the_names(namespace, split, merges):
    train_names, test_names = split
    assert (len(train_names), len(test_names)) == (4647, 516)
    assert_states(PAGE, len(train_names), "4,647")
    first = ["".join(pair) for pair in merges[:20]]
    assert " ".join(first[:10]) == "an el ar in en er on le ie la"
    text = " ".join(PAGE.text.split())
    assert (
        "The first ten merges are `an`, `el`, `ar`, `in`, `en`, `er`, `on`, `le`, `ie`, `la`"
        in text
    )
    # letter-pair counts of the training names, and how later merges are not in their order
    letters = Counter(pair for name in train_names for pair in zip(name, name[1:]))
    ranking = [pair for pair, _ in sorted(letters.items(), key=lambda kv: -kv[1])]
    assert ranking[0] == ("a", "n") and letters[("a", "n")] == 706 and merges[0] == ("a", "n")
    assert ranking[4] == ("n", "a") and letters[("n", "a")] == 449
    assert ranking[15] == ("o", "n") and letters[("o", "n")] == 308
    assert "(706 times)" in text and "the 5th commonest letter pair (449 times)" in text
    assert "the 16th commonest letter pair (308 times)" in text
    rounds = learn(train_names, 7)
    assert [best for best, _, _, _ in rounds] == merges[:7]
    assert rounds[1][2][("n", "a")] == 359 and rounds[4][2][("n", "a")] == 229
    assert merges[3] == ("i", "n")  # the fourth merge, `in`
    assert "359 of them are left after\nthe first merge, 229 after the fourth (`in`" in PAGE.text
    assert all(rounds[k][2][("o", "n")] == 308 for k in range(7))  # nothing took from `on`
    assert merges.index(("n", "a")) == 40 and "`na` is only the\n41st merge" in PAGE.text
    # `ana` becomes `an a` after the first merge: its `na` is gone
    assert glue(list("ana"), ("a", "n")) == ["an", "a"]
    assert first[18] == "mar" and merges[18] == ("m", "ar")
    assert ("an", "n") in merges  # ann, from the intuition
    pieces = {"".join(pair) for pair in merges}
    assert {"issa", "elia", "fred", "fre"} <= pieces and "lawanna" not in train_names
    assert cut("lawanna", merges) == ["la", "w", "anna"]
    bpe = namespace["bpe"]
    assert [(bpe.piece(a), bpe.piece(b)) for a, b in bpe.merges] == merges


def table_rows(split, merges):
    train_names, test_names = split
    letters = sum(map(len, test_names))
    rows = {}
    for m in STEPS:
        V = 26 + m + 1
        held_out = sum(len(cut(name, merges[:m])) for name in test_names)
        uses = Counter(p for name in train_names for p in cut(name, merges[:m]))
        vocab = list("abcdefghijklmnopqrstuvwxyz") + ["".join(p) for p in merges[:m]]
        counts = sorted(uses[p] for p in vocab)
        middle = (counts[(len(counts) - 1) // 2] + counts[len(counts) // 2]) / 2
        rows[m] = (
            V,
            held_out / len(test_names),
            held_out / letters,
            2 * 16 * V,
            middle,
            sum(1 for c in counts if c < 20),
            uses,
        )
    return rows


def bigram(split, merges, alpha=1.0):
    """(total NLL, predictions, characters) of the add-alpha bigram over the pieces."""
    train_names, test_names = split
    vocab = list("abcdefghijklmnopqrstuvwxyz") + ["".join(p) for p in merges] + ["<BOS>"]
    V = len(vocab)
    pairs, rows = Counter(), Counter()
    for name in train_names:
        seq = ["<BOS>", *cut(name, merges), "<BOS>"]
        pairs.update(zip(seq, seq[1:]))
        rows.update(seq[:-1])
    terms, predictions, characters = [], 0, 0
    for name in test_names:
        seq = ["<BOS>", *cut(name, merges), "<BOS>"]
        for a, b in zip(seq, seq[1:]):
            terms.append(math.log(rows[a] + alpha * V) - math.log(pairs[(a, b)] + alpha))
        predictions += len(seq) - 1
        characters += len(name) + 1
    return math.fsum(terms), predictions, characters


def tables():
    """table_rows of the 200 merges of the training names, and bigram(split, merges[:m])
    for each m of STEPS."""
    split = split_names(load_names(), seed=0)
    merges = [best for best, _, _, _ in learn(split[0], 200)]
    return table_rows(split, merges), {m: bigram(split, merges[:m]) for m in STEPS}


TABLES = ahead(tables)  # made in another process while the page's cells run here


def test_the_trade_off_table(split, merges):
    rows = TABLES()[0]  # table_rows(split, merges)
    stated = {
        0: ("6.11", "1.000", "864", "751", 0),
        25: ("4.53", "0.742", "1,664", "300", 0),
        50: ("4.08", "0.667", "2,464", "173", 0),
        100: ("3.66", "0.598", "4,064", "77", 1),
        200: ("3.21", "0.525", "7,264", "33", 40),
    }
    for m, (per_name, per_letter, params, middle, rare) in stated.items():
        V, got_name, got_letter, got_params, got_middle, got_rare, _ = rows[m]
        row = f"| {m} | {V} | {per_name} | {per_letter} | {params} | {middle} | {rare} |"
        assert row in PAGE.text, row
        assert_states(PAGE, got_name, per_name)
        assert_states(PAGE, got_letter, per_letter)
        assert_states(PAGE, got_params, params)
        assert_states(PAGE, got_middle, middle)
        assert got_rare == rare
    assert rows[200][3] > 4192  # more than the whole microGPT
    assert "Forty tokens are seen fewer than 20 times" in " ".join(PAGE.text.split())
    # only the parameter count is a straight line (32 per merge); the median uses are not
    assert all(rows[m][3] - rows[0][3] == 32 * m for m in STEPS)
    assert "in a straight line, 32 per merge" in PAGE.text
    medians = [rows[m][4] for m in STEPS]
    assert medians == [751, 300, 173, 77, 33]
    slopes = [
        (b - a) / (n - m)
        for (a, m), (b, n) in zip(zip(medians, STEPS), zip(medians[1:], STEPS[1:]))
    ]
    assert len({round(x, 3) for x in slopes}) == 4  # not a straight line
    assert "the median goes from 751 to 300, 173, 77 and 33" in " ".join(PAGE.text.split())
    uses = rows[200][6]
    assert ("fre", "d") in merges and uses["fre"] < 20  # fre: a stepping stone to fred
    # a quarter, then about another fifth of the original count
    assert 0.24 < 1 - rows[25][1] / rows[0][1] < 0.27
    assert 0.19 < (rows[25][1] - rows[200][1]) / rows[0][1] < 0.23


def test_losses_per_token_and_per_character(split, merges, namespace):
    stated = {
        0: ("8,615.1", "3,670", "2.3474", "2.3474"),
        25: ("8,151.6", "2,855", "2.8552", "2.2212"),
        50: ("8,089.6", "2,621", "3.0864", "2.2042"),
        100: ("8,233.9", "2,402", "3.4279", "2.2436"),
        200: ("8,655.8", "2,172", "3.9852", "2.3585"),
    }
    per_char = {}
    for m, (total, predictions, per_token, per_character) in stated.items():
        nll, n, chars = TABLES()[1][m]  # bigram(split, merges[:m])
        assert chars == 3670
        row = f"| {m} | {26 + m + 1} | {total} | {predictions} | {per_token} | {per_character} |"
        assert row in PAGE.text, row
        assert_states(PAGE, nll, total)
        assert_states(PAGE, n, predictions)
        assert_states(PAGE, nll / n, per_token)
        assert_states(PAGE, nll / chars, per_character)
        per_char[m] = nll / chars
    assert min(per_char, key=per_char.get) == 50 and per_char[200] > per_char[0]
    assert_states(PAGE, per_char[0] - per_char[50], "0.1432")
    assert_states(PAGE, 227**2, "51,529")
    assert_states(PAGE, 3670, "3,670")
    # the page's own cell agrees
    nll, n, chars = namespace["bigram_loss"](
        namespace["BPETokenizer"](namespace["bpe"].chars, namespace["bpe"].merges[:50])
    )
    assert (round(nll, 1), n, chars) == (8089.6, 2621, 3670)
    # the question on converting: 3.2 per token over 2,500 predictions
    assert round(3.2 * 2500 / 3670, 2) == 2.18 < min(per_char.values())
    assert sum(1 for m in STEPS if float(stated[m][2]) < 3.2) == 3  # worse than 0, 25 and 50


def test_the_day18_number_and_gpt2_facts():
    assert "2.3474" in lesson("day18_likelihood").text
    assert "split_names(load_names(), seed=0)" in lesson("day26_training_gpt").text
    text = " ".join(PAGE.text.split())
    assert "50,257 tokens: the 256 bytes, 50,000 merges and one end-of-text token" in text
    assert 256 + 50_000 + 1 == 50_257
    assert len("é".encode()) == 2 and all(len(c.encode("utf-8")) == 1 for c in "az")
    assert "`é` is two" in text and "whole numbers from 0 to 255" in text
    assert "[day 40](day40_top_k_top_p.md)" in PAGE.text

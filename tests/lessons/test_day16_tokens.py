"""Day 16: the worked example's token ids and the dataset numbers the page states.

The test reads the names file itself and numbers letters by their place in the alphabet,
so it does not lean on the page's cells or on engine.data to know the right answers.
"""

import string

import pytest

from .pages import ROOT, assert_states, lesson

PAGE = lesson("day16_tokens")
NAMES = [
    line.strip()
    for line in (ROOT / "engine" / "data" / "names.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
BOS = 26


def ids(name):
    return [BOS] + [string.ascii_lowercase.index(ch) for ch in name] + [BOS]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_vocabulary_is_the_alphabet_and_bos():
    assert sorted(set("".join(NAMES))) == list(string.ascii_lowercase)
    assert_states(PAGE, len(string.ascii_lowercase) + 1, "27")
    assert "$|V| = 27$" in PAGE.text


def test_worked_example_emma():
    tokens = ids("emma")
    assert tokens == [26, 4, 12, 12, 0, 26]
    assert '`encode("emma")` is `[26, 4, 12, 12, 0, 26]`' in PAGE.text
    assert f"{len(tokens)} tokens for {len('emma')} letters" in PAGE.text
    pairs = list(zip(tokens, tokens[1:]))
    assert len(pairs) == 5
    assert "The 5 pairs are" in PAGE.text
    # the table's row of ids, in order
    assert "| token id | 26 | 4 | 12 | 12 | 0 | 26 |" in PAGE.text


def test_dataset_numbers_stated():
    assert_states(PAGE, len(NAMES), f"{len(NAMES):,}")
    lengths = [len(n) for n in NAMES]
    assert f"{min(lengths)} to {max(lengths)} letters long" in PAGE.text


def test_cells_tokenise_like_the_alphabet(namespace):
    assert namespace["names"] == NAMES
    assert namespace["vocab_size"] == 27 and namespace["BOS"] == BOS
    assert all(namespace["encode"](n) == ids(n) for n in NAMES)
    assert namespace["decode"]([BOS, 7, 8, BOS, BOS]) == "hi"


def test_pair_counts(namespace):
    total = sum(len(n) + 1 for n in NAMES)
    assert len(namespace["all_pairs"]) == total
    assert namespace["starts"] == namespace["stops"] == len(NAMES)
    assert_states(PAGE, total, f"{total:,}")


def test_finished_tokenizer_agrees(namespace):
    tok = namespace["tok"]
    assert tok.vocab_size == 27 and tok.bos == BOS
    assert all(tok.encode(n) == ids(n) for n in NAMES[:500])
    assert tok.decode(ids("emma"), skip_bos=True) == "emma"
    assert tok.decode(ids("emma")) == ".emma."


def test_try_this_claims(namespace):
    with pytest.raises(KeyError):
        namespace["encode"]("Emma")
    with pytest.raises(ValueError, match="ë"):
        namespace["tok"].encode("zoë")


def test_common_first_letters_stated():
    firsts = {}
    for n in NAMES:
        firsts[n[0]] = firsts.get(n[0], 0) + 1
    top3 = sorted(firsts, key=firsts.get, reverse=True)[:3]
    assert top3 == ["m", "l", "c"]
    assert "*start* with `m`, `l` or `c`" in PAGE.text

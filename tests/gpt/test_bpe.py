"""engine.bpe: byte-pair encoding, checked against a slow version written on strings."""

import doctest
import random

import pytest

import engine.bpe
from engine.bpe import BPETokenizer, apply_merges, count_pairs, merge_pair, train_merges
from engine.data import load_names, split_names


def slow_train_strings(docs, num_merges):
    """The merges as pairs of strings (a list subclass carries the 'just glued' flag)."""
    words = [list(doc) for doc in docs]
    merges = []
    for _ in range(num_merges):
        counts = {}
        for word in words:
            for pair in zip(word, word[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        top = max(counts.values())
        best = next(pair for pair, n in counts.items() if n == top)
        merges.append(best)
        new_words = []
        for word in words:
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new_words.append(out)
        words = new_words
    return merges


def test_docstring_examples():
    result = doctest.testmod(engine.bpe)
    assert result.attempted > 0 and result.failed == 0


def test_count_pairs_stays_inside_each_sequence_in_order_of_first_meeting():
    counts = count_pairs([[0, 1, 2], [2, 0, 1]])
    assert counts == {(0, 1): 2, (1, 2): 1, (2, 0): 1}
    assert list(counts) == [(0, 1), (1, 2), (2, 0)]  # (2, 2) across the two is not a pair
    assert count_pairs([[3], []]) == {}


def test_merge_pair_is_left_to_right_without_overlap():
    assert merge_pair([5, 5, 5], (5, 5), 9) == [9, 5]
    assert merge_pair([5, 5, 5, 5], (5, 5), 9) == [9, 9]
    assert merge_pair([1, 2, 3, 1, 2], (1, 2), 7) == [7, 3, 7]
    assert merge_pair([1], (1, 2), 7) == [1]


def test_the_lessons_small_corpus():
    tok = BPETokenizer.train(["lana", "alana", "lanie", "elaine", "alan"], 3)
    assert tok.chars == "aeiln" and tok.bos == 8 and tok.vocab_size == 9
    assert [tok.piece(5 + k) for k in range(3)] == ["la", "lan", "lana"]  # lana beat alan
    assert tok.encode("ilana", bos=False) == [2, 7]
    assert tok.decode(tok.encode("ilana"), skip_bos=True) == "ilana"


def test_training_matches_the_slow_version_on_the_names():
    names = load_names()[::7]
    tok = BPETokenizer.train(names, 60)
    pieces = [(tok.piece(a), tok.piece(b)) for a, b in tok.merges]
    assert pieces == slow_train_strings(names, 60)


def test_merge_lists_are_prefixes_and_encoding_round_trips():
    train_names, test_names = split_names(load_names(), seed=0)
    long = BPETokenizer.train(train_names[:800], 80)
    short = BPETokenizer.train(train_names[:800], 30)
    assert short.merges == long.merges[:30]
    for name in test_names:
        assert long.decode(long.encode(name), skip_bos=True) == name
        assert len(long.encode(name, bos=False)) <= len(short.encode(name, bos=False))


def test_fast_encoding_is_the_merges_applied_in_order():
    rng = random.Random(0)
    for _ in range(200):
        sequences = [[rng.randrange(3) for _ in range(rng.randint(1, 9))] for _ in range(6)]
        merges = train_merges(sequences, rng.randint(1, 8), 3)
        word = [rng.randrange(3) for _ in range(rng.randint(1, 12))]
        in_order = list(word)
        for k, pair in enumerate(merges):
            in_order = merge_pair(in_order, pair, 3 + k)
        assert apply_merges(word, merges, 3) == in_order


def test_training_stops_when_nothing_is_left_to_merge():
    assert train_merges([[0, 1], [0, 1]], 5, 2) == [(0, 1)]
    assert BPETokenizer.train(["ab", "ab"], 5).vocab_size == 2 + 1 + 1


def test_the_training_sequences_are_not_changed():
    sequences = [[0, 1, 0, 1], [1, 0]]
    train_merges(sequences, 2, 2)
    assert sequences == [[0, 1, 0, 1], [1, 0]]


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: count_pairs("abc"), TypeError, "list of sequences"),
        (lambda: count_pairs([[0, "a"]]), TypeError, "token ids are ints"),
        (lambda: merge_pair([0, 1], (0,), 2), TypeError, "two token ids"),
        (lambda: train_merges([[0, 1]], -1, 2), ValueError, "num_merges"),
        (lambda: train_merges([[0, 5]], 1, 2), ValueError, "first_id"),
        (lambda: BPETokenizer("ab", [(0, 2)]), ValueError, "tokens made before it"),
        (lambda: BPETokenizer("aa"), ValueError, "distinct"),
        (lambda: BPETokenizer("ab").encode("abc"), ValueError, "not in the vocabulary"),
        (lambda: BPETokenizer("ab").decode([3]), ValueError, "outside 0..2"),
    ],
)
def test_bad_input_says_what_to_do(call, error, words):
    with pytest.raises(error, match=words):
        call()

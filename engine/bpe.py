"""Byte-pair encoding: a tokenizer whose tokens are learnt from the data.

Start from one token per character. Count every pair of neighbouring tokens in the
corpus, give the most frequent pair a new token id, replace the pair by it everywhere,
and repeat. The list of pairs merged, in the order they were learnt, is the tokenizer:

- token ids 0 .. len(chars) - 1 are the characters, in the order of `chars`;
- the k-th merge (counting from 0) makes token id len(chars) + k;
- BOS, the mark before and after every name, comes last: id len(chars) + len(merges).

Pairs are counted inside each document (a name), never across two of them, and BOS is
never merged. When several pairs are equally frequent, the pair that occurs first wins:
the first one met when the documents are read in order, each from left to right.
Encoding a new word writes it as characters and applies the merges in the order they
were learnt; decoding writes each token as the characters it stands for.

>>> tok = BPETokenizer.train(["anna", "hanna", "annie"], num_merges=2)
>>> [tok.piece(a) + tok.piece(b) for a, b in tok.merges]
['an', 'ann']
>>> tok.encode("joanna", bos=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
ValueError: 'j' in 'joanna' is not in the vocabulary 'aehin'; ...
>>> ids = tok.encode("hannie")
>>> ids, tok.decode(ids)
([7, 2, 6, 3, 1, 7], '.hannie.')

API (stable; lessons import it):
    count_pairs(sequences) -> dict           {(a, b): count}, in order of first occurrence
    merge_pair(ids, pair, new_id) -> list    every (a, b) in ids, left to right, -> new_id
    train_merges(sequences, num_merges, first_id) -> list of pairs   the merges, in order
    apply_merges(ids, merges, first_id) -> list                      encode with them
    BPETokenizer(chars, merges)              like engine.tokenizer.Tokenizer:
        .chars .merges .bos .vocab_size
        .encode(text, bos=True) -> list[int]  .decode(ids, skip_bos=False) -> str
        .piece(id) -> str (BOS as ".")        .symbol(id) (the same as .piece)
    BPETokenizer.train(docs, num_merges, chars=None) -> BPETokenizer
"""

from collections import Counter

from .errors import said
from .tokenizer import BOS_SYMBOL

__all__ = ["count_pairs", "merge_pair", "train_merges", "apply_merges", "BPETokenizer"]


def _check_ids(ids, what="ids"):
    if isinstance(ids, (str, bytes)) or not hasattr(ids, "__iter__"):
        raise said(
            TypeError,
            "bpe.notIds",
            f"{what} must be a list of token ids (ints), got {type(ids).__name__}",
            what=what,
            type=type(ids).__name__,
        )
    ids = list(ids)
    for i, token in enumerate(ids):
        if type(token) is not int:
            raise said(
                TypeError,
                "bpe.notInt",
                f"{what}[{i}] is {token!r}: token ids are ints; encode text first "
                "(e.g. [chars.index(c) for c in word])",
                what=what,
                i=i,
                token=repr(token),
            )
    return ids


def _check_pair(pair):
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
        raise said(
            TypeError, "bpe.pair", f"a pair is two token ids (a, b), got {pair!r}", pair=repr(pair)
        )
    return tuple(_check_ids(pair, "pair"))


def count_pairs(sequences):
    """How often each pair of neighbouring ids occurs, inside each sequence.

    The dict lists the pairs in the order they are first met (sequences in order,
    each left to right), so max(counts, key=counts.get) breaks ties by that order.

    >>> count_pairs([[0, 1, 0, 1], [1, 0]])
    {(0, 1): 2, (1, 0): 2}
    """
    if isinstance(sequences, (str, bytes)):
        raise said(
            TypeError,
            "bpe.countPairs",
            "count_pairs takes a list of sequences of ids, e.g. [[0, 1], [1, 2]]",
        )
    return _count([_check_ids(ids, f"sequences[{n}]") for n, ids in enumerate(sequences)])


def _count(sequences):
    """count_pairs without the checks (train_merges checks its sequences once).

    Counter.update is a loop written in C, and a Counter keeps the order in which keys
    were first added, as a dict does.
    """
    counts = Counter()
    for ids in sequences:
        counts.update(zip(ids, ids[1:]))
    return dict(counts)


def merge_pair(ids, pair, new_id):
    """`ids` with every occurrence of `pair`, read left to right, replaced by `new_id`.

    Occurrences do not overlap: in [5, 5, 5] the pair (5, 5) is merged once, at the left.

    >>> merge_pair([5, 5, 5, 1], (5, 5), 9)
    [9, 5, 1]
    """
    return _merge(_check_ids(ids), _check_pair(pair), new_id)


def _merge(ids, pair, new_id):
    """merge_pair without the checks."""
    a, b = pair
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_merges(sequences, num_merges, first_id):
    """Learn up to `num_merges` merges from `sequences` (lists of ids below first_id).

    Each round merges the most frequent pair (ties: the pair met first) into the next
    new id, first_id, first_id + 1, ... It stops early when no pair is left.
    """
    if type(num_merges) is not int or num_merges < 0:
        raise said(
            ValueError,
            "bpe.numMerges",
            f"num_merges must be a whole number >= 0, got {num_merges!r}",
            num_merges=repr(num_merges),
        )
    sequences = [_check_ids(ids, f"sequences[{n}]") for n, ids in enumerate(sequences)]
    for n, ids in enumerate(sequences):
        if any(not 0 <= token < first_id for token in ids):
            raise said(
                ValueError,
                "bpe.idOutside",
                f"sequences[{n}] has an id outside 0..{first_id - 1}: train from the character "
                "ids, and give first_id = the number of characters",
                n=n,
                last=first_id - 1,
            )
    merges = []
    for k in range(num_merges):
        counts = _count(sequences)
        if not counts:
            break  # every sequence is a single token: nothing left to merge
        pair = max(counts, key=counts.get)  # the first of the most frequent
        new_id = first_id + k
        # merge only where the pair can be: the sequences that hold its first id
        sequences = [_merge(s, pair, new_id) if pair[0] in s else s for s in sequences]
        merges.append(pair)
    return merges


def apply_merges(ids, merges, first_id):
    """Encode: apply every merge to `ids`, in the order they were learnt."""
    return _apply(_check_ids(ids), _ranks(merges), first_id)


def _ranks(merges):
    """{pair: k} for the k-th merge."""
    return {pair: k for k, pair in enumerate(_check_pair(p) for p in merges)}


def _apply(ids, ranks, first_id):
    """Apply the merges in the order they were learnt, skipping the absent ones.

    Going down the whole list would try every merge on every word. Instead take, among
    the pairs the word holds, the one learnt first, merge it, and look again. That is
    the same order: merging makes only pairs that hold the new token, whose own merges
    (if any) come later in the list, so a pair of an earlier merge never reappears.
    """
    while len(ids) > 1:
        pair = min(zip(ids, ids[1:]), key=lambda p: ranks.get(p, len(ranks)))
        if pair not in ranks:
            break  # no pair of the word was ever merged
        ids = _merge(ids, pair, first_id + ranks[pair])
    return ids


class BPETokenizer:
    """Characters plus learnt merges, with BOS last; the same interface as Tokenizer."""

    def __init__(self, chars, merges=()):
        chars = "".join(chars)
        if not chars:
            raise said(
                ValueError,
                "bpe.empty",
                "a tokenizer needs at least one character, e.g. BPETokenizer('ab')",
            )
        if len(set(chars)) != len(chars):
            raise said(
                ValueError,
                "bpe.repeated",
                f"characters must be distinct, got {chars!r}",
                chars=repr(chars),
            )
        if BOS_SYMBOL in chars:
            raise said(
                ValueError,
                "bpe.bosReserved",
                f"{BOS_SYMBOL!r} is reserved for printing BOS; remove it from chars",
                symbol=repr(BOS_SYMBOL),
            )
        self.chars = chars
        self.merges = [_check_pair(pair) for pair in merges]
        self._pieces = list(chars)
        for k, (a, b) in enumerate(self.merges):
            new_id = len(chars) + k
            if not (0 <= a < new_id and 0 <= b < new_id):
                raise said(
                    ValueError,
                    "bpe.mergeOrder",
                    f"merge {k} is {(a, b)}, but only ids 0..{new_id - 1} exist before it: "
                    "a merge may only join tokens made before it",
                    k=k,
                    pair=(a, b),
                    last=new_id - 1,
                )
            self._pieces.append(self._pieces[a] + self._pieces[b])
        self.bos = len(chars) + len(self.merges)
        self.vocab_size = self.bos + 1
        self._id = {c: i for i, c in enumerate(chars)}
        self._ranks = _ranks(self.merges)

    @classmethod
    def train(cls, docs, num_merges, chars=None):
        """Learn `num_merges` merges from `docs` (strings); chars: every one that occurs."""
        docs = list(docs)
        if chars is None:
            chars = "".join(sorted(set("".join(docs))))
        base = cls(chars)
        sequences = [base.encode(doc, bos=False) for doc in docs]
        return cls(chars, train_merges(sequences, num_merges, len(base.chars)))

    def encode(self, text, bos=True):
        """The ids of `text` after every merge, wrapped in BOS unless `bos=False`."""
        try:
            ids = [self._id[c] for c in text]
        except KeyError as err:
            raise said(
                ValueError,
                "bpe.notInVocabulary",
                f"{err.args[0]!r} in {text!r} is not in the vocabulary {self.chars!r}; "
                "train on text that has every character, or keep only these characters",
                char=repr(err.args[0]),
                text=repr(text),
                chars=repr(self.chars),
            ) from None
        ids = _apply(ids, self._ranks, len(self.chars))
        return [self.bos, *ids, self.bos] if bos else ids

    def piece(self, token_id):
        """The characters one token stands for ("." for BOS)."""
        if type(token_id) is not int or not 0 <= token_id < self.vocab_size:
            raise said(
                ValueError,
                "bpe.tokenId",
                f"token id {token_id!r} is outside 0..{self.vocab_size - 1}",
                token=repr(token_id),
                last=self.vocab_size - 1,
            )
        return BOS_SYMBOL if token_id == self.bos else self._pieces[token_id]

    symbol = piece  # Tokenizer's name for it: the explorer and sampling code call symbol()

    def decode(self, ids, skip_bos=False):
        """The text of `ids`: the pieces joined; BOS as "." unless `skip_bos=True`."""
        return "".join(self.piece(i) for i in ids if not (skip_bos and i == self.bos))

    def __repr__(self):
        return (
            f"BPETokenizer({self.chars!r}, {len(self.merges)} merges) with BOS={self.bos}, "
            f"vocab_size={self.vocab_size}"
        )

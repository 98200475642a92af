"""Checks of exercises/day16_tokens.py: vocabulary, encode, decode and pairs.

Expected answers come from the definitions: the sorted set of characters, the index of
each character with BOS = len(chars) on both sides, the non-BOS characters, and the
pairs of neighbours. Likely bugs (no sorting, BOS at 0, a missing final BOS, BOS left
in the decoded text, a pair too many or too few) are recognised by the lists they give.
"""

from grader.messages import msg
from grader.verdict import Expectation, WantList

from .cases import case

TITLE = msg("Day 16: tokens")
ENGINE = {}
ENGINE_BY_KIND = {}

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def public_cases():
    return [
        case("vocabulary", "the vocabulary of emma, ava, anna", names=["emma", "ava", "anna"]),
        case("vocabulary", "letters sorted however the names come", names=["zoe", "bob", "yann"]),
        case("encode", "the lesson's example: emma", word="emma", chars=ALPHABET),
        case("encode", "a small vocabulary puts BOS at 5", word="ava", chars="aemnv"),
        case("encode", "a one-letter name", word="a", chars=ALPHABET),
        case("decode", "decoding emma drops both BOS", ids=[26, 4, 12, 12, 0, 26], chars=ALPHABET),
        case("decode", "BOS in the middle is dropped too", ids=[5, 0, 5, 4, 5], chars="aemnv"),
        case("pairs", "the five pairs of emma", ids=[26, 4, 12, 12, 0, 26]),
        case("pairs", "the shortest sequence: one pair", ids=[26, 26]),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: a vocabulary of 6 to 14 random letters, names of 2 to 10 of its "
    "letters, ids of 5 to 12 tokens with BOS at the ends and at random places between"
)


def hidden_cases(rng):
    chars = "".join(sorted(rng.sample(ALPHABET, rng.randint(6, 14))))
    bos = len(chars)

    def name(shortest=2):
        return "".join(rng.choice(chars) for _ in range(rng.randint(shortest, 10)))

    def ids():
        inner = [rng.randrange(bos + 1) for _ in range(rng.randint(5, 12))]
        return [bos] + inner + [bos]

    return [
        case("vocabulary", "random names", public=False, names=[name() for _ in range(4)]),
        case("encode", "a random name", public=False, word=name(5), chars=chars),
        case("decode", "random ids, BOS between too", public=False, ids=ids(), chars=chars),
        case("pairs", "the pairs of random ids", public=False, ids=ids()),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _codes(text):
    return [ord(c) for c in text]


def expect(case):
    x = case["inputs"]
    kind = case["kind"]
    if kind == "vocabulary":
        joined = "".join(x["names"])
        expected = sorted(set(joined))
        in_order = list(dict.fromkeys(joined))  # distinct, in order of first appearance
        bugs = [
            (_codes(in_order), msg("the characters are not sorted: use sorted(set(...))")),
            (_codes(joined), msg("every character appears once in a vocabulary: take the set")),
        ]
        return Expectation(
            [
                WantList(
                    "chars",
                    _codes(expected),
                    f"names = {x['names']}",
                    bugs,
                    msg("sorted(set(...)) of all the characters, joined into one string"),
                    text=True,
                )
            ]
        )
    if kind == "encode":
        name, chars = x["word"], x["chars"]
        bos = len(chars)
        letters = [chars.index(c) for c in name]
        bugs = [
            (
                [bos] + letters,
                msg("the final BOS is missing: without it the model never learns to stop"),
            ),
            (letters + [bos], msg("the first BOS is missing: put BOS before the first letter too")),
            (letters, msg("BOS is missing on both sides: [bos] + ids + [bos]")),
            (
                [0] + [i + 1 for i in letters] + [0],
                msg(
                    "BOS is 0 here: BOS is len(chars), one past "
                    "the last character, and the characters keep their own indices"
                ),
            ),
        ]
        return Expectation(
            [
                WantList(
                    "ids",
                    [bos] + letters + [bos],
                    f"name = {name!r}, chars = {chars!r}",
                    bugs,
                    msg("ids are indices into chars; BOS = len(chars)"),
                )
            ]
        )
    if kind == "decode":
        ids, chars = x["ids"], x["chars"]
        bos = len(chars)
        expected = "".join(chars[i] for i in ids if i != bos)
        shown = "".join("." if i == bos else chars[i] for i in ids)
        bugs = [(_codes(shown), msg("BOS was written as '.': decode drops every BOS"))]
        return Expectation(
            [
                WantList(
                    "text",
                    _codes(expected),
                    f"ids = {ids}, chars = {chars!r}",
                    bugs,
                    msg("keep the characters of the ids that are not BOS"),
                    text=True,
                )
            ]
        )
    ids = x["ids"]
    setup = f"ids = {ids}"
    hint = msg("the pairs are zip(ids, ids[1:])")
    return Expectation(
        [
            WantList(
                "current",
                ids[:-1],
                setup,
                [
                    (ids, msg("one pair too many: the last id has no next id")),
                    (ids[:-2], msg("one pair too few: the last pair (last letter, BOS) counts")),
                ],
                hint,
                label=msg("current"),
            ),
            WantList(
                "next",
                ids[1:],
                setup,
                [(ids[:-1], msg("each pair is (ids[t], ids[t + 1]): the second is the NEXT id"))],
                hint,
                label=msg("next"),
            ),
        ]
    )

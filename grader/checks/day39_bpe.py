"""Checks of exercises/day39_bpe.py: pair counts, one merge, the merge list, encode, decode.

Expected answers come from the definitions, computed here on the case's own lists:
neighbours counted inside each sequence in order of first meeting; a left-to-right scan
that skips both ids of a match; rounds of "most frequent pair, the first met of equal
ones"; the merges applied in the order learnt; the text of a merge as the text of its
two halves. Likely bugs (pairs across sequences, sorted counts, overlapping matches, a
lost last id, the last of equal pairs, new ids off by one, merges applied backwards,
halves swapped) are recognised by the lists they give.
"""

from grader.messages import msg
from grader.verdict import Expectation, WantList

from .cases import case

TITLE = msg("Day 39: byte-pair encoding")
# Nothing here needs the engine; it is staged so that importing engine.bpe, which holds
# every answer, says "write it yourself".
ENGINE = {
    "value": (),
    "bpe": (
        "count_pairs",
        "merge_pair",
        "train_merges",
        "apply_merges",
        "BPETokenizer",
        "_count",
        "_merge",
        "_apply",
        "_ranks",
    ),
}
ENGINE_BY_KIND = {}

LETTERS = "abcdefghijklmnopqrstuvwxyz"
# The lesson's corpus: lana, alana, lanie, elaine, alan over the characters "aeiln".
CHARS = "aeiln"
NAMES = ["lana", "alana", "lanie", "elaine", "alan"]
CORPUS = [[CHARS.index(c) for c in name] for name in NAMES]
MERGES = [[3, 0], [5, 4], [6, 0]]  # la, lan, lana


def public_cases():
    return [
        case("counts", "the lesson's five names", sequences=CORPUS),
        case("counts", "no pair across two sequences", sequences=[[0, 1, 2], [2, 0, 1]]),
        case("counts", "a run of one id, and a lone id", sequences=[[4], [1, 1, 1]]),
        case("merge", "la in alana", ids=[0, 3, 0, 4, 0], pair=[3, 0], new_id=5),
        case("merge", "no overlap: (5, 5) in five 5s", ids=[5, 5, 5, 5, 5], pair=[5, 5], new_id=9),
        case("merge", "a pair at the very end", ids=[1, 2, 3, 1, 2], pair=[1, 2], new_id=7),
        case("merge", "no occurrence: nothing changes", ids=[2, 1, 2], pair=[1, 1], new_id=8),
        case("train", "the lesson's three merges", sequences=CORPUS, first_id=5, num_merges=3),
        case(
            "train",
            "a tie goes to the pair met first",
            sequences=[[1, 0], [0, 1]],
            first_id=2,
            num_merges=1,
        ),
        case(
            "train",
            "stop when nothing is left",
            sequences=[[0, 1], [0, 1]],
            first_id=2,
            num_merges=5,
        ),
        case("encode", "the lesson's new name", word="ilana", chars=CHARS, merges=MERGES),
        case("encode", "a word no merge applies to", word="nine", chars=CHARS, merges=MERGES),
        case("encode", "alana keeps its first a", word="alana", chars=CHARS, merges=MERGES),
        case("decode", "ilana back", ids=[2, 7], chars=CHARS, merges=MERGES),
        case(
            "decode",
            "a token made of two merges",
            ids=[3, 0, 2],
            chars="ab",
            merges=[[0, 1], [2, 2]],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: 4 to 7 sequences of 2 to 9 ids over 3 to 5 labels drawn from 0..29; "
    "14 to 24 ids over 3 or 4 labels with a random pair (or a run of one id) and a new id in "
    "30..99; corpora of 4 to 7 words of 2 to 9 of 3 to 5 random letters, 3 to 6 merges (or "
    "more than the corpus allows) and a word of 6 to 12 of its letters; 3 to 6 random merges "
    "and 5 to 10 random ids"
)


def hidden_cases(rng):
    return [
        case("counts", "random sequences", public=False, sequences=_counts_corpus(rng)),
        case("merge", "a random pair in random ids", public=False, **_merge_inputs(rng, False)),
        case("merge", "a pair of one id in a run", public=False, **_merge_inputs(rng, True)),
        case(
            "train",
            "a random corpus with equal counts",
            public=False,
            **_train_inputs(rng, exhaust=False),
        ),
        case(
            "train",
            "more merges than the corpus allows",
            public=False,
            **_train_inputs(rng, exhaust=True),
        ),
        case("encode", "a random word", public=False, **_encode_inputs(rng)),
        case("decode", "random ids of random merges", public=False, **_decode_inputs(rng)),
    ]


# -- drawing hidden inputs in which every likely bug shows ----------------------------


def _labels(rng, lo=3, hi=5):
    return rng.sample(range(30), rng.randint(lo, hi))


def _counts_corpus(rng):
    while True:
        labels = _labels(rng)
        seqs = [
            [rng.choice(labels) for _ in range(rng.randint(2, 9))] for _ in range(rng.randint(4, 7))
        ]
        pairs = [p for p, _ in _counts(seqs)]
        if pairs != sorted(pairs):
            return seqs


def _merge_inputs(rng, same):
    while True:
        labels = _labels(rng, 3, 4)
        ids = [rng.choice(labels) for _ in range(rng.randint(14, 24))]
        a = rng.choice(labels)
        pair = [a, a] if same else [a, rng.choice([x for x in labels if x != a])]
        if same:  # a run of three or more of the same id, at a random place
            at = rng.randrange(len(ids) - 3)
            ids[at : at + rng.randint(3, 4)] = [a] * 3
        inputs = {"ids": ids, "pair": pair, "new_id": rng.randint(30, 99)}
        if ids[-1] != pair[1] and sum(1 for x in _merge(ids, pair, -1) if x == -1) >= 2:
            return inputs


def _words(rng, letters, lo, hi, n):
    return ["".join(rng.choice(letters) for _ in range(rng.randint(lo, hi))) for _ in range(n)]


def _train_inputs(rng, exhaust):
    while True:
        labels = _labels(rng)
        n = rng.randint(4, 7)
        seqs = [
            [rng.choice(labels) for _ in range(rng.randint(2, 5 if exhaust else 9))]
            for _ in range(n)
        ]
        first_id = max(labels) + 1
        most = sum(len(s) - 1 for s in seqs)  # each merge shortens the corpus by at least 1
        num = most + rng.randint(1, 3) if exhaust else rng.randint(3, 6)
        inputs = {"sequences": seqs, "first_id": first_id, "num_merges": num}
        right = _train(seqs, first_id, num)
        if (
            len(right) >= 3
            and _train(seqs, first_id, num, last=True) != right
            and _train(seqs, first_id, num, offset=1) != right
        ):
            return inputs


def _encode_inputs(rng):
    while True:
        chars = "".join(rng.sample(LETTERS, rng.randint(3, 5)))
        corpus = _words(rng, chars, 2, 9, rng.randint(4, 7))
        seqs = [[chars.index(c) for c in w] for w in corpus]
        merges = _train(seqs, len(chars), rng.randint(3, 6))
        word = _words(rng, chars, 6, 12, 1)[0]
        inputs = {"word": word, "chars": chars, "merges": merges}
        right = _encode(word, chars, merges)
        if (
            _encode(word, chars, merges, backwards=True) != right
            and _encode(word, chars, merges, offset=1) != right
        ):
            return inputs


def _decode_inputs(rng):
    while True:
        chars = "".join(rng.sample(LETTERS, rng.randint(3, 5)))
        merges = []
        for k in range(rng.randint(3, 6)):
            top = len(chars) + k
            pair = [rng.randrange(top), rng.randrange(top)]
            while pair in merges:  # a merge list never learns a pair twice
                pair = [rng.randrange(top), rng.randrange(top)]
            merges.append(pair)
        vocab = len(chars) + len(merges)
        ids = [rng.randrange(vocab) for _ in range(rng.randint(5, 10))]
        inputs = {"ids": ids, "chars": chars, "merges": merges}
        if _decode(ids, chars, merges, swapped=True) != _decode(ids, chars, merges):
            return inputs


# -- what a right answer gives ---------------------------------------------------------


def _counts(seqs):
    """[((a, b), n)] in order of first meeting, inside each sequence."""
    order, counts = [], {}
    for s in seqs:
        for t in range(len(s) - 1):
            pair = (s[t], s[t + 1])
            if pair not in counts:
                order.append(pair)
                counts[pair] = 0
            counts[pair] += 1
    return [(p, counts[p]) for p in order]


def _flat_counts(items):
    return [x for (a, b), n in items for x in (a, b, n)]


def _merge(ids, pair, new_id, overlap=False, drop_last=False):
    a, b = pair
    out, t = [], 0
    end = len(ids) - 1 if drop_last else len(ids)
    while t < end:
        if t + 1 < len(ids) and ids[t] == a and ids[t + 1] == b:
            out.append(new_id)
            t += 1 if overlap else 2
        else:
            out.append(ids[t])
            t += 1
    return out


def _train(seqs, first_id, num, last=False, offset=0, across=False):
    seqs = [list(s) for s in seqs]
    merges = []
    for k in range(num):
        items = _counts([[x for s in seqs for x in s]] if across else seqs)
        if not items:
            break
        top = max(n for _, n in items)
        tied = [p for p, n in items if n == top]
        pair = tied[-1] if last else tied[0]
        seqs = [_merge(s, pair, first_id + k + offset) for s in seqs]
        merges.append(list(pair))
    return merges


def _encode(word, chars, merges, backwards=False, offset=0):
    ids = [chars.index(c) for c in word]
    order = list(enumerate(merges))
    for k, pair in reversed(order) if backwards else order:
        ids = _merge(ids, pair, len(chars) + k + offset)
    return ids


def _decode(ids, chars, merges, swapped=False):
    text = list(chars)
    for a, b in merges:
        text.append(text[b] + text[a] if swapped else text[a] + text[b])
    return "".join(text[i] for i in ids)


def _codes(text):
    return [ord(c) for c in text]


ACROSS = msg("a pair was counted across two sequences: count inside each sequence only")
FIRST_ID = msg("the k-th merge (counting from 0) makes the id first_id + k")


def expect(case):
    x, kind = case["inputs"], case["kind"]
    if kind == "counts":
        seqs = x["sequences"]
        right = _counts(seqs)
        bugs = [
            (
                _flat_counts(_counts([[i for s in seqs for i in s]])),
                ACROSS,
            ),
            (
                _flat_counts(sorted(right)),
                msg(
                    "the pairs are sorted: keep them in the order they are first met "
                    "(a dict filled while reading keeps that order)"
                ),
            ),
        ]
        return Expectation(
            [
                WantList(
                    "counts",
                    _flat_counts(right),
                    f"sequences = {seqs}",
                    [(bug, advice) for bug, advice in bugs if bug != _flat_counts(right)],
                    msg(
                        "count every (ids[t], ids[t + 1]) of each sequence "
                        "(shown as a, b, count, pair after pair)"
                    ),
                    label=msg("counts"),
                )
            ]
        )
    if kind == "merge":
        ids, pair, new_id = x["ids"], x["pair"], x["new_id"]
        right = _merge(ids, pair, new_id)
        bugs = [
            (
                _merge(ids, pair, new_id, overlap=True),
                msg(
                    "after a match, skip BOTH ids of the pair (move on by 2), so that matches "
                    "do not overlap"
                ),
            ),
            (
                _merge(ids, pair, new_id, drop_last=True),
                msg("the last id is lost: a last id that starts no pair is kept as it is"),
            ),
        ]
        return Expectation(
            [
                WantList(
                    "ids",
                    right,
                    f"ids = {ids}, pair = {tuple(pair)}, new_id = {new_id}",
                    [(bug, advice) for bug, advice in bugs if bug != right],
                    msg("scan from the left: a match becomes new_id, anything else is copied"),
                )
            ]
        )
    if kind == "train":
        seqs, first_id, num = x["sequences"], x["first_id"], x["num_merges"]
        right = _train(seqs, first_id, num)
        bugs = [
            (
                _train(seqs, first_id, num, last=True),
                msg(
                    "of equally frequent pairs take the one met FIRST, "
                    "e.g. max(counts, key=counts.get)"
                ),
            ),
            (
                _train(seqs, first_id, num, offset=1),
                FIRST_ID,
            ),
            (
                _train(seqs, first_id, num, offset=-1),
                FIRST_ID,
            ),
            (
                _train(seqs, first_id, num, across=True),
                ACROSS,
            ),
        ]
        flat = [i for pair in right for i in pair]
        seen, unique = [], []
        for bug, advice in bugs:  # two bugs that give one list: the verdict names neither
            bug = [i for pair in bug for i in pair]
            if bug != flat and (bug, advice) not in seen:
                seen.append((bug, advice))
                unique.append((bug, advice))
        return Expectation(
            [
                WantList(
                    "merges",
                    flat,
                    f"sequences = {seqs}, first_id = {first_id}, num_merges = {num}",
                    unique,
                    msg(
                        "each round: count, take the most frequent pair, merge it everywhere "
                        "(shown as a, b, pair after pair)"
                    ),
                    label=msg("merges"),
                )
            ],
            hint=msg("Stop when no pair is left."),
        )
    chars, merges = x["chars"], x["merges"]
    if kind == "encode":
        word = x["word"]
        right = _encode(word, chars, merges)
        bugs = [
            (
                _encode(word, chars, merges, backwards=True),
                msg("apply the merges in the order they were learnt, the first one first"),
            ),
            (
                _encode(word, chars, merges, offset=1),
                msg("the k-th merge (counting from 0) makes the id len(chars) + k"),
            ),
        ]
        return Expectation(
            [
                WantList(
                    "ids",
                    right,
                    f"word = {word!r}, chars = {chars!r}, merges = {[tuple(p) for p in merges]}",
                    [(bug, advice) for bug, advice in bugs if bug != right],
                    msg(
                        "start from [chars.index(c) for c in word], then merge pair k into "
                        "len(chars) + k, for k in order"
                    ),
                )
            ]
        )
    ids = x["ids"]
    right = _decode(ids, chars, merges)
    swapped = _decode(ids, chars, merges, swapped=True)
    bugs = [(_codes(swapped), msg("a merge (a, b) stands for the text of a, THEN the text of b"))]
    return Expectation(
        [
            WantList(
                "text",
                _codes(right),
                f"ids = {ids}, chars = {chars!r}, merges = {[tuple(p) for p in merges]}",
                bugs if swapped != right else [],
                msg(
                    "the text of merge k (id len(chars) + k) is the text of its a plus that of "
                    "its b"
                ),
                text=True,
            )
        ]
    )

"""Day 39 · Byte-pair encoding: tokens from data.

Lesson: docs/lessons/day39_bpe.md

Token ids: the characters of `chars` are ids 0 .. len(chars) - 1, in that order, and the
k-th merge (counting from 0) makes the new id len(chars) + k. A merge list is a list of
pairs (a, b) of ids, in the order they were learnt; it is the whole tokenizer.

1. pair_counts(sequences): a dict {(a, b): count} of the neighbouring ids inside each
   sequence (never the last id of one sequence with the first of the next), with the
   pairs in the order they are first met: sequences in order, each left to right.
2. merge(ids, pair, new_id): a new list where every occurrence of pair, read from left
   to right, is replaced by new_id. Occurrences do not overlap: merging (5, 5) in
   [5, 5, 5] gives [new_id, 5].
3. train(sequences, first_id, num_merges): the merge list. Repeat num_merges times:
   count the pairs, take the most frequent one (of equally frequent pairs, the one
   met first), replace it in every sequence by the next new id (first_id, then
   first_id + 1, ...) and append it to the list. Stop early when no pair is left.
   Leave the caller's lists as they are.
4. encode(word, chars, merges): the ids of the word's characters, then every merge
   applied to them in the order it was learnt. No BOS.
5. decode(ids, chars, merges): the text the ids stand for. A character id stands for
   its character; the id of merge (a, b) stands for the text of a, then the text of b.

Check your work:  python -m grader --exercise day39_bpe.py
"""


def pair_counts(sequences):
    """{(a, b): how often b follows a inside a sequence}, in order of first meeting."""
    counts = {}
    for ids in sequences:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, new_id):
    """A new list: every (a, b) of ids, left to right and without overlap, -> new_id."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(sequences, first_id, num_merges):
    """The merge list learnt from sequences: at most num_merges pairs, in order."""
    sequences = [list(ids) for ids in sequences]
    merges = []
    for k in range(num_merges):
        counts = pair_counts(sequences)
        if not counts:
            break
        best = max(counts, key=counts.get)
        sequences = [merge(ids, best, first_id + k) for ids in sequences]
        merges.append(best)
    return merges


def encode(word, chars, merges):
    """The ids of word: its characters' ids with every merge applied, in order."""
    ids = [chars.index(c) for c in word]
    for k, pair in enumerate(merges):
        ids = merge(ids, pair, len(chars) + k)
    return ids


def decode(ids, chars, merges):
    """The text of ids: each id's characters, joined."""
    pieces = list(chars)
    for a, b in merges:
        pieces.append(pieces[a] + pieces[b])
    return "".join(pieces[i] for i in ids)


if __name__ == "__main__":
    print(pair_counts([[0, 1, 0, 1], [1, 0]]))  # expect {(0, 1): 2, (1, 0): 2}
    print(merge([5, 5, 5, 1], (5, 5), 9))  # expect [9, 5, 1]
    chars = "aeiln"
    names = ["lana", "alana", "lanie", "elaine", "alan"]
    merges = train([[chars.index(c) for c in name] for name in names], len(chars), 3)
    print(merges)  # expect [(3, 0), (5, 4), (6, 0)]: la, lan, lana
    print(encode("ilana", chars, merges))  # expect [2, 7]
    print(decode([2, 7], chars, merges))  # expect ilana

"""Day 16 · Tokens: turning names into numbers and back.

Lesson: docs/lessons/day16_tokens.md

A language model reads integers. Write the four pieces that turn names into token ids:

1. vocabulary(names): every character that occurs in the names, once each, sorted,
   as one string. "emma", "ava" -> "aemv". Sorting makes the ids the same every run.
2. encode(name, chars): the id of a character is its index in `chars`; BOS (the
   boundary token) has the id len(chars), one past the last character. Return
   [BOS] + the ids of the letters + [BOS]: a name of n letters gives n + 2 ids.
3. decode(ids, chars): the characters of every id that is not BOS, as one string,
   so that decode(encode(name, chars), chars) == name.
4. pairs(ids): the (current, next) training pairs, (ids[t], ids[t + 1]) for every
   position but the last, as a list of tuples: a name of n letters gives n + 1.

Check your work:  python -m grader --exercise day16_tokens.py
"""


def vocabulary(names):
    """The distinct characters of all the names, sorted, as one string."""
    return "".join(sorted(set("".join(names))))


def encode(name, chars):
    """[BOS] + [index of each character in chars] + [BOS], with BOS = len(chars)."""
    bos = len(chars)
    return [bos] + [chars.index(ch) for ch in name] + [bos]


def decode(ids, chars):
    """The characters of the ids that are not BOS (= len(chars)), as one string."""
    return "".join(chars[i] for i in ids if i != len(chars))


def pairs(ids):
    """[(ids[0], ids[1]), (ids[1], ids[2]), ...]: one (current, next) pair per prediction."""
    return list(zip(ids, ids[1:]))


if __name__ == "__main__":
    chars = vocabulary(["emma", "ava", "anna"])
    print(chars)  # expect aemnv
    ids = encode("emma", "abcdefghijklmnopqrstuvwxyz")
    print(ids)  # expect [26, 4, 12, 12, 0, 26]
    print(decode(ids, "abcdefghijklmnopqrstuvwxyz"))  # expect emma
    print(pairs(ids))  # expect [(26, 4), (4, 12), (12, 12), (12, 0), (0, 26)]

"""Planted bugs in the references of days 16, 17, 20 and 21 must lose marks, and the
feedback must name the bug. Mutants are made from our own references and run in process.
"""

import pytest

from .mutants import mutant_failures, reference_failures

# (exercise, old text, new text, what the bug is, a phrase the feedback should contain)
MUTANTS = [
    (
        "day16_tokens.py",
        'return "".join(sorted(set("".join(names))))',
        'return "".join(dict.fromkeys("".join(names)))',
        "unsorted vocabulary",
        "sorted",
    ),
    (
        "day16_tokens.py",
        "return [bos] + [chars.index(ch) for ch in name] + [bos]",
        "return [bos] + [chars.index(ch) for ch in name]",
        "no final BOS",
        "final BOS",
    ),
    (
        "day16_tokens.py",
        "return [bos] + [chars.index(ch) for ch in name] + [bos]",
        "return [0] + [chars.index(ch) + 1 for ch in name] + [0]",
        "BOS at 0",
        "len(chars)",
    ),
    (
        "day16_tokens.py",
        'return "".join(chars[i] for i in ids if i != len(chars))',
        'return "".join(chars[i] if i != len(chars) else "." for i in ids)',
        "BOS kept as a dot",
        "drops every BOS",
    ),
    (
        "day16_tokens.py",
        "return list(zip(ids, ids[1:]))",
        "return list(zip(ids, ids[1:-1]))",
        "last pair dropped",
        "last pair",
    ),
    (
        "day17_bigrams.py",
        "N = [[0] * vocab_size for _ in range(vocab_size)]",
        "N = [[0] * vocab_size] * vocab_size",
        "one shared row",
        "[[0] * V for _ in range(V)]",
    ),
    ("day17_bigrams.py", "N[a][b] += 1", "N[b][a] += 1", "transposed counts", "transposed"),
    (
        "day17_bigrams.py",
        "(sum(row) + alpha * V)",
        "(sum(map(sum, counts)) + alpha * V * V)",
        "grand total",
        "own total",
    ),
    ("day17_bigrams.py", "(sum(row) + alpha * V)", "(sum(row) + alpha)", "alpha once", "alpha * V"),
    ("day17_bigrams.py", "if u < running:", "if u <= running:", "<= for <", "u < running"),
    (
        "day20_embeddings.py",
        "    return table[token]\n",
        "    return [type(v)(v.data) for v in table[token]]\n",
        "copied row",
        "copied",
    ),
    (
        "day20_embeddings.py",
        "return [1.0 if i == token else 0.0 for i in range(vocab_size)]",
        "return [1.0 if i == token + 1 else 0.0 for i in range(vocab_size)]",
        "one-hot off by one",
        "it belongs at index",
    ),
    (
        "day20_embeddings.py",
        "return [embed(table, t) for t in tokens]",
        "return [embed(table, t) for t in sorted(set(tokens))]",
        "repeats dropped",
        "expected",
    ),
    (
        "day21_mlp_language_model.py",
        "        context = context[1:] + [token]\n",
        "",
        "window never slides",
        "context never changes",
    ),
    (
        "day21_mlp_language_model.py",
        "        out.append((tuple(context), token))\n        context = context[1:] + [token]\n",
        "        context = context[1:] + [token]\n        out.append((tuple(context), token))\n",
        "slides too early",
        "BEFORE sliding",
    ),
    ("day21_mlp_language_model.py", "+ b).tanh() for row", "+ b) for row", "no tanh", "no tanh"),
    (
        "day21_mlp_language_model.py",
        "x = [v for t in context for v in C[t]]",
        "x = [v for t in reversed(context) for v in C[t]]",
        "reversed slots",
        "reverse order",
    ),
    (
        "day21_mlp_language_model.py",
        "+ b for row, b in zip(W2, b2)]",
        "for row, b in zip(W2, b2)]",
        "no output bias",
        "expected",
    ),
]


@pytest.mark.parametrize(
    "exercise, old, new, bug, phrase", MUTANTS, ids=[m[3] + ":" + m[0][:5] for m in MUTANTS]
)
def test_a_planted_bug_loses_marks_and_is_named(exercise, old, new, bug, phrase):
    failures = mutant_failures(exercise, old, new)
    assert failures, f"{bug}: every case still passes"
    assert any(phrase in m for m in failures), (
        f"{bug}: no message mentions {phrase!r}: {failures[:3]}"
    )


@pytest.mark.parametrize("exercise", sorted({m[0] for m in MUTANTS}))
def test_the_unmutated_solutions_pass(exercise):
    assert not reference_failures(exercise)

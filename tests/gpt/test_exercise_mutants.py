"""The phase-3 exercises (days 18, 19, 22, 24, 26, 27): planted bugs in the references lose
marks, and the feedback names the bug. Runs our own references in process, no learner code."""

from pathlib import Path

import pytest

from tests.grader.mutants import mutant_failures, reference_failures

ROOT = Path(__file__).resolve().parents[2]

# (exercise, old text, new text, what the bug is, a phrase the feedback should contain)
MUTANTS = [
    (
        "day18_likelihood.py",
        "return total / len(probs)",
        "return total",
        "sum, not mean",
        "this is the sum",
    ),
    ("day18_likelihood.py", "/ len(pairs)", "/ len(ids)", "divides by tokens", "number of tokens"),
    ("day18_likelihood.py", "math.log(P[a][b])", "math.log10(P[a][b])", "log base 10", "base 10"),
    ("day18_likelihood.py", "return -sum(", "return sum(", "flipped sign", "sign is flipped"),
    (
        "day18_likelihood.py",
        "pairs = list(zip(ids, ids[1:]))",
        "pairs = list(zip(ids[1:], ids[2:]))",
        "first pair missing",
        "first pair",
    ),
    (
        "day19_softmax.py",
        "top = max(z.data for z in logits)",
        "top = 0.0",
        "no max subtracted",
        "subtract",
    ),
    (
        "day19_softmax.py",
        "return [e / total for e in exps]",
        "return exps",
        "no normalisation",
        "divide every exp",
    ),
    (
        "day19_softmax.py",
        "return -softmax(logits)[target].log()",
        "return softmax(logits)[target].log()",
        "flipped loss",
        "MINUS",
    ),
    (
        "day19_softmax.py",
        "return -softmax(logits)[target].log()",
        "return -softmax(logits)[0].log()",
        "wrong entry",
        "index target",
    ),
    (
        "day22_attention.py",
        "scale = 1.0 / math.sqrt(len(q))",
        "scale = 1.0",
        "unscaled",
        "unscaled",
    ),
    (
        "day22_attention.py",
        "scale = 1.0 / math.sqrt(len(q))",
        "scale = 1.0 / len(q)",
        "divided by d",
        "square root",
    ),
    (
        "day22_attention.py",
        "w * v[j] for w, v in zip(weights, values)",
        "w * v[j] for w, v in zip(weights, keys)",
        "blends keys",
        "VALUES",
    ),
    (
        "day22_attention.py",
        "weights = softmax(attention_scores(q, keys))",
        "weights = attention_scores(q, keys)",
        "no softmax",
        "softmax",
    ),
    (
        "day24_rmsnorm_residual.py",
        "scale = (mean_square + eps) ** -0.5",
        "scale = (mean_square.data + eps) ** -0.5",
        "scale from .data",
        ".data",
    ),
    ("day24_rmsnorm_residual.py", "/ len(x)", "/ 16", "fixed divisor", "len(x)"),
    (
        "day24_rmsnorm_residual.py",
        "scale = (mean_square + eps) ** -0.5",
        "scale = (mean_square + eps) ** 0.5",
        "root, not inverse",
        "INVERSE",
    ),
    (
        "day24_rmsnorm_residual.py",
        "scale = (mean_square + eps) ** -0.5",
        "scale = (mean_square + 1e-5) ** -0.5",
        "eps ignored",
        "eps argument",
    ),
    (
        "day24_rmsnorm_residual.py",
        "return [xi + fi for xi, fi in zip(x, f(x))]",
        "return f(x)",
        "no residual",
        "f(x) alone",
    ),
    (
        "day26_training_gpt.py",
        "return lr * (1 - step / steps)",
        "return lr * (1 - (step + 1) / steps)",
        "off by one",
        "off by one",
    ),
    (
        "day26_training_gpt.py",
        "m_hat = m[i] / (1 - beta1 ** (step + 1))\n        v_hat = v[i] / (1 - beta2 ** (step + 1))",
        "m_hat = m[i]\n        v_hat = v[i]",
        "no bias correction",
        "bias correction",
    ),
    (
        "day26_training_gpt.py",
        "    optimizer.zero_grad()\n    loss",
        "    loss",
        "no zero_grad",
        "zero_grad",
    ),
    (
        "day26_training_gpt.py",
        "    loss.backward()\n    optimizer.lr",
        "    loss.backward()\n    optimizer.zero_grad()\n    optimizer.lr",
        "zeroed after backward",
        "BEFORE loss.backward()",
    ),
    (
        "day26_training_gpt.py",
        "optimizer.lr = lr_at(step, steps, lr)",
        "optimizer.lr = lr",
        "no decay",
        "did not decay",
    ),
    ("day26_training_gpt.py", "return loss.data", "return loss", "returns a Value", "loss.data"),
    (
        "day27_sampling.py",
        "scaled = [z / temperature",
        "scaled = [z * temperature",
        "multiplies by T",
        "divide",
    ),
    (
        "day27_sampling.py",
        "if u < cumulative",
        "if u <= cumulative",
        "<= at a boundary",
        "NEXT slice",
    ),
    (
        "day27_sampling.py",
        "return max(range(len(logits)), key=lambda i: logits[i])",
        "return len(logits) - 1 - logits[::-1].index(max(logits))",
        "last of equal maxima",
        "FIRST",
    ),
    (
        "day27_sampling.py",
        "        if token == bos:\n            break\n        ids.append(token)",
        "        ids.append(token)\n        if token == bos:\n            break",
        "BOS kept",
        "BOS ended up",
    ),
    (
        "day27_sampling.py",
        "next_token(next_logits(token, pos)",
        "next_token(next_logits(token, 0)",
        "position ignored",
        "expected",
    ),
]


@pytest.mark.parametrize(
    "exercise, old, new, bug, phrase", MUTANTS, ids=[f"{m[0][:5]}-{m[3]}" for m in MUTANTS]
)
def test_a_planted_bug_loses_marks_with_a_message_that_names_it(exercise, old, new, bug, phrase):
    source = (ROOT / "solutions" / exercise).read_text()
    assert source.count(old) == 1, f"the reference changed: {old!r} is not there once"
    failed = mutant_failures(exercise, old, new)
    assert failed, f"{bug}: every case still passes"
    assert any(phrase in m for m in failed), f"{bug}: no message says {phrase!r}: {failed[:3]}"


@pytest.mark.parametrize("exercise", sorted({m[0] for m in MUTANTS}))
def test_the_reference_passes_everything(exercise):
    failed = reference_failures(exercise)
    assert not failed, failed

"""Planted bugs in each reference must lose marks, and the feedback must name the bug.

One table, keyed by exercise: each mutant is the course's own reference with one piece of
text (found exactly once) replaced. The grade counts hidden cases only, so every mutant
must fail a hidden case under each of several seeds, and some message (public or
hidden) must name the bug. They run in process (tests/grader/mutants.py): no learner
code here.
"""

import pytest

from .mutants import (
    SEEDS,
    SOLUTIONS,
    hidden_failures,
    mutant_failures,
    mutant_source,
    reference_failures,
)

# exercise: [(old text, new text, what the bug is, a phrase the feedback should contain)]
MUTANTS = {
    "day05_add_mul.py": [
        ("self.grad += out.grad\n", "self.grad = out.grad\n", "= for += in add", "+="),
        (
            "self.grad += other.data * out.grad",
            "self.grad = other.data * out.grad",
            "= for += in mul",
            "+=",
        ),
        ("other.grad += out.grad\n", "other.grad += 1.0\n", "dropped out.grad in add", "out.grad"),
        (
            "self.grad += other.data * out.grad",
            "self.grad += other.data",
            "dropped out.grad in mul",
            "out.grad",
        ),
        (
            "other.grad += self.data * out.grad",
            "other.grad -= self.data * out.grad",
            "flipped sign in mul",
            "sign",
        ),
        (
            "self.grad += other.data * out.grad",
            "self.grad += 2 * other.data * out.grad",
            "wrong factor",
            "expected",
        ),
        (
            "self.grad += other.data * out.grad\n            other.grad += self.data * out.grad",
            "self.grad += self.data * out.grad\n            other.grad += other.data * out.grad",
            "swapped operands",
            "swapper",
        ),
        (
            "self.grad += out.grad\n            other.grad += out.grad",
            "pass",
            "empty add body",
            "nothing",
        ),
    ],
    "day06_backward.py": [
        (
            "self.grad += out.grad\n",
            "self.grad = out.grad\n",
            "= for += in the + the day 6 file carries",
            "+=",
        ),
        (
            "self.grad += (1.0 - t * t) * out.grad",
            "self.grad = (1.0 - t * t) * out.grad",
            "= for += in the tanh the day 6 file carries",
            "+=",
        ),
        (
            "        self.grad = 1.0\n        for v in reversed(",
            "        for v in reversed(",
            "no seed",
            "1.0",
        ),
        (
            "for v in reversed(self.topological_order())",
            "for v in self.topological_order()",
            "forward order",
            "expected",
        ),
        (
            "            if v not in seen:\n                seen.add(v)\n",
            "            if True:\n",
            "no visited set",
            "expected",
        ),
        (
            "                order.append(v)\n",
            "                pass\n        order.append(self)\n",
            "only the output",
            "missing",
        ),
    ],
    "day08_more_ops.py": [
        (
            "self.grad += out.grad\n",
            "self.grad = out.grad\n",
            "= for += in the + the day 8 file carries",
            "+=",
        ),
        (
            "self.grad += k * self.data ** (k - 1) * out.grad",
            "self.grad += k * self.data ** k * out.grad",
            "power rule off by one",
            "k - 1",
        ),
        (
            "self.grad += k * self.data ** (k - 1) * out.grad",
            "self.grad = k * self.data ** (k - 1) * out.grad",
            "= for += in pow",
            "+=",
        ),
        (
            "self.grad += out.data * out.grad",
            "self.grad += out.data",
            "dropped out.grad in exp",
            "out.grad",
        ),
        (
            "self.grad += (1.0 - out.data**2) * out.grad",
            "self.grad += (out.data**2 - 1.0) * out.grad",
            "flipped tanh",
            "sign",
        ),
        (
            "(1.0 if self.data > 0 else 0.0)",
            "(1.0 if self.data >= 0 else 0.0)",
            "relu at 0",
            "relu'(0)",
        ),
        ("self.grad += (1.0 - out.data**2) * out.grad", "pass", "empty tanh body", "nothing"),
        ("return self + (-other)", "return other + (-self)", "swapped sub", "expected"),
        (
            "return self * other**-1",
            "return Value(self.data / other.data, (self, other), '/')",
            "div not from primitives",
            "expected",
        ),
    ],
    "day09_gradient_descent.py": [
        (
            "p.data -= learning_rate * p.grad",
            "p.data += learning_rate * p.grad",
            "ascent",
            "uphill",
        ),
        (
            "p.data -= learning_rate * p.grad",
            "p.data -= p.grad",
            "no learning rate",
            "learning rate",
        ),
        (
            "p.data -= learning_rate * p.grad",
            "p.data -= learning_rate * p.grad\n        p.grad = 0.0",
            "clears grad",
            "day 13",
        ),
        ("p.data -= learning_rate * p.grad", "pass", "empty body", "did not change"),
    ],
    "day13_training_loop.py": [
        ("    zero_grad(params)\n    loss =", "    loss =", "no zero_grad", "zero_grad"),
        ("        p.grad = 0.0\n", "        pass\n", "zero_grad does nothing", "not reset"),
        (
            "        p.data -= learning_rate * p.grad\n    return",
            "        p.data += learning_rate * p.grad\n    return",
            "ascent",
            "expected",
        ),
        (
            "    return loss.data\n",
            "    return mean_squared_error([model(x) for x in xs], ys).data\n",
            "loss after the update",
            "expected",
        ),
        ("    return loss.data\n", "    return loss\n", "returns a Value", "loss.data"),
    ],
    "day16_tokens.py": [
        (
            'return "".join(sorted(set("".join(names))))',
            'return "".join(dict.fromkeys("".join(names)))',
            "unsorted vocabulary",
            "sorted",
        ),
        (
            "return [bos] + [chars.index(ch) for ch in name] + [bos]",
            "return [bos] + [chars.index(ch) for ch in name]",
            "no final BOS",
            "final BOS",
        ),
        (
            "return [bos] + [chars.index(ch) for ch in name] + [bos]",
            "return [0] + [chars.index(ch) + 1 for ch in name] + [0]",
            "BOS at 0",
            "len(chars)",
        ),
        (
            'return "".join(chars[i] for i in ids if i != len(chars))',
            'return "".join(chars[i] if i != len(chars) else "." for i in ids)',
            "BOS kept as a dot",
            "drops every BOS",
        ),
        (
            "return list(zip(ids, ids[1:]))",
            "return list(zip(ids, ids[1:-1]))",
            "last pair dropped",
            "last pair",
        ),
    ],
    "day17_bigrams.py": [
        (
            "N = [[0] * vocab_size for _ in range(vocab_size)]",
            "N = [[0] * vocab_size] * vocab_size",
            "one shared row",
            "[[0] * V for _ in range(V)]",
        ),
        ("N[a][b] += 1", "N[b][a] += 1", "transposed counts", "transposed"),
        (
            "(sum(row) + alpha * V)",
            "(sum(map(sum, counts)) + alpha * V * V)",
            "grand total",
            "own total",
        ),
        ("(sum(row) + alpha * V)", "(sum(row) + alpha)", "alpha once", "alpha * V"),
        ("if u < running:", "if u <= running:", "<= for <", "u < running"),
    ],
    "day18_likelihood.py": [
        ("return total / len(probs)", "return total", "sum, not mean", "this is the sum"),
        ("/ len(pairs)", "/ len(ids)", "divides by tokens", "number of tokens"),
        ("math.log(P[a][b])", "math.log10(P[a][b])", "log base 10", "base 10"),
        ("return -sum(", "return sum(", "flipped sign", "sign is flipped"),
        (
            "pairs = list(zip(ids, ids[1:]))",
            "pairs = list(zip(ids[1:], ids[2:]))",
            "first pair missing",
            "first pair",
        ),
    ],
    "day19_softmax.py": [
        ("top = max(z.data for z in logits)", "top = 0.0", "no max subtracted", "subtract"),
        ("return [e / total for e in exps]", "return exps", "no normalisation", "divide every exp"),
        (
            "return -softmax(logits)[target].log()",
            "return softmax(logits)[target].log()",
            "flipped loss",
            "MINUS",
        ),
        (
            "return -softmax(logits)[target].log()",
            "return -softmax(logits)[0].log()",
            "wrong entry",
            "index target",
        ),
    ],
    "day20_embeddings.py": [
        (
            "    return table[token]\n",
            "    return [type(v)(v.data) for v in table[token]]\n",
            "copied row",
            "copied",
        ),
        (
            "return [1.0 if i == token else 0.0 for i in range(vocab_size)]",
            "return [1.0 if i == token + 1 else 0.0 for i in range(vocab_size)]",
            "one-hot off by one",
            "it belongs at index",
        ),
        (
            "return [embed(table, t) for t in tokens]",
            "return [embed(table, t) for t in sorted(set(tokens))]",
            "repeats dropped",
            "expected",
        ),
    ],
    "day21_mlp_language_model.py": [
        (
            "        context = context[1:] + [token]\n",
            "",
            "window never slides",
            "context never changes",
        ),
        (
            "        out.append((tuple(context), token))\n        context = context[1:] + [token]\n",
            "        context = context[1:] + [token]\n        out.append((tuple(context), token))\n",
            "slides too early",
            "BEFORE sliding",
        ),
        ("+ b).tanh() for row", "+ b) for row", "no tanh", "no tanh"),
        (
            "x = [v for t in context for v in C[t]]",
            "x = [v for t in reversed(context) for v in C[t]]",
            "reversed slots",
            "reverse order",
        ),
        (
            "+ b for row, b in zip(W2, b2)]",
            "for row, b in zip(W2, b2)]",
            "no output bias",
            "expected",
        ),
    ],
    "day22_attention.py": [
        ("scale = 1.0 / math.sqrt(len(q))", "scale = 1.0", "unscaled", "unscaled"),
        ("scale = 1.0 / math.sqrt(len(q))", "scale = 1.0 / len(q)", "divided by d", "square root"),
        (
            "w * v[j] for w, v in zip(weights, values)",
            "w * v[j] for w, v in zip(weights, keys)",
            "blends keys",
            "VALUES",
        ),
        (
            "weights = softmax(attention_scores(q, keys))",
            "weights = attention_scores(q, keys)",
            "no softmax",
            "softmax",
        ),
    ],
    "day24_rmsnorm_residual.py": [
        (
            "scale = (mean_square + eps) ** -0.5",
            "scale = (mean_square.data + eps) ** -0.5",
            "scale from .data",
            ".data",
        ),
        ("/ len(x)", "/ 16", "fixed divisor", "len(x)"),
        (
            "scale = (mean_square + eps) ** -0.5",
            "scale = (mean_square + eps) ** 0.5",
            "root, not inverse",
            "INVERSE",
        ),
        (
            "scale = (mean_square + eps) ** -0.5",
            "scale = (mean_square + 1e-5) ** -0.5",
            "eps ignored",
            "eps argument",
        ),
        ("return [xi + fi for xi, fi in zip(x, f(x))]", "return f(x)", "no residual", "f(x) alone"),
    ],
    "day26_training_gpt.py": [
        (
            "return lr * (1 - step / steps)",
            "return lr * (1 - (step + 1) / steps)",
            "off by one",
            "off by one",
        ),
        (
            "m_hat = m[i] / (1 - beta1 ** (step + 1))\n        v_hat = v[i] / (1 - beta2 ** (step + 1))",
            "m_hat = m[i]\n        v_hat = v[i]",
            "no bias correction",
            "bias correction",
        ),
        ("    optimizer.zero_grad()\n    loss", "    loss", "no zero_grad", "zero_grad"),
        (
            "    loss.backward()\n    optimizer.lr",
            "    loss.backward()\n    optimizer.zero_grad()\n    optimizer.lr",
            "zeroed after backward",
            "BEFORE loss.backward()",
        ),
        ("optimizer.lr = lr_at(step, steps, lr)", "optimizer.lr = lr", "no decay", "did not decay"),
        ("return loss.data", "return loss", "returns a Value", "loss.data"),
    ],
    "day27_sampling.py": [
        ("scaled = [z / temperature", "scaled = [z * temperature", "multiplies by T", "divide"),
        ("if u < cumulative", "if u <= cumulative", "<= at a boundary", "NEXT slice"),
        (
            "return max(range(len(logits)), key=lambda i: logits[i])",
            "return len(logits) - 1 - logits[::-1].index(max(logits))",
            "last of equal maxima",
            "FIRST",
        ),
        (
            "        if token == bos:\n            break\n        ids.append(token)",
            "        ids.append(token)\n        if token == bos:\n            break",
            "BOS kept",
            "BOS ended up",
        ),
        (
            "next_token(next_logits(token, pos)",
            "next_token(next_logits(token, 0)",
            "position ignored",
            "expected",
        ),
    ],
    "day41_pytorch.py": [
        ("    if not tied:\n", "    if True:\n", "tied head counted twice", "count it once"),
        ("    if not tied:\n", "    if False:\n", "untied head forgotten", "of its own"),
        (
            "    if count_positions:\n",
            "    if True:\n",
            "positions always counted",
            "leave the position",
        ),
        (
            "norm = 2 * n_embd if bias else n_embd",
            "norm = 2 * n_embd",
            "LayerNorm biases without bias",
            "no LayerNorm has a bias",
        ),
        (
            "(4 * n_embd if bias else 0)",
            "(3 * n_embd if bias else 0)",
            "output projection's bias forgotten",
            "expected",
        ),
        (
            "mlp = 8 * n_embd * n_embd",
            "mlp = 2 * n_embd * n_embd",
            "MLP not widened",
            "4 n_embd",
        ),
        ("n_layer * block + norm", "n_layer * block", "no final LayerNorm", "final LayerNorm"),
        (
            "return batch_size * block_size * accumulation_steps * n_gpus",
            "return batch_size * block_size * accumulation_steps",
            "GPUs left out",
            "n_gpus",
        ),
        (
            "return 6 * n_params * tokens",
            "return 2 * n_params * tokens",
            "2 N D",
            "forward pass alone",
        ),
        (
            "tokens = tokens_per_step * steps",
            "tokens = tokens_per_step",
            "one step's tokens",
            "ALL the steps",
        ),
    ],
}
CASES = [(exercise, *mutant) for exercise, mutants in MUTANTS.items() for mutant in mutants]


@pytest.mark.parametrize(
    "exercise, old, new, bug, phrase", CASES, ids=[f"{c[0][:5]}-{c[3]}" for c in CASES]
)
def test_a_planted_bug_loses_marks_and_is_named(exercise, old, new, bug, phrase):
    source = (SOLUTIONS / exercise).read_text()
    assert source.count(old) == 1, f"the reference changed: {old!r} is not there once"
    failures = mutant_failures(exercise, old, new)
    assert failures, f"{bug}: every case still passes"
    assert any(phrase in m for m in failures), (
        f"{bug}: no message mentions {phrase!r}: {failures[:3]}"
    )
    source = mutant_source(exercise, old, new)
    survived = [seed for seed in SEEDS if not hidden_failures(exercise, source, seed)]
    assert not survived, f"{bug}: every hidden case passes under seeds {survived}"


@pytest.mark.parametrize("exercise", sorted(MUTANTS))
def test_the_unmutated_reference_passes(exercise):
    failures = reference_failures(exercise, SEEDS)
    assert not failures, failures

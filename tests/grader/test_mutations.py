"""Planted bugs in each reference must lose marks, and the feedback must name the bug.

One table, keyed by exercise: each mutant is the course's own reference with one piece of
text (found exactly once) replaced. The grade counts hidden cases only, so every mutant
must fail a hidden case under each of several seeds, and some message (public or
hidden) must name the bug. They run in process (tests/grader/mutants.py): no learner
code here.
"""

import re

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
    "day31_tensors.py": [
        (
            "    padded_a = (1,) * (n - len(a)) + tuple(a)\n    padded_b = (1,) * (n - len(b)) + tuple(b)",
            "    padded_a = tuple(a) + (1,) * (n - len(a))\n    padded_b = tuple(b) + (1,) * (n - len(b))",
            "shapes lined up from the left",
            "RIGHT",
        ),
        ("out.append(max(sa, sb))", "out.append(min(sa, sb))", "the smaller size kept", "larger"),
        ("if sa != sb and sa != 1 and sb != 1:", "if False:", "no refusal", "no ValueError"),
        (
            "out.append(data[source])",
            "out.append(data[flat % len(data)])",
            "data repeated end to end",
            "in place",
        ),
        ("    if keepdims:\n", "    if False:\n", "keepdims ignored", "keepdims"),
        (
            "data[start + p * inner + i]",
            "data[start + p + i * n]",
            "the axis walked with the wrong stride",
            "apart",
        ),
        ("b[p * m + j]", "b[j * k + p]", "b read by rows", "column j"),
    ],
    "day32_tensor_backward.py": [
        ("out[target] += grad[flat]", "out[target] = grad[flat]", "one copy kept", "SUM"),
        (
            "    return out\n\n\ndef sum_axis_backward",
            "    return grad\n\n\ndef sum_axis_backward",
            "grad not summed",
            "broadcast axes",
        ),
        (
            "scale = 1.0 / n if mean else 1.0",
            "scale = 1.0",
            "the mean's 1/n forgotten",
            "divided by n",
        ),
        ("scale = 1.0 / n if mean else 1.0", "scale = 1.0 / n", "1/n on a sum", "only a mean"),
        (
            "        for _copy in range(n):  # the n entries along the axis\n            for i in range(inner):",
            "        for i in range(inner):\n            for _copy in range(n):",
            "copies laid out along the wrong axis",
            "in its position",
        ),
        (
            "for p in range(k) for j in range(m)]",
            "for j in range(m) for p in range(k)]",
            "dB transposed",
            "transposed",
        ),
        ("    return da, db\n", "    return db, da\n", "dA and dB swapped", "in that order"),
    ],
    "day33_batches.py": [
        (
            "[list(C[t]) for t in context]",
            "[list(C[t]) for t in reversed(context)]",
            "slots reversed",
            "reverse order",
        ),
        (
            "[v for row in example for v in row]",
            "[row[e] for e in range(len(example[0])) for row in example]",
            "flattened number by number",
            "embedding-number",
        ),
        ("zip(row, w_row)) + bi for", "zip(row, w_row)) for", "no bias", "bias is missing"),
        ("return total / len(logits)", "return total", "sum, not mean", "MEAN"),
        ("total += log_sum - row[y]", "total += log_sum - row[Y[0]]", "first target", "Y[r]"),
        (
            "        top = max(row)\n        log_sum = top + math.log(sum(math.exp(z - top) for z in row))",
            "        log_sum = math.log(sum(math.exp(z) for z in row))",
            "no maximum subtracted",
            "OverflowError",
        ),
    ],
    "day34_batched_attention.py": [
        (
            "[[j > i for j in range(T)]",
            "[[j >= i for j in range(T)]",
            "diagonal masked",
            "diagonal",
        ),
        ("[[j > i for j in range(T)]", "[[j < i for j in range(T)]", "past masked", "the past"),
        (
            "        scores = [-math.inf if mask[i][j] else s for j, s in enumerate(scores)]\n",
            "",
            "no mask",
            "later positions",
        ),
        ("scale = 1.0 / math.sqrt(d)", "scale = 1.0", "unscaled", "unscaled"),
        (
            "    return weights\n",
            "    return [list(column) for column in zip(*weights)]\n",
            "weights transposed",
            "transposed",
        ),
        ("for w, v in zip(row, V))", "for w, v in zip(row, K))", "blends keys", "blends the keys"),
        (
            "[row[h * hd : (h + 1) * hd] for row in X]",
            "[[v for r in X for v in r][(h * len(X) + t) * hd : (h * len(X) + t + 1) * hd]"
            " for t in range(len(X))]",
            "reshape without transpose",
            "reshape",
        ),
        (
            "    if C % n_head:\n        raise",
            "    if False:\n        raise",
            "no ValueError",
            "ValueError",
        ),
    ],
    "day40_top_k_top_p.py": [
        ("key=lambda i: -probs[i])", "key=lambda i: probs[i])", "the k smallest", "LARGEST"),
        (
            "key=lambda i: -probs[i])",
            "key=lambda i: (-probs[i], -i))",
            "ties: larger index first",
            "SMALLER index",
        ),
        (
            "kept = set(order[:k])",
            "kept = {i for i in order if probs[i] >= probs[order[min(k, len(order)) - 1]]}",
            "every tie with the k-th kept",
            "exactly k",
        ),
        (
            "return [probs[i] / total if i in kept",
            "return [probs[i] if i in kept",
            "top-k not renormalised",
            "divide the kept",
        ),
        ("if before >= p:", "if before + probs[i] > p:", "crossing token cut", "crosses p"),
        ("if before >= p:", "if before > p:", "a total exactly p kept going", "reaches p exactly"),
        ("for i in ranking:", "for i in range(len(probs)):", "index order", "ranking"),
        (
            "return [probs[i] / mass if i in head",
            "return [probs[i] if i in head",
            "top-p not renormalised",
            "divide the kept",
        ),
        (
            "    if top_k is not None:\n        probs = top_k_filter(probs, top_k)\n"
            "    if top_p is not None:\n        probs = top_p_filter(probs, top_p)",
            "    if top_p is not None:\n        probs = top_p_filter(probs, top_p)\n"
            "    if top_k is not None:\n        probs = top_k_filter(probs, top_k)",
            "top-p before top-k",
            "top-k first",
        ),
        (
            "probs = next_token_probs(logits, temperature)",
            "probs = next_token_probs(logits)",
            "temperature ignored",
            "temperature first",
        ),
    ],
    "day39_bpe.py": [
        (
            "    for ids in sequences:\n        for pair",
            "    for ids in [[i for ids in sequences for i in ids]]:\n        for pair",
            "pairs across sequences",
            "across two sequences",
        ),
        ("    return counts\n", "    return dict(sorted(counts.items()))\n", "sorted", "sorted"),
        ("            i += 2\n", "            i += 1\n", "overlapping matches", "BOTH ids"),
        ("while i < len(ids):", "while i < len(ids) - 1:", "last id lost", "last id"),
        (
            "best = max(counts, key=counts.get)",
            "best = max(reversed(counts), key=counts.get)",
            "last of equal pairs",
            "FIRST",
        ),
        ("merge(ids, best, first_id + k)", "merge(ids, best, first_id + k + 1)", "id + 1", "+ k"),
        ("        if not counts:\n            break\n", "", "no early stop", "empty"),
        (
            "for k, pair in enumerate(merges):",
            "for k, pair in reversed(list(enumerate(merges))):",
            "merges backwards",
            "order they were learnt",
        ),
        (
            "merge(ids, pair, len(chars) + k)",
            "merge(ids, pair, len(chars) + k + 1)",
            "encode id",
            "+ k",
        ),
        ("pieces[a] + pieces[b]", "pieces[b] + pieces[a]", "halves swapped", "THEN"),
    ],
    "day35_overfitting.py": [
        ("shuffled = list(items)", "shuffled = items", "the caller's list shuffled", "in place"),
        (
            "    random.Random(seed).shuffle(shuffled)\n",
            "",
            "no shuffle",
            "not shuffled",
        ),
        (
            "return shuffled[:n_train], shuffled[n_train : n_train + n_dev], shuffled[n_train + n_dev :]",
            "return shuffled[n_dev + n_test :], shuffled[:n_dev], shuffled[n_dev : n_dev + n_test]",
            "cuts in another order",
            "another order",
        ),
        (
            "if loss < dev_losses[best]:",
            "if loss <= dev_losses[best]:",
            "ties are new bests",
            "EQUAL",
        ),
        (
            "elif i - best >= patience:",
            "elif i - best > patience:",
            "patience off by one",
            "too late",
        ),
        (
            "            return best, i",
            "            return min(range(len(dev_losses)), key=dev_losses.__getitem__), i",
            "best with hindsight",
            "whole list",
        ),
    ],
    "day36_learning_rate.py": [
        (
            "return lr_max * (step + 1) / warmup",
            "return lr_max * step / warmup",
            "warmup from 0",
            "off by one",
        ),
        (
            "    progress = (step - warmup) / (steps - warmup)\n",
            "    progress = step / steps\n",
            "cosine over the whole run",
            "whole run",
        ),
        (
            "return lr_min + (lr_max - lr_min) * 0.5 * (1 + math.cos(math.pi * progress))",
            "return lr_max * 0.5 * (1 + math.cos(math.pi * progress))",
            "no floor",
            "floor",
        ),
        (
            "return [lr_start * (lr_end / lr_start) ** (i / (n - 1)) for i in range(n)]",
            "return [lr_start * (lr_end / lr_start) ** (i / n) for i in range(n)]",
            "misses lr_end",
            "i / (n - 1)",
        ),
        (
            "return [lr_start * (lr_end / lr_start) ** (i / (n - 1)) for i in range(n)]",
            "return [lr_start + (lr_end - lr_start) * i / (n - 1) for i in range(n)]",
            "equal steps",
            "TIMES",
        ),
        (
            "if losses[i] > k * losses[lowest]:",
            "if losses[i] > k * losses[0]:",
            "against the first loss",
            "first loss",
        ),
        (
            "if losses[i] < losses[lowest]:",
            "if losses[i] <= losses[lowest]:",
            "last of ties",
            "expected",
        ),
        (
            "            diverged = i\n            break\n",
            "            diverged = diverged if diverged is not None else i\n",
            "reads past the divergence",
            "past the divergence",
        ),
        (
            "return rates[lowest], None if diverged is None else rates[diverged]",
            "return lowest, diverged",
            "indices for rates",
            "index",
        ),
    ],
    "day37_regularization.py": [
        (
            "        m[i] = beta1 * m[i] + (1 - beta1) * g\n",
            "        g = g + weight_decay * params[i]\n        m[i] = beta1 * m[i] + (1 - beta1) * g\n",
            "L2 in the gradient",
            "L2 regularisation",
        ),
        (
            "(math.sqrt(v_hat) + eps) + weight_decay * params[i])",
            "(math.sqrt(v_hat) + eps)) + weight_decay * params[i]",
            "decay not times lr",
            "multiply the decay by the learning rate",
        ),
        (
            "params[i] -= lr * (m_hat / (math.sqrt(v_hat) + eps) + weight_decay * params[i])",
            "params[i] -= lr * m_hat / (math.sqrt(v_hat) + eps)\n"
            "        params[i] -= lr * weight_decay * params[i]",
            "decay after the step",
            "BEFORE the step",
        ),
        (
            "m_hat = m[i] / (1 - beta1**t)\n        v_hat = v[i] / (1 - beta2**t)",
            "m_hat = m[i]\n        v_hat = v[i]",
            "no bias correction",
            "correct m and v",
        ),
        (
            "m_hat = m[i] / (1 - beta1**t)\n        v_hat = v[i] / (1 - beta2**t)",
            "m_hat = m[i] / (1 - beta1 ** (t + 1))\n        v_hat = v[i] / (1 - beta2 ** (t + 1))",
            "t + 1",
            "number of this step",
        ),
        ("keep = 1.0 / (1.0 - p)", "keep = 1.0", "no 1 / (1 - p)", "divide the kept"),
        ("keep = 1.0 / (1.0 - p)", "keep = 1.0 - p", "scaled by 1 - p", "not 1 - p"),
        ("if rng.random() < p", "if rng.random() <= p", "u <= p", "equal to p"),
        ("if rng.random() < p", "if rng.random() >= p", "keeps with probability p", "dropped when"),
        (
            "    if not training:\n        return list(xs), [1.0] * len(xs)\n",
            "",
            "dropout in evaluation mode",
            "evaluation mode",
        ),
        (
            "return [g * mi for g, mi in zip(grads, mask)]",
            "return list(grads)",
            "mask ignored",
            "mask",
        ),
    ],
    "day38_diagnostics.py": [
        ("if abs(h) > threshold", "if abs(h) >= threshold", ">= at the threshold", "not above it"),
        ("if abs(h) > threshold", "if h > threshold", "one side only", "both sides"),
        ("return len(flat) / len(hs)", "return len(flat)", "a count", "the share"),
        ("for x in xs) / len(xs)", "for x in xs) / (len(xs) - 1)", "n - 1", "not n - 1"),
        ("return math.sqrt(variance)", "return variance", "no square root", "square root"),
        (
            "return math.log10(std(steps) / std(before))",
            "return std(steps) / std(before)",
            "no log10",
            "log10 of the ratio",
        ),
        (
            "return math.log10(std(steps) / std(before))",
            "return math.log(std(steps) / std(before))",
            "natural log",
            "base-10",
        ),
        (
            "return math.log10(std(steps) / std(before))",
            "return math.log10(std(before) / std(steps))",
            "turned over",
            "other way round",
        ),
        (
            "return math.log10(std(steps) / std(before))",
            "return math.log10(std(steps) / std(after))",
            "spread after the step",
            "BEFORE the step",
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
            "return (target_tokens + per_round - 1) // per_round",
            "return target_tokens // per_round",
            "micro-batches rounded down",
            "round UP",
        ),
        (
            "return (target_tokens + per_round - 1) // per_round",
            "return target_tokens // per_round + 1",
            "always one micro-batch more",
            "no extra micro-batch",
        ),
        (
            "per_round = batch_size * block_size * n_gpus",
            "per_round = batch_size * block_size",
            "GPUs left out",
            "divide by n_gpus",
        ),
        (
            "per_second = n_gpus * flops_per_gpu * utilisation",
            "per_second = n_gpus * flops_per_gpu",
            "utilisation forgotten",
            "use it",
        ),
        (
            "per_second = n_gpus * flops_per_gpu * utilisation",
            "per_second = n_gpus * flops_per_gpu / utilisation",
            "utilisation the wrong way",
            "FEWER",
        ),
        (
            "return seconds / (24 * 60 * 60)",
            "return seconds / (60 * 60)",
            "hours, not days",
            "86,400 seconds",
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


# A diagnosis must not fire when its premise is false. Per planted bug, what its feedback
# once said that the bug does not do (each a regular expression no message may match):
# two bugs that give the same number were told as the first one listed, or a hint said
# what the file already does. Every other planted bug's messages were read for the same.
FALSE_PREMISES = {
    ("day05_add_mul.py", "flipped sign in mul"): [
        r"does its _backward add anything",  # it adds, and subtracts: b * b cancels
        r"_backward of \+ seems",  # + is right
    ],
    ("day06_backward.py", "forward order"): [r"set self\.grad = 1\.0"],  # the seed is set
    ("day06_backward.py", "only the output"): [
        r"set self\.grad = 1\.0",
        r"from the leaves up",  # it runs the order reversed; the order holds the output alone
    ],
    ("day13_training_loop.py", "zero_grad does nothing"): [
        r"call zero_grad\(params\) before loss\.backward\(\)$"  # it is called
    ],
    ("day19_softmax.py", "no normalisation"): [r"subtract the largest logit before exp"],
    ("day21_mlp_language_model.py", "no output bias"): [
        r"no gradient reached this weight: build h"  # b2 is not used at all
    ],
    ("day31_tensors.py", "the smaller size kept"): [r"lined up from the RIGHT"],
    ("day35_overfitting.py", "patience off by one"): [r"EQUAL to the best"],
    ("day35_overfitting.py", "best with hindsight"): [r"EQUAL to the best"],
    ("day37_regularization.py", "keeps with probability p"): [r"a draw equal to p keeps"],
    ("day39_bpe.py", "pairs across sequences"): [r"met FIRST"],
    ("day39_bpe.py", "last id lost"): [r"met FIRST"],
    ("day40_top_k_top_p.py", "every tie with the k-th kept"): [r"divide the kept probabilities"],
    ("day40_top_k_top_p.py", "a total exactly p kept going"): [r"divide the kept probabilities"],
    ("day40_top_k_top_p.py", "index order"): [r"reaches p exactly"],
}
# What the feedback of a planted bug must say instead (a regular expression).
TRUE_PREMISES = {
    ("day06_backward.py", "forward order"): r"in reversed order, from the output down",
    ("day39_bpe.py", "last of equal pairs"): r"met FIRST",
}
PREMISE_CASES = [(exercise, old, new, bug) for exercise, old, new, bug, _ in CASES]


@pytest.mark.parametrize(
    "exercise, old, new, bug", PREMISE_CASES, ids=[f"{c[0][:5]}-{c[3]}" for c in PREMISE_CASES]
)
def test_no_message_asserts_a_false_premise(exercise, old, new, bug):
    failures = mutant_failures(exercise, old, new)
    for pattern in FALSE_PREMISES.get((exercise, bug), []):
        told = [m for m in failures if re.search(pattern, m)]
        assert not told, f"{bug}: a message says what the file does not do: {told[0]}"
    if (exercise, bug) in TRUE_PREMISES:
        assert any(re.search(TRUE_PREMISES[exercise, bug], m) for m in failures), failures[:3]


def test_the_premise_table_names_planted_bugs():
    planted = {(exercise, bug) for exercise, _, _, bug, _ in CASES}
    assert set(FALSE_PREMISES) | set(TRUE_PREMISES) <= planted

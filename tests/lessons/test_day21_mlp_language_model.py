"""Day 21: the tiny forward and backward pass worked with plain floats, the training examples,
and the trained model's held-out loss against the counting model."""

import math
import random
import re
from collections import Counter

import pytest

from .pages import ROOT, assert_states, lesson

PAGE = lesson("day21_mlp_language_model")
NAMES = (ROOT / "engine" / "data" / "names.txt").read_text(encoding="utf-8").split()


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_worked_example_by_hand():
    C, W1, W2 = [1.0, -1.0, 0.5], [1.0, -1.0], [2.0, 0.0, -2.0]
    x = [C[2], C[0]]
    a = W1[0] * x[0] + W1[1] * x[1]
    assert a == -0.5
    h = math.tanh(a)
    assert_states(PAGE, h, "-0.462117")
    z = [w * h for w in W2]
    assert_states(PAGE, z[2], "0.924234")
    e = [math.exp(v) for v in z]
    p = [v / sum(e) for v in e]
    assert "p = [0.101317, 0.255312, 0.643371]" in PAGE.text
    for pi, shown in zip(p, ("0.101317", "0.255312", "0.643371")):
        assert_states(PAGE, pi, shown)
    assert_states(PAGE, -math.log(p[2]), "0.441034")
    dz = [p[0], p[1], p[2] - 1]
    assert_states(PAGE, dz[2], "-0.356629")
    dh = sum(w * g for w, g in zip(W2, dz))
    assert_states(PAGE, dh, "0.915892")
    assert_states(PAGE, 1 - h * h, "0.786448")
    da = dh * (1 - h * h)
    assert_states(PAGE, da, "0.720301")
    assert "\\partial L / \\partial C[0] = -1 \\times 0.720301 = -0.720301" in PAGE.text


def test_worked_example_cell(namespace):
    # the first cell's tables were rebound later; its printed loss is recomputed here
    tiny = PAGE.cells[0]
    ns = {}
    exec(tiny, ns)
    assert [row[0].grad for row in ns["C"]] == pytest.approx([-0.720301, 0.0, 0.720301], abs=1e-6)
    assert ns["loss"].data == pytest.approx(0.441034, abs=1e-6)


def test_examples_slide(namespace):
    ex = namespace["examples"](["ava"])
    bos = 26
    assert ex == [((bos, bos, bos), 0), ((bos, bos, 0), 21), ((bos, 0, 21), 0), ((0, 21, 0), bos)]
    total = len(namespace["train"]) + len(namespace["test"])
    assert total == sum(len(n) + 1 for n in NAMES)


def test_trained_model_beats_counting(namespace):
    shuffled = list(NAMES)
    random.Random(0).shuffle(shuffled)
    cut = round(len(shuffled) * 0.9)
    train, test = shuffled[:cut], shuffled[cut:]
    counts, totals = Counter(), Counter()
    for n in train:
        s = "." + n + "."
        for a, b in zip(s, s[1:]):
            counts[(a, b)] += 1
            totals[a] += 1
    pairs = [(a, b) for n in test for a, b in zip("." + n + ".", n + ".")]
    bigram = -sum(math.log((counts[p] + 1) / (totals[p[0]] + 27)) for p in pairs) / len(pairs)
    assert_states(PAGE, bigram, "2.3474")
    held_out = namespace["score"](namespace["test"])
    assert_states(PAGE, held_out, "2.2728")
    assert held_out < bigram
    assert_states(PAGE, len(namespace["params"]), "1,415")
    assert len(namespace["params"]) == 27 * 4 + 32 * 12 + 32 + 27 * 32 + 27
    assert namespace["losses"][0] == pytest.approx(math.log(27), abs=0.05)


def test_try_this_same_token_in_both_slots():
    ns = {}
    exec(PAGE.cells[0].replace("context, target = [2, 0], 2", "context, target = [2, 2], 2"), ns)
    assert ns["context"] == [2, 2]
    # +2 from one slot, -2 from the other
    assert ns["C"][2][0].grad == pytest.approx(0.0, abs=1e-15)


def test_the_starting_scales_keep_sums_near_1_and_logits_near_0(namespace):
    cell = next(c for c in PAGE.cells if "rng = random.Random(21)" in c)
    for line in (
        "C = [[Value(rng.gauss(0, 1)) for _ in range(E)] for _ in range(V)]",
        "W1 = [[Value(rng.gauss(0, (block_size * E) ** -0.5)) for _ in range(block_size * E)]",
        "W2 = [[Value(rng.gauss(0, 0.1 * D ** -0.5)) for _ in range(D)] for _ in range(V)]",
    ):
        assert line in cell
    # The same draws as the cell, in plain floats, before any training step.
    V, d, D, B = 27, 4, 32, 3
    rng = random.Random(21)
    C = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(V)]
    W1 = [[rng.gauss(0, (B * d) ** -0.5) for _ in range(B * d)] for _ in range(D)]
    W2 = [[rng.gauss(0, 0.1 * D**-0.5) for _ in range(D)] for _ in range(V)]
    sums, logits = [], []
    for context, _ in namespace["train"][:2000]:
        x = [v for t in context for v in C[t]]
        a = [sum(w * xi for w, xi in zip(row, x)) for row in W1]
        h = [math.tanh(v) for v in a]
        assert max(abs(v) for v in h) < 1
        sums += a
        logits += [sum(w * hi for w, hi in zip(row, h)) for row in W2]

    def rms(values):
        return math.sqrt(sum(v * v for v in values) / len(values))

    assert 0.7 < rms(sums) < 1.4  # "about 1 in size"
    assert rms(logits) < 0.1  # "a standard deviation of at most 0.1"
    text = " ".join(PAGE.text.split())
    assert "The variance of a sum of independent terms is the sum of their variances" in text


def test_mini_batches_and_decay_as_stated(namespace):
    assert_states(PAGE, len(namespace["train"]), "32,452")
    cell = next(c for c in PAGE.cells if "rng = random.Random(21)" in c)
    assert "batch = rng.sample(train, 24)" in cell
    assert "optimizer.lr = lr * (1 - step / steps)" in cell
    assert "Adam(params, lr=0.03), 600, 0.03" in cell
    assert_states(PAGE, 0.03 * (1 - 0 / 600), "0.03")
    assert_states(PAGE, 0.03 * (1 - 599 / 600), "0.00005")


def test_sampling_needs_float_weights(namespace):
    softmax, logits, V = (namespace[k] for k in ("softmax", "logits", "V"))
    probs = softmax(logits([26, 26, 26]))
    rng = random.Random(0)
    with pytest.raises(TypeError):
        rng.choices(range(V), weights=probs)
    token = rng.choices(range(V), weights=[p.data for p in probs])[0]
    assert 0 <= token < V
    text = " ".join(PAGE.text.split())
    assert "`rng.choices(range(V), weights=[p.data for p in softmax(logits(context))])[0]`" in text
    assert "`rng.choices` fails with a `TypeError`" in text


def test_hint_asks_for_the_logits_only():
    hints = PAGE.exercises[0]["hints"]
    assert not any("the loss is" in h for h in hints)
    assert any("Return the logits themselves" in h and "no loss" in h for h in hints)


def test_the_hidden_width_is_d_and_words_come_before_their_use():
    # H is the number of attention heads from day 23; day 21's hidden width is D.
    assert "$D$ hidden neurons" in PAGE.text
    assert "V, E, D = tok.vocab_size, 4, 32" in PAGE.text
    assert not any(word == "H" for word in re.findall(r"\w+", PAGE.text))
    # the transpose and R^n are said before they are used
    text = PAGE.text
    assert text.index("**transpose**") < text.index("^\\top")
    assert text.index("is the set of lists of $n$ real") < text.index("\\mathbb{R}^{3E}")
    # where `linear` comes from
    assert text.index("`linear(x, W)` is the product") < text.index("linear(x, W1)")


def test_the_training_cell_shows_its_progress():
    # 13 to 15 s in a browser: the cell redraws one progress bar as it trains.
    cell = next(c for c in PAGE.cells if "optimizer.step()" in c)
    assert "progress(step + 1, steps" in cell and '.show(key="bar")' in cell


def test_a_small_w2_starts_the_layers_below_with_small_gradients(namespace):
    # The explanation of `why-w2-starts-small`: dL/dh passes through W2, dL/dW2 does not
    # scale with W2. Plain floats, the first batch's examples, W2 at 0.1 and at 1 times
    # W1's rule (the same random draws otherwise).
    V, E, D, B = 27, 4, 32, 3
    examples = namespace["train"][:200]

    def grad_sizes(scale):
        rng = random.Random(21)
        C = [[rng.gauss(0, 1) for _ in range(E)] for _ in range(V)]
        W1 = [[rng.gauss(0, (B * E) ** -0.5) for _ in range(B * E)] for _ in range(D)]
        W2 = [[rng.gauss(0, scale * D**-0.5) for _ in range(D)] for _ in range(V)]
        g1 = g2 = 0.0
        for context, y in examples:
            x = [v for t in context for v in C[t]]
            h = [math.tanh(sum(w * xi for w, xi in zip(row, x))) for row in W1]
            z = [sum(w * hj for w, hj in zip(row, h)) for row in W2]
            m = max(z)
            e = [math.exp(v - m) for v in z]
            dz = [v / sum(e) - (i == y) for i, v in enumerate(e)]
            g2 += sum((dz[i] * h[j]) ** 2 for i in range(V) for j in range(D))
            dh = [sum(dz[i] * W2[i][j] for i in range(V)) for j in range(D)]
            da = [g * (1 - hj * hj) for g, hj in zip(dh, h)]
            g1 += sum((g * xi) ** 2 for g in da for xi in x)
        return math.sqrt(g1), math.sqrt(g2)

    small_w1, small_w2 = grad_sizes(0.1)
    full_w1, full_w2 = grad_sizes(1.0)
    assert small_w1 < 0.2 * full_w1  # the layers below start with small gradients
    assert small_w2 > 0.5 * full_w2  # W2's own gradient is not small
    assert "`b1` start with small gradients" in " ".join(PAGE.text.split())

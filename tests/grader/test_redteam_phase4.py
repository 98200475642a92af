"""Marks for work not done on days 31 to 41, and the host behind them.

Each attack is a whole exercise file graded in the sandbox on the hidden cases of one
seed (what the score counts). Most are the course's reference with one function written
over by a cheat placed after it (a later `def` wins), so the test names exactly the
hidden cases the cheat may not pass; the rest are the untouched stub plus the cheat.
Before the fixes these earned marks:

- day 31/32: sums written for a matrix's two axes (the first and the last) passed the
  hidden sums, drawn on any axis; they are now drawn on a middle axis of 3 or 4;
- day 35: (len - 1, len - 1), no walk at all, passed the run that never stops, which
  always ended on a new best; it now ends 0 to patience - 1 evaluations after it;
- day 36: a range test that never diverges was only public: returning the last rate
  for "never diverged" passed every hidden case;
- day 37: evaluation mode is the identity, so `return list(xs), [1.0] * len(xs)` passed
  it; the hidden case now also makes a training call in the same child (`then`);
- day 38: one activation above the threshold on each side: `2 / len(hs)` passed about
  half the seeds; the number on each side is now random;
- day 40: engine.gpt kept `_keep`, filter_probs's renormalising; it is hidden with it.

The guesses that a small integer answer always allows are bounded over many seeds on the
trusted side alone (forged values, no learner code run).
"""

import random
import textwrap

import pytest

from grader.checks import check_module
from grader.grade import Budget, judge
from grader.sandbox import Limits, Sandbox, detect
from grader.verdict import verdict

from .helpers import LEVELS, ROOT, make_sandbox, tree_digest

SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"


def _hidden(exercise, source, seed, level=None):
    """{hidden case name: (passed, message)} for `source` graded in the sandbox (the
    default level, or `level`)."""
    limits = Limits(wall_seconds=5.0, cpu_seconds=5)
    sandbox = Sandbox(detect().level, limits) if level is None else make_sandbox(level, limits)
    budget = Budget({exercise: source.encode()}, sandbox, budget=120)
    out = {}
    for case in check_module(exercise).hidden_cases(random.Random(seed)):
        status, message = judge(exercise, case, budget.run(exercise, case))
        assert status != "error", message
        out[case["name"]] = (status == "passed", message)
    return out


def _over(base, cheat):
    """The reference (base="solution") or the stub (base="stub") with `cheat` after it."""

    def make(exercise):
        folder = SOLUTIONS if base == "solution" else EXERCISES
        return (folder / exercise).read_text() + "\n\n" + textwrap.dedent(cheat)

    return make


ALL = "every hidden case"

# id: (exercise, source maker, seed, the hidden cases it must fail: a set, or ALL)
ATTACKS = {
    # -- fixed ------------------------------------------------------------------------------
    "day31 sums for a matrix's two axes only": (
        "day31_tensors.py",
        _over(
            "solution",
            """
            def sum_axis(data, shape, axis, keepdims=False):
                if axis == len(shape) - 1:  # the columns' way: consecutive runs
                    n = shape[-1]
                    out = [sum(data[i : i + n]) for i in range(0, len(data), n)]
                else:  # the rows' way: every row added up
                    rest = len(data) // shape[0]
                    out = [sum(data[i::rest]) for i in range(rest)]
                new = list(shape)
                if keepdims:
                    new[axis] = 1
                else:
                    del new[axis]
                return out, tuple(new)
            """,
        ),
        1,  # passed both hidden sums before the fix
        {"a middle axis of a random tensor", "a middle axis of a random tensor, keepdims"},
    ),
    "day32 sum backward for the first and last axis only": (
        "day32_tensor_backward.py",
        _over(
            "solution",
            """
            def sum_axis_backward(grad, shape, axis, mean=False):
                size = 1
                for s in shape:
                    size *= s
                scale = 1.0 / shape[axis] if mean else 1.0
                if axis == len(shape) - 1:
                    return [grad[i // shape[axis]] * scale for i in range(size)]
                rest = size // shape[0]
                return [grad[i % rest] * scale for i in range(size)]
            """,
        ),
        0,  # passed both hidden sums before the fix
        {"a random sum over a middle axis", "a random mean over a middle axis"},
    ),
    "day35 (len - 1, len - 1) without walking": (
        "day35_overfitting.py",
        _over(
            "solution",
            """
            def early_stopping(dev_losses, patience):
                return len(dev_losses) - 1, len(dev_losses) - 1
            """,
        ),
        0,
        {"a random curve that turns up", "a random curve that never waits long enough"},
    ),
    "day36 the last rate when nothing diverged": (
        "day36_learning_rate.py",
        _over(
            "solution",
            """
            def range_test_pick(rates, losses, k=4.0):
                lowest = 0
                for i in range(1, len(losses)):
                    if losses[i] > k * losses[lowest]:
                        return rates[lowest], rates[i]
                    if losses[i] < losses[lowest]:
                        lowest = i
                return rates[lowest], rates[-1]  # None forgotten
            """,
        ),
        0,  # 3 of 3 before the fix
        {"a random range test that never diverges"},
    ),
    "day37 no dropout at all": (
        "day37_regularization.py",
        _over(
            "solution",
            """
            def dropout_forward(xs, p, rng, training=True):
                return list(xs), [1.0] * len(xs)
            """,
        ),
        0,
        {"random numbers, p and draws", "evaluation mode, random numbers"},
    ),
    "day38 two saturated of n, not counted": (
        "day38_diagnostics.py",
        _over(
            "solution",
            """
            def saturation(hs, threshold=0.97):
                return 2 / len(hs)
            """,
        ),
        0,  # passed at this seed before the fix
        {"random activations, one on the threshold"},
    ),
    "day40 engine.gpt's _keep renormalises the top k": (
        "day40_top_k_top_p.py",
        _over(
            "stub",
            """
            def top_k_filter(probs, k):
                from engine.gpt import _keep
                return _keep(probs, sorted(range(len(probs)), key=lambda i: -probs[i])[:k])
            """,
        ),
        0,
        ALL,
    ),
    # -- already earning nothing ------------------------------------------------------------
    "day31 objects equal to anything, NaN, lists that lie about their length": (
        "day31_tensors.py",
        _over(
            "stub",
            """
            class Anything(float):
                def __eq__(self, other):
                    return True
                __hash__ = float.__hash__

            class Whole(int):
                def __eq__(self, other):
                    return True
                __hash__ = int.__hash__

            class Liar(list):
                def __len__(self):
                    return 4

            def broadcast_shape(a, b):
                return Liar([Whole(3)] * 5)

            def broadcast_to(data, shape, out_shape):
                return Liar([Anything(0.0)] * 4)

            def sum_axis(data, shape, axis, keepdims=False):
                return [float("nan")] * 64, (Whole(2), Whole(2))

            def matmul(a, a_shape, b, b_shape):
                return [Anything(1.0)] * 25, Liar([True, True])
            """,
        ),
        0,
        ALL,
    ),
    "day31 ValueError raised on every pair of shapes": (
        "day31_tensors.py",
        _over(
            "stub",
            """
            def broadcast_shape(a, b):
                raise ValueError(f"{a} and {b} do not broadcast")
            """,
        ),
        0,
        ALL,
    ),
    "day32 the upstream gradient cut to length, zeros elsewhere": (
        "day32_tensor_backward.py",
        _over(
            "stub",
            """
            def unbroadcast(grad, grad_shape, shape):
                return list(grad[: size(shape)])

            def sum_axis_backward(grad, shape, axis, mean=False):
                return [0.0] * size(shape)

            def matmul_backward(a, b, grad, n, k, m):
                return [0.0] * (n * k), [0.0] * (k * m)
            """,
        ),
        0,
        ALL,
    ),
    "day33 NaN and infinity of the right shapes": (
        "day33_batches.py",
        _over(
            "stub",
            """
            def embed_batch(C, X):
                return [[[float("nan")] * len(C[0]) for _ in row] for row in X]

            def flatten_batch(emb):
                return [[float("inf")] * len(ex) * len(ex[0]) for ex in emb]

            def batch_linear(x, W, b):
                return [[float("inf")] * len(W) for _ in x]

            def batch_loss(logits, Y):
                return float("nan")
            """,
        ),
        0,
        ALL,
    ),
    "day33 a loss without the maximum subtracted": (
        "day33_batches.py",
        _over(
            "solution",
            """
            def batch_loss(logits, Y):
                import math
                total = sum(math.log(sum(math.exp(z) for z in r)) - r[y] for r, y in zip(logits, Y))
                return total / len(Y)
            """,
        ),
        0,
        {"random logits around 800"},
    ),
    "day34 ValueError for every split, no valid call made": (
        "day34_batched_attention.py",
        _over(
            "solution",
            """
            def split_heads(X, n_head):
                raise ValueError("the width must split into equal heads")
            """,
        ),
        0,
        {"random rows cut into random heads", "a random width that does not split into the heads"},
    ),
    "day34 attention without the mask": (
        "day34_batched_attention.py",
        _over(
            "solution",
            """
            def attention_weights(Q, K):
                d = len(Q[0])
                return [softmax([dot(q, k) / d ** 0.5 for k in K]) for q in Q]

            def dot(a, b):
                return sum(x * y for x, y in zip(a, b))
            """,
        ),
        0,
        {"random queries and keys", "random queries, keys and values"},
    ),
    "day35 the best read from the whole list": (
        "day35_overfitting.py",
        _over(
            "solution",
            """
            def early_stopping(dev_losses, patience):
                best = min(range(len(dev_losses)), key=dev_losses.__getitem__)
                return best, len(dev_losses) - 1
            """,
        ),
        0,
        # right by definition when the run never stops: the lowest is the latest new best
        {"a random curve that turns up"},
    ),
    "day36 constant rates and no divergence": (
        "day36_learning_rate.py",
        _over(
            "stub",
            """
            def warmup_cosine(step, warmup, steps, lr_max, lr_min):
                return lr_max

            def range_test_rates(lr_start, lr_end, n):
                return [lr_start] * n

            def range_test_pick(rates, losses, k=4.0):
                return rates[0], None
            """,
        ),
        0,
        ALL,
    ),
    "day37 gradients passed through, the mask ignored": (
        "day37_regularization.py",
        _over(
            "solution",
            """
            def dropout_backward(grads, mask):
                return list(grads)
            """,
        ),
        0,
        {"random gradients through a random mask"},
    ),
    "day38 the natural log, the spread with n - 1": (
        "day38_diagnostics.py",
        _over(
            "solution",
            """
            import statistics

            def std(xs):
                return statistics.stdev(xs)

            def update_ratio(before, after):
                steps = [b - a for a, b in zip(before, after)]
                return math.log(statistics.pstdev(steps) / statistics.pstdev(before))
            """,
        ),
        0,
        {"random numbers", "a random step"},
    ),
    "day39 counts sorted, merges overlapping, halves swapped": (
        "day39_bpe.py",
        _over(
            "solution",
            """
            def pair_counts(sequences):
                counts = {}
                for ids in sequences:
                    for pair in zip(ids, ids[1:]):
                        counts[pair] = counts.get(pair, 0) + 1
                return dict(sorted(counts.items()))

            def merge(ids, pair, new_id):
                out = []
                for t, x in enumerate(ids):
                    if t + 1 < len(ids) and (x, ids[t + 1]) == tuple(pair):
                        out.append(new_id)
                    elif not (t and (ids[t - 1], x) == tuple(pair)):
                        out.append(x)
                return out

            def decode(ids, chars, merges):
                pieces = list(chars)
                for a, b in merges:
                    pieces.append(pieces[b] + pieces[a])
                return "".join(pieces[i] for i in ids)
            """,
        ),
        0,
        {  # train() of the reference counts and merges with these too
            "random sequences",
            "a pair of one id in a run",
            "a random corpus with equal counts",
            "more merges than the corpus allows",
            "random ids of random merges",
        },
    ),
    "day40 the answers from engine.gpt, through every name it keeps": (
        "day40_top_k_top_p.py",
        _over(
            "stub",
            """
            import engine.gpt as _gpt

            def _any(*names):
                for name in names:
                    try:
                        return getattr(_gpt, name)
                    except (AttributeError, ImportError):
                        pass
                raise ImportError("none")

            def top_k_filter(probs, k):
                return _any("filter_probs")(probs, top_k=k)

            def top_p_filter(probs, p):
                return _any("filter_probs")(probs, top_p=p)

            def next_token(logits, temperature, top_k, top_p, u):
                q = _any("sampling_probs")(logits, temperature, top_k, top_p)
                return draw(q, u)
            """,
        ),
        0,
        ALL,
    ),
    "day41 the 12 L E^2 rule of thumb, days too large for a float": (
        "day41_pytorch.py",
        _over(
            "solution",
            """
            def parameter_count(vocab_size, block_size, n_layer, n_embd, bias=True, tied=True,
                                count_positions=True):
                positions = block_size * n_embd if count_positions else 0
                return 12 * n_layer * n_embd**2 + vocab_size * n_embd + positions

            def training_days(flops, n_gpus, flops_per_gpu, utilisation):
                return 10**400
            """,
        ),
        0,
        {
            "random sizes, setting 1",
            "random sizes, setting 2",
            "random sizes, setting 3",
            "random sizes, setting 4",
            "the days of a random run",
        },
    ),
}

# Exercises whose own answers engine/ holds (engine.tensor, engine.batched's AdamW,
# engine.batched_gpt's causal_mask, engine.schedule, engine.regularize,
# engine.diagnostics, engine.data): their sandboxes hold no engine at all.
FROM_THE_ENGINE = {
    "day31_tensors.py": "from engine.tensor import broadcast_shape",
    "day32_tensor_backward.py": "from engine.tensor import Tensor",
    "day33_batches.py": "from engine.batched import MLPLM",
    "day34_batched_attention.py": "from engine.batched_gpt import causal_mask",
    "day35_overfitting.py": "from engine.data import split_three",
    "day36_learning_rate.py": "from engine.schedule import lr_at",
    "day37_regularization.py": "from engine.batched import AdamW\nfrom engine.regularize import dropout",
    "day38_diagnostics.py": "from engine.diagnostics import saturation, std, update_ratio",
    "day41_pytorch.py": "import engine",
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_cheat_earns_no_hidden_mark(name):
    exercise, make, seed, must_fail = ATTACKS[name]
    results = _hidden(exercise, make(exercise), seed)
    failed = {n for n, (passed, _) in results.items() if not passed}
    assert failed == (set(results) if must_fail is ALL else must_fail), {
        n: m for n, (_, m) in results.items()
    }


@pytest.mark.parametrize("exercise", sorted(FROM_THE_ENGINE))
def test_no_engine_in_the_sandbox_of_a_day_whose_answer_it_holds(exercise):
    assert not check_module(exercise).NEEDS_ENGINE
    source = (EXERCISES / exercise).read_text() + "\n" + FROM_THE_ENGINE[exercise] + "\n"
    results = _hidden(exercise, source, 0)
    assert not [n for n, (passed, _) in results.items() if passed]
    assert all("No module named 'engine'" in m for _, m in results.values()), results


def test_the_view_of_day40_keeps_no_piece_of_the_filters():
    from grader.engine_view import staged_engine

    gpt = staged_engine(check_module("day40_top_k_top_p.py").ENGINE)["engine/gpt.py"].decode()
    for name in ("filter_probs", "sampling_probs", "_keep", "sample", "sample_names"):
        assert f"\ndef {name}(" not in gpt, name
    assert "def next_token_probs(" in gpt  # day 27's, which the stub imports


# -- the guesses a small whole-number answer allows, bounded over many seeds --------------

SEEDS = range(300)


def _share(exercise, index, values_of):
    """The share of SEEDS whose hidden case `index` passes the forged `values_of(case)`."""
    check = check_module(exercise)
    hits = 0
    for seed in SEEDS:
        case = check.hidden_cases(random.Random(seed))[index]
        hits += verdict(check.expect(case), values_of(case))[0]
    return hits / len(SEEDS)


def test_no_guess_of_where_a_never_stopping_run_kept_its_best_passes_often():
    def guess(back):
        def values(case):
            n = len(case["inputs"]["losses"])
            return {"best": float(n - 1 - back), "stop": float(n - 1)}

        return values

    shares = [_share("day35_overfitting.py", 2, guess(back)) for back in range(4)]
    assert max(shares) <= 0.25, shares  # (len - 1, len - 1) passed every seed before


def test_no_guess_of_how_many_activations_are_saturated_passes_often():
    def guess(k):
        return lambda case: {"saturation": k / len(case["inputs"]["hs"])}

    shares = [_share("day38_diagnostics.py", 0, guess(k)) for k in range(8)]
    assert max(shares) <= 0.25, shares  # 2 / n passed about half the seeds before


def test_evaluation_mode_alone_never_passes_the_hidden_case():
    def identity(case):
        xs = case["inputs"]["xs"]
        values = {"calls": 0.0, "len(mask)": float(len(xs)), "len(out)": float(len(xs))}
        values.update({f"mask[{i}]": 1.0 for i in range(len(xs))})
        values.update({f"out[{i}]": x for i, x in enumerate(xs)})
        then = case["inputs"]["then"]["inputs"]["xs"]  # the training call, as identity too
        values.update({f"then: {k}": v for k, v in identity_of(then).items()})
        return values

    def identity_of(xs):
        out = {"calls": float(len(xs)), "len(mask)": float(len(xs)), "len(out)": float(len(xs))}
        out.update({f"mask[{i}]": 1.0 for i in range(len(xs))})
        out.update({f"out[{i}]": x for i, x in enumerate(xs)})
        return out

    assert _share("day37_regularization.py", 2, identity) == 0


def test_every_seed_has_a_range_test_that_never_diverges():
    from grader.checks.day36_learning_rate import _pick

    check = check_module("day36_learning_rate.py")
    for seed in SEEDS:
        picks = [c for c in check.hidden_cases(random.Random(seed)) if c["kind"] == "pick"]
        outcomes = [_pick(c["inputs"]["losses"], c["inputs"]["k"]) for c in picks]
        assert {d is None for _, d in outcomes} == {True, False}, seed
        # and the lowest is no fixed place: neither the first nor the last loss
        assert all(0 < low < len(c["inputs"]["losses"]) - 1 for c, (low, _) in zip(picks, outcomes))


@pytest.mark.parametrize(
    "exercise, kind", [("day31_tensors.py", "sum"), ("day32_tensor_backward.py", "sum")]
)
def test_every_hidden_sum_is_over_a_middle_axis(exercise, kind):
    check = check_module(exercise)
    for seed in SEEDS:
        for case in check.hidden_cases(random.Random(seed)):
            if case["kind"] == kind:
                assert 0 < case["inputs"]["axis"] < len(case["inputs"]["shape"]) - 1, seed


# -- the host, from a submission for a new day ----------------------------------------------

HOST = """
import os

FOUND = []
for path in (
    %(checks)r,
    %(root)r + "/grader/checks/day35_overfitting.py",
    "/proc/1/cmdline",
    "/proc/1/environ",
    "/proc/self/environ",
):
    try:
        with open(path, "rb") as handle:
            FOUND.append((path, handle.read(4096)))
    except OSError:
        pass
for path in (%(outside)r, "/tmp/../" + %(outside)r):
    try:
        with open(path, "w") as handle:
            handle.write("written from the sandbox")
    except OSError:
        pass


def three_way_split(items, n_dev, n_test, seed):
    # a result line of its own, on every descriptor it may hold (the grader's among them)
    forged = b'{"nonce": "x", "outcome": {"values": {"len(train)": 0.0}, "invalid": {}}}\\n'
    for fd in range(1, 64):
        try:
            os.write(fd, forged)
        except OSError:
            pass
    return [], [], []


def early_stopping(dev_losses, patience):
    for path, text in FOUND:
        if b"def _stopping" in text:  # the trusted check: run its own answer
            namespace = {}
            exec(text.decode().replace("from .cases", "from grader.checks.cases"), namespace)
            return namespace["_stopping"](dev_losses, patience)
    raise ValueError("read: " + repr([path for path, _ in FOUND]))
"""


@pytest.mark.parametrize("level", LEVELS[:2])  # bwrap and uid: the levels that grade a class
def test_a_new_day_cannot_read_the_checks_write_out_or_forge_a_result(tmp_path, level):
    outside = tmp_path / "escaped.txt"
    values = {
        "checks": str(ROOT / "grader" / "checks" / "day35_overfitting.py"),
        "root": str(ROOT),
        "outside": str(outside),
    }
    before = tree_digest()
    results = _hidden("day35_overfitting.py", HOST % values, 4, level)
    assert not [n for n, (passed, _) in results.items() if passed], results
    assert not outside.exists() and tree_digest() == before
    # the checks were out of sight (only the sandbox's own /proc could be read)
    for name in ("a random curve that turns up", "a random curve that never waits long enough"):
        message = results[name][1]
        assert "read: [" in message and "checks" not in message, message
    # the forged line either broke the one-line report or missed the grader's descriptor
    # (its number depends on what the grader holds open): judged a failure either way
    assert not results["random items, sizes and seed"][0]


@pytest.mark.parametrize(
    "exercise, cheat",
    [
        # 10^5 numbers where an embedding belongs, and nesting deeper than the runner reads
        (
            "day33_batches.py",
            """
            def embed_batch(C, X):
                return [[[0.0] * 10**5] * len(X[0])] * len(X)

            def flatten_batch(emb):
                deep = []
                for _ in range(10**5):
                    deep = [deep]
                return [deep]
            """,
        ),
        # a dict of 100,000 pairs, and a merge list of 100,000 merges
        (
            "day39_bpe.py",
            """
            def pair_counts(sequences):
                return {(i, i): 1 for i in range(10**5)}

            def train(sequences, first_id, num_merges):
                return [(0, 1)] * 10**5
            """,
        ),
    ],
)
def test_a_huge_or_deep_answer_is_refused_in_time(exercise, cheat):
    import time

    started = time.monotonic()
    results = _hidden(exercise, _over("stub", cheat)(exercise), 0)
    assert not [n for n, (passed, _) in results.items() if passed], results
    assert time.monotonic() - started < 60

"""Day 36: the schedule's worked example, the range test, the first Adam step with and
without warmup, the three decays and the three batch sizes.

Schedules are checked against their closed forms; the runs are made again by loops of the
test's own (the page's cells run as well, and must agree where they keep their results).
Timings are not asserted beyond their order: they are measurements, not facts.
"""

import math
import random
import statistics

import pytest

from engine.batched import Adam, batch, examples, init_mlp_lm
from engine.data import load_names, split_three
from engine.schedule import lr_at
from engine.tokenizer import Tokenizer

from .ahead import ahead
from .pages import assert_states, lesson

PAGE = lesson("day36_learning_rate")
TOK = Tokenizer()


def text():
    return " ".join(PAGE.text.split())


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def load():
    train_names, dev_names, _ = split_three(load_names(), seed=0)
    X, Y = examples([TOK.encode(n) for n in train_names], 3, TOK.bos)
    Xd, Yd = examples([TOK.encode(n) for n in dev_names[:100]], 3, TOK.bos)
    return X, Y, Xd, Yd


@pytest.fixture(scope="module")
def data():
    return load()


def cosine(step, warmup=20, steps=200, top=0.03, floor=0.003):
    if step < warmup:
        return top * (step + 1) / warmup
    return floor + (top - floor) * 0.5 * (
        1 + math.cos(math.pi * (step - warmup) / (steps - warmup))
    )


def test_worked_schedule_stated():
    for step, shown in [(0, "0.0015"), (9, "0.015"), (19, "0.03"), (20, "0.03"), (65, "0.026046")]:
        assert_states(PAGE, cosine(step), shown)
        assert lr_at(step, 20, 200, 0.03, 0.003) == pytest.approx(cosine(step), rel=1e-12)
    assert_states(PAGE, 0.03 - 0.027 * 0.25, "0.02325")
    assert_states(PAGE, lr_at(65, 20, 200, 0.03, 0.003, decay="linear"), "0.02325")
    assert_states(PAGE, cosine(110), "0.0165")
    assert_states(PAGE, lr_at(110, 20, 200, 0.03, 0.003, decay="linear"), "0.0165")
    assert_states(PAGE, cosine(155), "0.006954")
    assert_states(PAGE, cosine(155), "0.00695")
    assert_states(PAGE, 0.5 * (1 + math.cos(0.75 * math.pi)), "0.146447")
    assert_states(PAGE, math.cos(0.25 * math.pi), "0.707107")
    assert_states(PAGE, lr_at(155, 20, 200, 0.03, 0.003, decay="linear"), "0.00975")
    assert_states(PAGE, math.log(27), "3.3")


def test_range_test_stated(data, namespace):
    X, Y, _, _ = data
    model = init_mlp_lm(seed=0)
    optimizer = Adam(model.parameters())
    rng = random.Random(36)
    losses = []
    for k in range(101):
        xb, yb = batch(X, Y, 32, rng)
        model.zero_grad()
        loss = model.loss(xb, yb)
        loss.backward()
        optimizer.lr = 1e-4 * 10 ** (k / 20)
        optimizer.step()
        losses.append(loss.item())
        # the exercise's rule on the smoothed losses: stop above 4 times the lowest before
        smooth = [losses[0]]
        for value in losses[1:]:
            smooth.append(0.9 * smooth[-1] + 0.1 * value)
        if len(smooth) > 1 and smooth[-1] > 4 * min(smooth[:-1]):
            break
    assert namespace["range_losses"] == pytest.approx(losses) and len(losses) == 89
    assert namespace["smooth"] == pytest.approx(smooth)
    assert_states(PAGE, len(losses), "89")
    assert "The test stops after 89 steps" in text() and "The test saw 89 steps" in text()
    assert_states(PAGE, 1e-4 * 10 ** (88 / 20), "2.51")
    assert all(not smooth[i] > 4 * min(smooth[:i]) for i in range(1, len(smooth) - 1))
    # the running mean's lag: weights 0.1 * 0.9**j sit on average 9 steps back
    lag = sum(j * 0.1 * 0.9**j for j in range(2000))
    assert lag == pytest.approx(9, abs=1e-9)
    assert_states(PAGE, 10 ** (9 / 20), "2.8")
    low = min(range(len(smooth)), key=smooth.__getitem__)
    assert_states(PAGE, 1e-4 * 10 ** (low / 20), "0.141")
    assert_states(PAGE, smooth[low], "2.8805")
    assert_states(PAGE, smooth[40], "3.166")  # at a rate of 0.01
    assert abs(smooth[20] - smooth[0]) < 0.03  # "up to about 0.001 the loss barely moves"
    assert smooth[40] - smooth[60] > max(smooth[20] - smooth[40], smooth[0] - smooth[20])
    assert all(smooth[i] < smooth[i + 1] for i in range(72, 81))  # then it climbs
    assert_states(PAGE, len(X), "28,858")
    assert_states(PAGE, 1e-4 * 10 ** (60 / 20), "0.1")
    # "between about a fourteenth and a fifth of 0.141"
    assert round(0.141 / 0.01) == 14 and round(0.141 / 0.03) == 5
    assert "about a fourteenth and a fifth of 0.141" in text()
    assert math.log10(0.001) == -3 and math.log10(0.1) == -1


def test_first_step_with_and_without_warmup(data):
    X, Y, _, _ = data
    moves = {}
    for warmup, rate in ((0, 0.1), (20, 0.1 / 20)):
        model = init_mlp_lm(seed=0)
        optimizer = Adam(model.parameters(), lr=rate)
        before = list(model.W2.data)
        xb, yb = batch(X, Y, 32, random.Random(36))
        model.zero_grad()
        model.loss(xb, yb).backward()
        optimizer.step()
        moves[warmup] = sum(abs(a - b) for a, b in zip(model.W2.data, before)) / len(before)
    size = sum(abs(b) for b in before) / len(before)
    assert_states(PAGE, moves[0], "0.1000")
    assert_states(PAGE, moves[20], "0.0050")
    assert_states(PAGE, size, "0.0133")
    assert round(moves[0] / size) == 8 or moves[0] / size > 7  # "seven times their typical size"
    assert 7 <= moves[0] / size < 8
    assert_states(PAGE, 0.1 / 20, "0.005")  # the first warmup rate (question first-step-size)
    assert abs(moves[0] - 0.1) < 1e-3  # the marked answer: about the rate itself
    assert "[x] About 0.1, the rate itself, whatever the size of the gradient" in PAGE.text


def test_nanogpt_defaults_stated():
    # nanoGPT's train.py: learning_rate 6e-4, min_lr 6e-5 (a tenth), warmup_iters 2000
    assert_states(PAGE, 6e-4, "0.0006")
    assert_states(PAGE, 6e-4 / 10, "0.00006")
    assert "2,000 warmup steps" in text() and "(t + 1) / (t_w + 1)" in PAGE.text


def run(X, Y, Xd, Yd, decay, seed=None):
    model = init_mlp_lm(seed=0 if seed is None else seed)
    optimizer = Adam(model.parameters())
    rng = random.Random(36 if seed is None else seed)
    for step in range(200):
        xb, yb = batch(X, Y, 32, rng)
        model.zero_grad()
        model.loss(xb, yb).backward()
        optimizer.lr = (
            cosine(step) if decay == "cosine" else lr_at(step, 20, 200, 0.03, 0.003, decay=decay)
        )
        optimizer.step()
    return model.loss(Xd, Yd).item()


def decay_runs():
    """The dev loss of each decay's run, and cosine's minus linear's with seed 1."""
    data = load()
    devs = {d: run(*data, d) for d in ("constant", "linear", "cosine")}
    return devs, run(*data, "cosine", seed=1) - run(*data, "linear", seed=1)


DECAY_RUNS = ahead(decay_runs)  # made in another process while the page's cells run here


def test_three_decays_stated():
    devs, flipped = DECAY_RUNS()
    assert_states(PAGE, devs["constant"], "2.5279")
    assert_states(PAGE, devs["linear"], "2.4202")
    assert_states(PAGE, devs["cosine"], "2.4185")
    assert abs(devs["linear"] - devs["cosine"]) < 0.002
    assert devs["constant"] > devs["linear"] and devs["constant"] > devs["cosine"]
    assert "dev 2.4185 with the cosine against 2.5279 at a constant rate" in text()
    # "with seed 1 for the model and the batches, the linear decay ends 0.0008 lower"
    assert_states(PAGE, flipped, "0.0008")


def example_losses(model, xs, ys):
    """Each example's loss from the logits, with a log-sum-exp of the test's own."""
    rows = model.logits(xs).data
    out = []
    for i, y in enumerate(ys):
        z = rows[27 * i : 27 * (i + 1)]
        top = max(z)
        out.append(top + math.log(sum(math.exp(v - top) for v in z)) - z[y])
    return out


BATCH_SIZES = ((4, 960), (32, 120), (128, 30))  # (batch size, steps)


def batch_size_runs():
    """The dev loss after each batch size's run, and the batch-32 run's loss of each of
    2,000 examples drawn at random: the noise of a batch's loss at one set of weights."""
    X, Y, Xd, Yd = load()
    devs, models = {}, {}
    for batch_size, steps in BATCH_SIZES:
        model = init_mlp_lm(seed=0)
        optimizer = Adam(model.parameters(), lr=0.01)
        rng = random.Random(36)
        for _ in range(steps):
            xb, yb = batch(X, Y, batch_size, rng)
            model.zero_grad()
            model.loss(xb, yb).backward()
            optimizer.step()
        devs[batch_size], models[batch_size] = model.loss(Xd, Yd).item(), model
    xs, ys = batch(X, Y, 2000, random.Random(0))
    return devs, example_losses(models[32], xs, ys)


BATCH_SIZE_RUNS = ahead(batch_size_runs)  # made in another process while the cells run here


def test_batch_sizes_stated(namespace):
    assert all(batch_size * steps == 3840 for batch_size, steps in BATCH_SIZES)
    devs, losses = BATCH_SIZE_RUNS()
    for b, d in ((4, "2.4982"), (32, "2.5978"), (128, "2.7440")):
        assert_states(PAGE, devs[b], d)
    assert "3,840 examples each, drawn at random" in text()
    assert "same 3,840" not in text()

    # the noise of a batch's loss at one fixed set of weights: the batch-32 run's
    assert namespace["example_losses"] == pytest.approx(losses)
    sigma = statistics.pstdev(losses)
    assert_states(PAGE, sigma, "1.119")
    rng, spread = random.Random(36), {}
    for b in (4, 32, 128):
        spread[b] = statistics.pstdev(
            [statistics.fmean(rng.sample(losses, b)) for _ in range(2000)]
        )
        # drawn without replacement from 2,000: sigma / sqrt(B) times sqrt((N - B) / (N - 1))
        assert spread[b] == pytest.approx(
            sigma / math.sqrt(b) * math.sqrt(1999 - b + 1) / math.sqrt(1999), rel=0.05
        )
    for b, shown, predicted in (
        (4, "0.564", "0.560"),
        (32, "0.194", "0.198"),
        (128, "0.096", "0.099"),
    ):
        assert_states(PAGE, spread[b], shown)
        assert_states(PAGE, sigma / math.sqrt(b), predicted)
    assert_states(PAGE, spread[4] / spread[32], "2.91")
    assert_states(PAGE, spread[32] / spread[128], "2.01")
    assert_states(PAGE, math.sqrt(8), "2.83")


def test_the_page_cells_run(namespace):
    assert namespace["moved"] == pytest.approx(0.005, rel=1e-3)  # the last loop's, with warmup
    assert namespace["seconds"] > 0
    assert sorted(namespace["trained"]) == [4, 32, 128]

"""Day 37: L2 against decoupled decay in Adam, the dropout example, and the three runs.

Every number the page states is recomputed here without the page's cells: Adam and AdamW
as plain float recurrences, dropout's mask replayed from the same draws, and the three
training runs replayed with the test's own AdamW step and its own dropout mask (on the
engine's tensors), then compared with what the page's cells printed.
"""

import math
import random

import pytest

from engine.batched import batch, examples, init_mlp_lm
from engine.data import load_names, split_three
from engine.tensor import Tensor, cross_entropy
from engine.tokenizer import Tokenizer

from .ahead import ahead
from .pages import assert_states, lesson

PAGE = lesson("day37_regularization")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def text():
    return " ".join(PAGE.text.split())


# -- L2 in Adam against AdamW, on floats -------------------------------------------------


def adam_floats(grad_of, steps, lr, wd, decoupled, b1=0.9, b2=0.999, eps=1e-8, trace=None):
    """Two numbers from 1.0; grad_of(step, k) is the data's gradient of number k."""
    theta, m, v = [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]
    for t in range(1, steps + 1):
        if trace is not None:
            trace.append(list(theta))
        for k in range(2):
            g = grad_of(t - 1, k)
            if not decoupled:
                g += wd * theta[k]
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            ratio = (m[k] / (1 - b1**t)) / (math.sqrt(v[k] / (1 - b2**t)) + eps)
            theta[k] -= lr * (ratio + (wd * theta[k] if decoupled else 0.0))
    return theta


def grads(step, k):
    return 0.0 if k == 0 else (1.0 if step % 2 == 0 else -1.0)


def test_the_two_numbers_stated(namespace):
    l2 = adam_floats(grads, 200, 0.01, 0.1, decoupled=False)
    decoupled = adam_floats(grads, 200, 0.01, 0.1, decoupled=True)
    assert_states(PAGE, l2[0], "0.0156")
    assert_states(PAGE, l2[1], "0.8048")
    assert_states(PAGE, decoupled[0], "0.8186")
    assert_states(PAGE, decoupled[1], "0.8042")
    assert decoupled[0] == pytest.approx(0.999**200, rel=1e-12)  # "exactly" (1 - lr wd)^200
    for got, want in zip(namespace["two_numbers"](False), l2):
        assert got == pytest.approx(want, rel=1e-9)
    for got, want in zip(namespace["two_numbers"](True), decoupled):
        assert got == pytest.approx(want, rel=1e-9)


def test_the_idle_number_under_l2():
    trace = []
    adam_floats(grads, 200, 0.01, 0.1, decoupled=False, trace=trace)
    idle = [theta[0] for theta in trace] + [adam_floats(grads, 200, 0.01, 0.1, False)[0]]
    strides = [a - b for a, b in zip(idle, idle[1:])]
    assert_states(PAGE, strides[0], "0.01")  # the first step is the learning rate
    assert all(0.0099 < s < 0.0101 for s in strides[:10])  # "the first steps ... about 0.01"
    assert strides[-1] < strides[0] / 10  # they shrink as theta gets small
    assert_states(PAGE, idle[200], "0.016")
    assert idle[100] > 0.2  # not "close to 0" after a hundred steps
    assert "The first steps are strides of about 0.01 each" in text()
    assert "by step 200 the number is 0.016" in text()


def test_the_pull_table_stated():
    lr, wd, theta = 0.01, 0.1, 1.0
    assert_states(PAGE, wd * theta, "0.1")  # the rare parameter's sqrt(v_hat): the decay term
    assert_states(PAGE, lr * wd * theta / 1.0, "0.001")
    assert_states(PAGE, lr * wd * theta / 0.1, "0.01")
    assert "| L2 in Adam: $\\eta\\lambda\\theta / \\sqrt{\\hat v}$ | 0.001 | 0.01 |" in PAGE.text
    assert "| AdamW: $\\eta\\lambda\\theta$ | 0.001 | 0.001 |" in PAGE.text
    assert (lr * wd * theta / 0.1) / (lr * wd * theta / 1.0) == pytest.approx(10)
    assert "pulled 10 times harder" in text()
    assert lr * wd * theta / 0.1 == pytest.approx(lr)  # "already the whole step"
    # once the decay is all the gradient, one Adam step is about lr, whatever lambda
    for wd_ in (0.1, 1.0, 10.0):
        step = 1.0 - adam_floats(lambda s, k: 0.0, 1, lr, wd_, decoupled=False)[0]
        assert step == pytest.approx(lr, rel=1e-6)


def test_the_stubs_example_is_one_adamw_step():
    # exercises/day37's demo: gradients 0.5 and 0 at lr 0.01, decay 0.1, from 1.0
    theta = adam_floats(lambda s, k: 0.5 if k == 0 else 0.0, 1, 0.01, 0.1, decoupled=True)
    assert round(theta[0], 6) == 0.989 and round(theta[1], 6) == 0.999


# -- dropout ---------------------------------------------------------------------------------


def test_the_dropout_example_stated(namespace):
    h, us, p = [0.5, -0.2, 0.9, 0.4], [0.3, 0.8, 0.6, 0.1], 0.5
    mask = [0.0 if u < p else 1 / (1 - p) for u in us]
    assert mask == [0.0, 2.0, 2.0, 0.0]
    out = [m * x for m, x in zip(mask, h)]
    dh = [m * g for m, g in zip(mask, [0.2, -1.0, 0.5, 0.3])]
    assert out == pytest.approx([0.0, -0.4, 1.8, 0.0]) and dh == pytest.approx([0, -2, 1, 0])
    for stated in ("$[0, 2, 2, 0]$", "$[0, -0.4, 1.8, 0]$", "$[0, -2, 1, 0]$"):
        assert stated in PAGE.text
    assert namespace["out"].data == pytest.approx(out)
    assert namespace["h"].grad == pytest.approx(dh)


def test_the_ten_thousand_draws_stated(namespace):
    rng = random.Random(37)
    dropped = sum(rng.random() < 0.2 for _ in range(10_000))
    mean = (10_000 - dropped) * 1.25 / 10_000
    assert_states(PAGE, dropped, "1,957")
    assert_states(PAGE, 10_000 - dropped, "8,043")
    assert_states(PAGE, mean, "1.0054")
    assert namespace["kept"].count(0.0) == dropped


def nanogpt_lr(it, warmup=2000, decay_steps=600_000, lr=6e-4, min_lr=6e-5):
    """nanoGPT's learning rate at step `it` (its train.py: linear warmup, then cosine)."""
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    ratio = (it - warmup) / (decay_steps - warmup)
    return min_lr + 0.5 * (1 + math.cos(math.pi * ratio)) * (lr - min_lr)


def test_nanogpt_factors_stated():
    assert_states(PAGE, (1 - 0.005 * 0.1) ** 200, "0.905")
    assert_states(PAGE, (1 - 0.005 * 1.0) ** 200, "0.367")
    assert_states(PAGE, 1 - 0.005 * 0.1, "0.9995")
    ours = math.fsum(0.005 * 0.1 for _ in range(200))
    assert_states(PAGE, ours, "0.1")
    lrs = [nanogpt_lr(it) for it in range(600_000)]
    assert max(lrs) == pytest.approx(6e-4, rel=1e-3) and lrs[-1] == pytest.approx(6e-5, rel=1e-3)
    theirs = 0.1 * math.fsum(lrs)
    assert_states(PAGE, theirs, "20")
    assert theirs / ours == pytest.approx(200, rel=0.02) and "two hundred times more" in text()
    shrink = math.exp(math.fsum(math.log1p(-0.1 * lr) for lr in lrs))
    assert shrink == pytest.approx(math.exp(-20), rel=0.25)  # "about e^-20"
    assert "600,000 steps" in text()


# -- the three runs --------------------------------------------------------------------------


def data():
    tok = Tokenizer()
    train_names, dev_names, _ = split_three(load_names(), seed=0)
    X, Y = examples([tok.encode(n) for n in train_names[:60]], 3, tok.bos)
    Xdev, Ydev = examples([tok.encode(n) for n in dev_names[:60]], 3, tok.bos)
    return X, Y, Xdev, Ydev


def replay(X, Y, Xdev, Ydev, weight_decay=0.0, p=0.0):
    """The page's run, with the test's own AdamW step and dropout mask."""
    model = init_mlp_lm(n_embd=8, n_hidden=48, seed=37)
    params = model.parameters()
    m = [[0.0] * q.numel() for q in params]
    v = [[0.0] * q.numel() for q in params]
    data_rng, mask_rng, dev = random.Random(37), random.Random(38), []
    for t in range(1, 201):
        xb, yb = batch(X, Y, 32, data_rng)
        h = model.hidden(xb)
        if p:
            mask = [0.0 if mask_rng.random() < p else 1 / (1 - p) for _ in h.data]
            h = h * Tensor(mask, h.shape)
        loss = cross_entropy(h @ model.W2.T + model.b2, yb)
        model.zero_grad()
        loss.backward()
        for q, mq, vq in zip(params, m, v):
            decay = weight_decay if q.ndim >= 2 else 0.0
            for i, g in enumerate(q.grad):
                mq[i] = 0.9 * mq[i] + (1 - 0.9) * g
                vq[i] = 0.999 * vq[i] + (1 - 0.999) * g * g
                ratio = (mq[i] / (1 - 0.9**t)) / (math.sqrt(vq[i] / (1 - 0.999**t)) + 1e-8)
                q.data[i] -= 0.005 * (ratio + decay * q.data[i])
        if t % 25 == 0:
            dev.append(model.loss(Xdev, Ydev).item())
    return dev, model.loss(X, Y).item()


RUNS = {
    "plain": ({}, "1.8576", "2.6405", 125, "2.7081"),
    "decayed": ({"weight_decay": 1.0}, "2.1915", "2.5528", 200, "2.5528"),
    "dropped": ({"p": 0.5}, "2.0427", "2.6080", 200, "2.6080"),
}


def replay_run(name):
    """The run `name` of RUNS, replayed on the page's data."""
    return replay(*data(), **RUNS[name][0])


# made in another process while the page's cells run here
REPLAYS = {name: ahead(replay_run, name) for name in sorted(RUNS)}


@pytest.fixture(scope="module")
def loaded():
    return data()


def test_the_split_and_the_model_stated(namespace, loaded):
    X, Y, Xdev, Ydev = loaded
    assert_states(PAGE, len(X), "413")
    assert_states(PAGE, len(Xdev), "420")
    count = init_mlp_lm(n_embd=8, n_hidden=48).count()
    assert count == 27 * 8 + 48 * 24 + 48 + 27 * 48 + 27
    assert_states(PAGE, count, "2,739")
    assert 6 < count / len(X) < 7 and "more than six per training example" in text()
    assert namespace["X"] == X and namespace["Xdev"] == Xdev


@pytest.mark.parametrize("name", sorted(RUNS))
def test_each_run_stated(namespace, name):
    options, train, best, at, end = RUNS[name]
    dev, train_loss = REPLAYS[name]()  # replay(*data(), **options)
    assert_states(PAGE, train_loss, train)
    assert_states(PAGE, min(dev), best)
    assert 25 * (dev.index(min(dev)) + 1) == at
    assert_states(PAGE, dev[-1], end)
    assert f"| {train} | {best} ({at}) | {end} |" in PAGE.text
    page_dev, page_train = namespace[name]
    assert page_dev == pytest.approx(dev, rel=1e-9) and page_train == pytest.approx(train_loss)


def test_the_comparisons_the_page_draws():
    plain, decayed, dropped = (float(RUNS[k][2]) for k in ("plain", "decayed", "dropped"))
    assert decayed < dropped < plain  # weight decay best, dropout between
    assert float(RUNS["plain"][1]) < min(float(RUNS[k][1]) for k in ("decayed", "dropped"))
    assert float(RUNS["plain"][4]) - float(RUNS["dropped"][4]) == pytest.approx(0.1, abs=0.02)
    assert "ends 0.1 below the plain run" in text()
    assert "lowest at step 125 and climbs for the remaining 75 steps" in text()

"""Day 35: the three-way split, the overfitting run and its stated numbers, the stop with
patience, the test loss, and the optimism of choosing the lowest of noisy measurements.

The run is made again here by a loop of the test's own (the page's cells are run as well
and must agree with it), and its first losses are recomputed with the scalar engine.
"""

import math
import random

import pytest

from engine import Value
from engine.batched import Adam, examples, init_mlp_lm
from engine.data import load_names, split_three
from engine.tokenizer import Tokenizer

from .ahead import ahead
from .pages import assert_states, lesson

PAGE = lesson("day35_overfitting")
TOK = Tokenizer()


def text():
    return " ".join(PAGE.text.split())


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


@pytest.fixture(scope="module")
def split():
    return split_three(load_names(), seed=0)


def make_run():
    """100 full-batch Adam steps on the first 60 training names; dev every 5 steps."""
    train_names, dev_names, test_names = split_three(load_names(), seed=0)
    X, Y = examples([TOK.encode(n) for n in train_names[:60]], 3, TOK.bos)
    Xd, Yd = examples([TOK.encode(n) for n in dev_names[:100]], 3, TOK.bos)
    model = init_mlp_lm(seed=0)
    first = [[list(p.data) for p in model.parameters()]]
    optimizer = Adam(model.parameters(), lr=0.01)
    train, dev, weights = {}, {}, {}
    for step in range(100):
        loss = model.loss(X, Y)
        if step % 5 == 0:
            train[step], dev[step] = loss.item(), model.loss(Xd, Yd).item()
            weights[step] = [list(p.data) for p in model.parameters()]
        model.zero_grad()
        loss.backward()
        optimizer.step()
    Xt, Yt = examples([TOK.encode(n) for n in test_names], 3, TOK.bos)
    best = min(dev, key=dev.get)
    for p, saved in zip(model.parameters(), weights[best]):
        p.data[:] = saved
    others = []  # the best weights on the next four groups of 100 dev names
    for k in range(1, 5):
        Xo, Yo = examples([TOK.encode(n) for n in dev_names[100 * k : 100 * (k + 1)]], 3, TOK.bos)
        others.append(model.loss(Xo, Yo).item())
    return {
        "others": others,
        "X": X,
        "Xd": Xd,
        "Xt": Xt,
        "train": train,
        "dev": dev,
        "best": best,
        "test": model.loss(Xt, Yt).item(),
        "first": first[0],
        # the first weights' loss with the scalar engine, token by token
        "first_loss": scalar_loss(first[0], X, Y),
        "count": model.count(),
    }


MADE_RUN = ahead(make_run)  # made in another process while the page's cells run here


@pytest.fixture(scope="module")
def run():
    return MADE_RUN()


def scalar_loss(weights, X, Y):
    """The model's mean loss with engine Values, token by token (day 21's way)."""
    C, W1, b1, W2, b2 = weights
    E, D, V = 4, 32, 27
    total = 0.0
    for context, y in zip(X, Y):
        x = [C[t * E + i] for t in context for i in range(E)]
        h = [
            (sum((Value(W1[j * 12 + i]) * x[i] for i in range(12)), Value(b1[j]))).tanh()
            for j in range(D)
        ]
        z = [sum((h[j] * W2[k * D + j] for j in range(D)), Value(b2[k])) for k in range(V)]
        top = max(v.data for v in z)
        logsum = top + math.log(sum(math.exp(v.data - top) for v in z))
        total += logsum - z[y].data
    return total / len(X)


def test_split_sizes_stated(split):
    train_names, dev_names, test_names = split
    assert (len(train_names), len(dev_names), len(test_names)) == (4130, 516, 517)
    assert round(5163 * 0.8) == 4130 and round(5163 * 0.1) == 516
    assert not set(train_names) & set(dev_names) and not set(dev_names) & set(test_names)
    assert sorted(train_names + dev_names + test_names) == load_names()
    for shown in ("4,130", "516", "517", "5,163"):
        assert shown in PAGE.text
    assert "\\operatorname{round}(5163 \\times 0.8) = 4130" in PAGE.text


def test_sizes_of_the_small_run_stated(run):
    assert_states(PAGE, len(run["X"]), "413")
    assert_states(PAGE, len(run["Xd"]), "714")
    assert_states(PAGE, run["count"], "1,415")
    assert run["count"] / len(run["X"]) > 3  # "more than three numbers to tune per example"
    assert_states(PAGE, len(run["Xt"]), "3,677")


def test_first_losses_by_the_scalar_engine(run):
    assert_states(PAGE, run["first_loss"], "3.2991")  # scalar_loss(run["first"], X, Y)
    assert_states(PAGE, math.log(27), "3.2958")


def test_the_curve_stated(run):
    train, dev = run["train"], run["dev"]
    assert_states(PAGE, train[0], "3.2991")
    assert_states(PAGE, dev[0], "3.2988")
    assert run["best"] == 45
    assert_states(PAGE, dev[45], "2.7827")
    assert_states(PAGE, train[45], "2.0643")
    assert_states(PAGE, train[95], "1.3185")
    assert_states(PAGE, dev[95], "3.1540")
    assert_states(PAGE, round(dev[45], 4) - round(train[45], 4), "0.7184")
    assert_states(PAGE, round(dev[95], 4) - round(train[95], 4), "1.8355")
    assert "$2.7827 - 2.0643 = 0.7184$" in PAGE.text
    assert "$3.1540 - 1.3185 = 1.8355$" in PAGE.text
    # the training loss falls at every evaluation; the dev loss falls to step 45, then rises
    steps = sorted(train)
    assert all(train[a] > train[b] for a, b in zip(steps, steps[1:]))
    assert all(dev[a] > dev[b] for a, b in zip(steps[:9], steps[1:10]))
    assert all(dev[a] < dev[b] for a, b in zip(steps[9:], steps[10:]))
    assert dev[95] - train[95] > dev[90] - train[90]  # "and still growing"
    assert "the dev loss is lowest at step 45 (2.7827)" in text()
    # the gap grows from the start, while the dev loss still falls
    for step, shown in ((5, "0.11"), (20, "0.36"), (45, "0.72")):
        assert_states(PAGE, dev[step] - train[step], shown)
    assert "0.11 at step 5, 0.36 at step 20, 0.72 at step 45" in text()
    gaps = [dev[s] - train[s] for s in steps]
    assert all(a < b for a, b in zip(gaps, gaps[1:]))
    # the turn: the first step where the gap grows by more than the training loss falls
    grows = {b: (dev[b] - train[b]) - (dev[a] - train[a]) for a, b in zip(steps, steps[1:])}
    falls = {b: train[a] - train[b] for a, b in zip(steps, steps[1:])}
    turn = min(s for s in grows if grows[s] > falls[s])
    assert turn == 50 and all(grows[s] > falls[s] for s in grows if s >= 50)
    assert_states(PAGE, falls[50], "0.0858")
    assert_states(PAGE, grows[50], "0.0871")
    assert_states(PAGE, dev[40] - dev[45], "0.0107")


def test_where_dev_turns_prediction(run):
    dev = run["dev"]
    assert_states(PAGE, dev[20], "2.8802")
    assert dev[95] > dev[20]  # the marked answer: above its step-20 value
    assert dev[20] > dev[45]  # "still falling, from 2.8802 at step 20 to 2.7827 at step 45"
    assert "[x] Above: the dev loss turns and climbs past its step-20 value" in PAGE.text
    assert "above the 2.8802 of step 20" in text()


def test_the_stop_with_patience_three(run):
    dev = run["dev"]
    for step, shown in ((50, "2.7840"), (55, "2.7976"), (60, "2.8211")):
        assert_states(PAGE, dev[step], shown)
        assert dev[step] > dev[45]
    assert_states(PAGE, dev[50] - dev[45], "0.0013")
    # "a patience of 1 would have stopped right too, at step 50": nothing after 45 beats it
    assert all(dev[s] > dev[45] for s in dev if s > 45)
    assert "a patience of 1 would have stopped right too, at step 50" in text()


def test_the_page_cells_make_the_same_run(namespace, run):
    assert namespace["evaluated_at"] == list(range(0, 100, 5))
    assert namespace["train_curve"] == pytest.approx([run["train"][s] for s in range(0, 100, 5)])
    assert namespace["dev_curve"] == pytest.approx([run["dev"][s] for s in range(0, 100, 5)])
    assert namespace["best_step"] == 45 and namespace["step"] == 100
    assert namespace["small"] == split_three(load_names(), seed=0)[0][:60]


def test_the_test_loss_stated(run, namespace):
    assert_states(PAGE, run["test"], "2.7938")
    assert run["test"] > run["dev"][45]  # "a little above the dev loss of the chosen step"
    assert_states(PAGE, run["test"] - run["dev"][45], "0.011")
    # other groups of dev names spread far wider than 0.011
    assert_states(PAGE, min(run["others"]), "2.6859")
    assert_states(PAGE, max(run["others"]), "2.8346")
    assert max(run["others"]) - min(run["others"]) > 10 * (run["test"] - run["dev"][45])
    assert "from 2.6859 to 2.8346 on the next four groups of 100 dev names" in text()
    assert namespace["X_other"] is not None


def test_best_weights_are_a_copy(namespace):
    live = [p.data for p in namespace["model"].parameters()]
    assert all(saved is not p for saved, p in zip(namespace["best_weights"], live))


def test_choosing_the_lowest_is_optimistic(namespace):
    # E[min of 20 standard normals] by numerical integration: -∫ x d(1 - (1 - Φ(x))^20)
    def phi(x):
        return 0.5 * (1 + math.erf(x / math.sqrt(2)))

    h, total, x = 1e-3, 0.0, -10.0
    while x < 10:
        density = 20 * (1 - phi(x)) ** 19 * math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        total += x * density * h
        x += h
    assert_states(PAGE, -total, "1.8675")
    assert_states(PAGE, -total, "1.87")
    reported = namespace["reported"]
    mean = sum(reported) / len(reported)
    assert_states(PAGE, mean, "2.744")
    assert abs(mean - (2.80 + 0.03 * total)) < 0.001  # the simulation agrees with the integral
    assert "reports 2.744 on average" in text()


def test_the_simulation_is_seeded(namespace):
    rng = random.Random(35)
    first = min(rng.gauss(2.80, 0.03) for _ in range(20))
    assert namespace["reported"][0] == first

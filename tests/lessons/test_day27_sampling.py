"""Day 27: the temperature table, the spin of u = 0.7, and the sampling cells' claims."""

import math

import pytest

from engine import Value

from .pages import assert_states, lesson

PAGE = lesson("day27_sampling")
LOGITS = [2.0, 1.0, 0.0]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def engine_softmax(logits, temperature):
    """Softmax of logits / T computed with engine Values (independent of the page's floats)."""
    zs = [Value(z) * (1.0 / temperature) for z in logits]
    exps = [z.exp() for z in zs]
    total = sum(exps)
    return [(e / total).data for e in exps]


@pytest.mark.parametrize(
    "temperature, texts",
    [
        (0.5, ["0.866813", "0.117310", "0.015876"]),
        (1.0, ["0.665241", "0.244728", "0.090031"]),
        (2.0, ["0.506480", "0.307196", "0.186324"]),
    ],
)
def test_temperature_table_stated(temperature, texts):
    for p, text in zip(engine_softmax(LOGITS, temperature), texts):
        assert_states(PAGE, p, text)


def test_ratios_stated():
    p1 = engine_softmax(LOGITS, 1.0)
    p_half = engine_softmax(LOGITS, 0.5)
    assert_states(PAGE, p1[0] / p1[1], "2.718282")
    assert_states(PAGE, p_half[0] / p_half[1], "7.389056")
    assert p_half[0] / p_half[1] == pytest.approx((p1[0] / p1[1]) ** 2)


def test_the_spin_stated(namespace):
    p1 = engine_softmax(LOGITS, 1.0)
    assert_states(PAGE, p1[0] + p1[1], "0.909969")
    assert p1[0] < 0.7 < p1[0] + p1[1]  # u = 0.7 lands in the second slice at T = 1
    assert engine_softmax(LOGITS, 0.5)[0] > 0.7  # and in the first at T = 0.5
    draw, probabilities = namespace["draw"], namespace["probabilities"]
    assert draw(probabilities(LOGITS, 1.0), 0.7) == 1
    assert draw(probabilities(LOGITS, 0.5), 0.7) == 0


def test_spins_follow_the_probabilities(namespace):
    counts = namespace["counts"]
    p = engine_softmax(LOGITS, 1.0)
    for c, pi in zip(counts, p):
        # 10,000 draws: within 4 standard deviations of the expected count
        assert abs(c - 10_000 * pi) < 4 * math.sqrt(10_000 * pi * (1 - pi))


def test_short_training_lowers_the_loss(namespace):
    losses = namespace["losses"]
    assert sum(losses[-10:]) / 10 < sum(losses[:10]) / 10 - 0.3


def test_greedy_is_deterministic_and_names_are_letters(namespace):
    import random

    sample_name = namespace["sample_name"]
    rng = random.Random(1)
    assert sample_name(0, rng) == sample_name(0, rng)
    names = [sample_name(1.0, rng) for _ in range(20)]
    assert all(set(n) <= set("abcdefghijklmnopqrstuvwxyz") and len(n) <= 16 for n in names)
    assert len(set(names)) > 10  # sampling at T = 1 varies


def test_the_model_trains_on_the_training_split_only(namespace):
    from engine.data import load_names, split_names

    train_names, test_names = split_names(load_names(), seed=0)  # day 26's split
    assert namespace["train_names"] == train_names and namespace["test_names"] == test_names
    cell = next(c for c in PAGE.cells if "losses = train(" in c)
    assert "[tokenizer.encode(n) for n in train_names]" in cell
    assert "split_names(load_names(), seed=0)" in lesson("day26_training_gpt").text
    assert "names the model trained on, in `train_names`" in " ".join(PAGE.text.split())

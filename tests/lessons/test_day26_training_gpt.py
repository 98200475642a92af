"""Day 26: the schedule, the two Adam steps, the page's short run, and the full curve it shows.

The full 1,000-step run takes about 20 s: it is the run whose numbers the page prints, so
the test makes it again and checks every stated number.
"""

import math
import random

import pytest

from engine import Value
from engine.data import load_names, split_names
from engine.gpt import evaluate, init_gpt, lr_at
from engine.optim import Adam

from .ahead import ahead
from .gpt_run import reference_run
from .pages import assert_states, lesson

PAGE = lesson("day26_training_gpt")
BLOCKS = [
    "2.6194",
    "2.5169",
    "2.4858",
    "2.3872",
    "2.4353",
    "2.3344",
    "2.3205",
    "2.2438",
    "2.2801",
    "2.3471",
]


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


REFERENCE_RUN = ahead(reference_run)  # trained in another process while this one works


@pytest.fixture(scope="module")
def full_run():
    return REFERENCE_RUN()


def test_schedule_stated():
    for step, text in [(0, "0.01"), (250, "0.0075"), (500, "0.005"), (999, "0.00001")]:
        assert_states(PAGE, lr_at(step, 1000, 0.01), text)


def test_first_adam_step_stated():
    a, b = Value(0.0), Value(0.0)
    opt = Adam([a, b], lr=0.01, betas=(0.85, 0.99))
    a.grad, b.grad = 0.3, -0.002
    opt.step()
    assert_states(PAGE, a.data, "-0.0099999997")
    assert_states(PAGE, b.data, "+0.0099999500")
    assert_states(PAGE, 0.3 / 0.002, "150")
    assert "gradient $-0.002$, 150 times smaller" in PAGE.text
    # the running means after the first step, which the second step starts from
    assert_states(PAGE, opt.m[0], "0.045")
    assert_states(PAGE, opt.v[0], "0.0009")
    assert "$m = 0.85 \\times 0.045 + 0.15 \\times (-0.3) = -0.00675$" in PAGE.text
    assert "$v = 0.99 \\times 0.0009 + 0.01 \\times 0.09 = 0.001791$" in PAGE.text
    # the second step, with the gradient flipped
    before = a.data
    a.grad, b.grad = -0.3, 0.0
    opt.step()
    assert_states(PAGE, opt.m[0], "-0.00675")
    assert_states(PAGE, opt.m[0] / (1 - 0.85**2), "-0.024324")
    assert_states(PAGE, opt.v[0], "0.001791")
    assert_states(PAGE, opt.v[0] / (1 - 0.99**2), "0.09")
    assert_states(PAGE, a.data - before, "+0.000811")
    assert round(0.01 / (a.data - before)) == 12  # "twelve times smaller"


def test_split_sizes_stated(full_run):
    assert_states(PAGE, full_run["n"], "4,647")
    assert_states(PAGE, 5163 - full_run["n"], "516")


def test_the_page_cell_is_the_start_of_the_full_run(namespace, full_run):
    assert namespace["losses"] == pytest.approx(full_run["losses"][:50], rel=1e-9)
    assert sum(namespace["losses"][-10:]) < sum(namespace["losses"][:10])  # a short run falls


def test_full_curve_stated(full_run):
    losses = full_run["losses"]
    assert_states(PAGE, losses[0], "3.5004")
    blocks = [sum(losses[i : i + 100]) / 100 for i in range(0, 1000, 100)]
    for mean, text in zip(blocks, BLOCKS):
        assert_states(PAGE, mean, text)
    assert blocks[-1] < 2.5 and losses[0] > 3.2  # "from about 3.3 to below 2.5"


def test_held_out_losses_stated(full_run):
    assert_states(PAGE, full_run["before"], "3.3281")
    assert_states(PAGE, full_run["after"], "2.2485")
    assert "Over all 516 held-out names, the held-out loss goes from 3.3281" in PAGE.text


def test_held_out_loss_keeps_falling_while_the_last_block_rises(full_run):
    held = full_run["held_out"]
    assert_states(PAGE, held[800], "2.2663")
    assert_states(PAGE, held[900], "2.2540")
    assert held[800] > held[900] > full_run["after"]
    losses = full_run["losses"]
    assert sum(losses[900:]) > sum(losses[800:900])  # "the last block is higher"
    text = " ".join(PAGE.text.split())
    assert "2.2663 after step 800, 2.2540 after step 900, 2.2485 after step 1,000" in text


def test_one_names_loss_jumps_even_late_in_the_run(full_run):
    late = full_run["losses"][100:]
    assert_states(PAGE, min(late), "1.5")
    assert_states(PAGE, max(late), "3.8")
    assert "one name's loss jumps between about 1.5 and 3.8" in " ".join(PAGE.text.split())


def test_the_cells_score_the_first_100_held_out_names(namespace):
    # The cells' number is over 100 names; the page says so and does not pass it off as 516's.
    assert namespace["before"] == evaluate(init_gpt(seed=0), namespace["test_docs"][:100])
    assert_states(PAGE, namespace["before"], "3.3141")
    assert "A fresh model scores 3.3141 on these 100 held-out names" in PAGE.text
    assert namespace["model"].config.vocab_size == 27
    assert_states(PAGE, math.log(27), "3.2958")


def test_try_this_on_the_order_is_true(namespace):
    names = load_names()
    assert names == sorted(names) and len(names) == 5163
    assert_states(PAGE, sum(1 for n in names if n.startswith("a")), "394")
    # Without split_names' shuffle the held-out names would be the file's last 516.
    assert (names[-516], names[-1]) == ("tania", "zulma")
    assert "`tania` to\n    `zulma`" in PAGE.text
    train_names, _ = split_names(names, seed=0)
    assert [n[0] for n in train_names[:10]] != sorted(n[0] for n in train_names[:10])
    # The cell's second shuffle is engine.gpt.train's: the same order, so the same losses.
    docs = [namespace["tokenizer"].encode(n) for n in train_names]
    random.Random(0).shuffle(docs)
    assert namespace["train_docs"] == docs
    assert "would see 400 names" not in PAGE.text


def test_plotted_curve_is_the_stated_one(namespace):
    assert namespace["curve"] == [float(t) for t in BLOCKS]

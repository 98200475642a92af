"""Day 30: the perplexity table from the reference run, and the training page's claims."""

import math

import pytest

from .gpt_run import reference_run
from .pages import assert_states, lesson

PAGE = lesson("day30_your_gpt")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_uniform_row_stated():
    assert_states(PAGE, math.log(27), "3.2958")
    assert_states(PAGE, math.log(27) / math.log(2), "4.7549")
    assert math.exp(math.log(27)) == pytest.approx(27)


def test_reference_run_rows_stated():
    run = reference_run()
    assert_states(PAGE, run["before"], "3.3281")
    assert_states(PAGE, math.exp(run["before"]), "27.8855")
    assert_states(PAGE, run["after"], "2.2485")
    assert_states(PAGE, math.exp(run["after"]), "9.4739")
    assert_states(PAGE, run["after"] / math.log(2), "3.2440")
    assert run["before"] > math.log(27)  # "slightly worse than uniform"
    bits_saved = (math.log(27) - run["after"]) / math.log(2)
    assert round(bits_saved, 1) == 1.5  # "1.5 bits per letter"
    assert round(math.exp(run["after"]) / math.exp(run["before"]), 1) == 0.3  # "a third"
    assert_states(PAGE, run["n"], "4,647")


def test_training_cell_trains_and_samples(namespace):
    losses = namespace["losses"]
    assert len(losses) == namespace["STEPS"]
    assert sum(losses[-20:]) / 20 < sum(losses[:20]) / 20
    assert namespace["held_out"] < math.log(27) - 0.3  # even the short run beats guessing
    assert len(namespace["fresh"]) == 10
    assert all(set(name) <= set("abcdefghijklmnopqrstuvwxyz") for name in namespace["fresh"])

"""engine.schedule.lr_at: linear warmup, then cosine, linear or no decay to a floor."""

import math

import pytest

from engine.schedule import lr_at


def test_warmup_grows_linearly_to_the_peak():
    assert [lr_at(s, 4, 100, 0.1) for s in range(4)] == pytest.approx([0.025, 0.05, 0.075, 0.1])
    assert lr_at(4, 4, 100, 0.1) == 0.1  # the decay starts at the peak


def test_cosine_decay_closed_form():
    for step in (10, 37, 55, 99):
        progress = (step - 10) / 90
        expected = 0.001 + 0.009 * 0.5 * (1 + math.cos(math.pi * progress))
        assert lr_at(step, 10, 100, 0.01, 0.001) == pytest.approx(expected, rel=1e-12)
    assert lr_at(55, 10, 100, 0.01, 0.001) == pytest.approx(0.0055)  # half way: the middle
    assert lr_at(100, 10, 100, 0.01, 0.001) == pytest.approx(0.001)
    assert lr_at(500, 10, 100, 0.01, 0.001) == 0.001  # after the run: the floor


def test_linear_and_constant_decays():
    assert lr_at(55, 10, 100, 0.01, 0.001, decay="linear") == pytest.approx(0.0055)
    assert lr_at(33, 10, 100, 0.01, 0.001, decay="linear") == pytest.approx(0.01 - 0.009 * 23 / 90)
    assert lr_at(80, 10, 100, 0.01, 0.001, decay="constant") == 0.01
    # the cosine stays above the line in the first half of the decay, below it in the second
    assert lr_at(30, 10, 100, 0.01) > lr_at(30, 10, 100, 0.01, decay="linear")
    assert lr_at(80, 10, 100, 0.01) < lr_at(80, 10, 100, 0.01, decay="linear")


def test_no_warmup():
    assert lr_at(0, 0, 10, 1.0) == 1.0


@pytest.mark.parametrize(
    "args, match",
    [
        ((0, 10, 10, 0.1), "warmup < steps"),
        ((0, -1, 10, 0.1), "warmup < steps"),
        ((0, 2.5, 10, 0.1), "whole numbers"),
        ((-1, 2, 10, 0.1), "counts from 0"),
        ((0, 2, 10, 0.1, 0.2), "lr_min <= lr_max"),
    ],
)
def test_bad_arguments_say_what_to_do(args, match):
    with pytest.raises(ValueError, match=match):
        lr_at(*args)


def test_unknown_decay():
    with pytest.raises(ValueError, match="decay must be one of"):
        lr_at(0, 2, 10, 0.1, decay="step")

"""benchmarks/gpt.py compares like with like: all three contestants compute the same step."""

import pytest

from benchmarks import gpt as bench
from engine.gpt import init_gpt
from engine.tokenizer import Tokenizer


def test_contestants_agree_on_loss_and_every_gradient():
    bench.check_same_step(init_gpt(seed=4), Tokenizer().encode("olivia"))


def test_the_agreement_check_catches_a_different_model():
    model = init_gpt(seed=4)
    original = bench.contestants

    def skewed(m):
        runs = original(m)
        runs[0].params["lm_head"][3][2].data += 0.5  # the baseline gets one other weight
        return runs

    bench.contestants = skewed
    try:
        with pytest.raises(AssertionError, match="disagrees"):
            bench.check_same_step(model, Tokenizer().encode("olivia"))
    finally:
        bench.contestants = original


def test_run_reports_times_and_ratios(capsys):
    report = bench.run(rounds=2)
    for name in ("baseline", "plain", "engine"):
        assert report[name]["total_ms"] > 0
    assert report["speedup"] == pytest.approx(
        report["baseline"]["total_ms"] / report["engine"]["total_ms"]
    )
    assert "goal 2x" in capsys.readouterr().out

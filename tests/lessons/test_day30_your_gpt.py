"""Day 30: the perplexity table from the reference run, and the training page's claims."""

import math

import pytest

from engine.gpt import GPTConfig, count_parameters

from .ahead import ahead
from .gpt_run import reference_run
from .pages import assert_states, lesson

PAGE = lesson("day30_your_gpt")
REFERENCE_RUN = ahead(reference_run)  # trained in another process (day 26's test uses it too)


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_uniform_row_stated():
    assert_states(PAGE, math.log(27), "3.2958")
    assert_states(PAGE, math.log(27) / math.log(2), "4.7549")
    assert math.exp(math.log(27)) == pytest.approx(27)


def test_reference_run_rows_stated():
    run = REFERENCE_RUN()
    assert_states(PAGE, run["before"], "3.3281")
    assert_states(PAGE, math.exp(run["before"]), "27.8855")
    assert_states(PAGE, run["after"], "2.2485")
    assert_states(PAGE, math.exp(run["after"]), "9.4739")
    assert_states(PAGE, run["after"] / math.log(2), "3.2440")
    assert_states(PAGE, run["before"] / math.log(2), "4.8014")
    assert run["before"] > math.log(27)  # "slightly worse than uniform"
    ratio = math.exp(run["after"]) / math.exp(run["before"])
    assert_states(PAGE, ratio, "0.3397")
    assert round(ratio * 3, 1) == 1.0  # "to a third of it"
    assert_states(PAGE, (run["before"] - run["after"]) / math.log(2), "1.56")
    assert_states(PAGE, (math.log(27) - run["after"]) / math.log(2), "1.51")
    assert_states(PAGE, run["before"] / math.log(2), "4.80")
    assert_states(PAGE, run["after"] / math.log(2), "3.24")
    text = " ".join(PAGE.text.split())
    assert (
        "Training cut the choice from about 28 symbols to about 9.5, to a third of it "
        "($9.4739 / 27.8855 = 0.3397$), and the questions per letter from 4.80 bits to 3.24: "
        "1.56 bits fewer than the fresh model, and 1.51 fewer than uniform guessing."
    ) in text
    assert_states(PAGE, run["n"], "4,647")


def test_training_cell_trains_and_samples(namespace):
    losses = namespace["losses"]
    assert len(losses) == namespace["STEPS"]
    assert sum(losses[-20:]) / 20 < sum(losses[:20]) / 20
    assert namespace["held_out"] < math.log(27) - 0.3  # even the short run beats guessing
    assert len(namespace["fresh"]) == 10
    assert all(set(name) <= set("abcdefghijklmnopqrstuvwxyz") for name in namespace["fresh"])


def test_bigger_model_suggestion_runs():
    # The "Make it bigger" line, applied to the training cell as it says, for two steps.
    text = " ".join(PAGE.text.split())
    new_line = "model = init_gpt(GPTConfig(n_layer=2, n_embd=32, n_head=4), seed=SEED)"
    assert (
        f"add `GPTConfig` to the import from `engine.gpt` and make the model with `{new_line}`"
        in text
    )
    cell = next(c for c in PAGE.cells if "training(model" in c)
    old_import = "from engine.gpt import init_gpt, training, evaluate"
    assert old_import in cell and "model = init_gpt(seed=SEED)" in cell and "STEPS = 100 " in cell
    cell = cell.replace(old_import, old_import + ", GPTConfig")
    cell = cell.replace("model = init_gpt(seed=SEED)", new_line).replace(
        "STEPS = 100 ", "STEPS = 2 "
    )
    namespace = {"__name__": "__lesson__"}
    exec(compile(cell, "day30 bigger model", "exec"), namespace)
    config = namespace["model"].config
    assert (config.n_layer, config.n_embd, config.n_head) == (2, 32, 4)
    assert len(namespace["losses"]) == 2
    assert_states(PAGE, count_parameters(config), "26,816")
    assert_states(PAGE, count_parameters(GPTConfig()), "4,192")


def test_one_pass_training_loss_is_close_to_the_held_out_loss():
    # The question "training-loss-against-held-out": in 1,000 steps over 4,647 names no name
    # comes back, and each step's loss is computed before the update on its name.
    run = REFERENCE_RUN()
    assert run["n"] > 1000
    last_block = sum(run["losses"][900:]) / 100
    assert_states(PAGE, last_block, "2.3471")
    assert abs(last_block - run["after"]) < 0.15
    text = " ".join(PAGE.text.split())
    assert "steps 901–1000 averaged 2.3471 and the held-out loss was 2.2485" in text

"""engine.checkpoint and the checkpoint the site ships (explorer/data/microgpt.json)."""

import json
import math
import random

import pytest

from engine import checkpoint
from engine.data import load_names, split_names
from engine.gpt import GPTConfig, evaluate, init_gpt, train
from engine.tokenizer import Tokenizer
from engine.train import main
from explorer.model import CHECKPOINT_PATH

TOK = Tokenizer()


def test_round_trip_keeps_config_tokenizer_settings_and_rounded_weights():
    model = init_gpt(GPTConfig(n_layer=2, n_embd=8, n_head=2, block_size=6), seed=3)
    text = checkpoint.dumps(
        model, TOK, training={"steps": 7, "lr": 0.02}, held_out_loss=2.5, held_out_names=9
    )
    back = checkpoint.loads(text)
    assert back.model.config == model.config
    assert back.tokenizer.chars == TOK.chars
    assert list(back.model.params) == list(model.params)
    for a, b in zip(model.parameters(), back.model.parameters()):
        assert b.data == round(a.data, 5) and abs(a.data - b.data) <= 5e-6
    assert back.info["training"] == {"steps": 7, "lr": 0.02}
    assert (back.info["held_out_loss"], back.info["held_out_names"]) == (2.5, 9)
    assert back.info["format"] == "microgpt-checkpoint" and "params" not in back.info


def test_fewer_digits_round_more(tmp_path):
    model = init_gpt(seed=0)
    path = checkpoint.save(tmp_path / "sub" / "m.json", model, TOK, digits=2)
    back = checkpoint.load(path)
    assert all(
        b.data == round(a.data, 2) for a, b in zip(model.parameters(), back.model.parameters())
    )
    assert back.info["digits"] == 2


def test_a_tokenizer_of_another_size_is_refused():
    with pytest.raises(ValueError, match="tokenizer has 3 symbols but the model 27"):
        checkpoint.dumps(init_gpt(seed=0), Tokenizer("ab"))


def good():
    return json.loads(checkpoint.dumps(init_gpt(seed=0), TOK))


def broken(change):
    data = good()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json {", "it is not JSON"),
        ("[1, 2]", "is not a microGPT checkpoint"),
        (json.dumps({"format": "other"}), "its \"format\" is 'other'"),
        (broken(lambda d: d.update(version=2)), "version 2"),
        (broken(lambda d: d.pop("chars")), "no 'chars' field"),
        (broken(lambda d: d["config"].update(n_head=5)), "must split evenly"),
        (broken(lambda d: d["config"].update(vocab_size=30)), "vocab_size 30"),
        (broken(lambda d: d["params"].pop("wpe")), "a model of its config has"),
        (broken(lambda d: d["params"]["wte"].pop()), "'wte' has 26 rows but the config needs 27"),
        (broken(lambda d: d["params"]["lm_head"][3].pop()), "row 3 of matrix 'lm_head' has 15"),
        (broken(lambda d: d["params"]["wpe"][0].__setitem__(0, "x")), "holds 'x', not a number"),
    ],
)
def test_bad_text_gets_a_clear_error(text, message):
    with pytest.raises(checkpoint.CheckpointError, match=message):
        checkpoint.loads(text)


def test_bad_files_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint at .*python -m engine.train --save"):
        checkpoint.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(checkpoint.CheckpointError, match="bin.json is not a checkpoint"):
        checkpoint.load(tmp_path / "bin.json")
    (tmp_path / "text.json").write_text("hello")
    with pytest.raises(checkpoint.CheckpointError, match="text.json: this is not a checkpoint"):
        checkpoint.load(tmp_path / "text.json")


def test_cli_save_writes_what_a_checkpoint_free_run_trains(tmp_path):
    path = tmp_path / "three.json"
    argv = ["--steps", "3", "--samples", "0", "--eval-names", "20", "--save", str(path)]
    assert main(argv) == 0
    saved = checkpoint.load(path)
    # The same three steps, without the CLI: the course's split and engine.gpt.train.
    train_names, test_names = split_names(load_names(), seed=0)
    model = init_gpt(seed=0)
    train(model, [TOK.encode(n) for n in train_names], steps=3, lr=0.01, seed=0)
    assert [p.data for p in saved.model.parameters()] == [
        round(p.data, 5) for p in model.parameters()
    ]
    loss = evaluate(model, [TOK.encode(n) for n in test_names[:20]])
    assert saved.info["held_out_loss"] == loss and saved.info["held_out_names"] == 20
    assert saved.info["training"] == {"steps": 3, "lr": 0.01, "seed": 0, "batch_size": 1}


# -- the shipped checkpoint ---------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return checkpoint.load(CHECKPOINT_PATH)


def test_shipped_checkpoint_is_small_and_says_how_it_was_trained(shipped):
    assert CHECKPOINT_PATH.stat().st_size < 150_000
    assert shipped.info["training"] == {"steps": 1000, "lr": 0.01, "seed": 0, "batch_size": 1}
    assert shipped.model.config == GPTConfig() and shipped.tokenizer.chars == TOK.chars


def test_shipped_checkpoint_has_the_held_out_loss_it_states(shipped):
    _, test_names = split_names(load_names(), seed=0)
    docs = [TOK.encode(n) for n in test_names]
    assert shipped.info["held_out_names"] == len(docs) == 516
    loss = evaluate(shipped.model, docs)
    stated = shipped.info["held_out_loss"]
    # Rounding the weights to 5 decimals moves the loss far less than its 4th decimal.
    assert abs(loss - stated) < 5e-6 and f"{loss:.4f}" == f"{stated:.4f}"
    assert math.log(27) - loss > 1.0  # well below a uniform guess


@pytest.mark.slow
def test_shipped_checkpoint_is_what_the_training_command_makes(tmp_path, shipped):
    """Retrain with the stated settings (1,000 steps: about 20 s here) and compare."""
    path = tmp_path / "again.json"
    assert main(["--samples", "0", "--log-every", "1000", "--save", str(path)]) == 0
    again = checkpoint.load(path)
    assert again.info == shipped.info
    worst = max(
        abs(a.data - b.data) for a, b in zip(again.model.parameters(), shipped.model.parameters())
    )
    assert worst <= 1e-5  # equal up to the last kept decimal


def test_a_checkpoint_loads_into_a_model_that_trains():
    back = checkpoint.loads(checkpoint.dumps(init_gpt(seed=1), TOK))
    docs = [TOK.encode(n) for n in random.Random(0).sample(load_names(), 5)]
    losses = train(back.model, docs, steps=2, lr=0.01)
    assert len(losses) == 2 and all(math.isfinite(x) for x in losses)

"""engine.batched_gpt: the batched microGPT gives engine.gpt's logits at every position
and engine.gpt's gradients for every weight, on the same weights."""

import doctest
import math

import pytest

import engine.batched_gpt as batched_gpt
from engine.batched_gpt import batch_of_names, causal_mask, forward, from_gpt, loss
from engine.gpt import GPTConfig, document_loss, gpt, init_gpt, mean, new_kv_cache

# BOS-framed sequences of one length (6 tokens: 5 positions), as names of 4 letters are
NAMES = [[26, 4, 12, 12, 0, 26], [26, 0, 21, 0, 7, 26], [26, 11, 4, 14, 13, 26]]


@pytest.mark.parametrize(
    "config",
    [GPTConfig(), GPTConfig(n_layer=2, n_embd=8, n_head=2, block_size=8)],
    ids=["course model", "two layers, two heads"],
)
def test_same_logits_as_the_scalar_model_at_every_position(config):
    model = init_gpt(config, seed=4)
    idx, _ = batch_of_names(NAMES)
    logits = forward(from_gpt(model), config, idx).tolist()  # (B, T, V)
    assert len(logits) == len(idx) and len(logits[0]) == len(idx[0])
    for b, tokens in enumerate(idx):
        keys, values = new_kv_cache(config)
        for t, token in enumerate(tokens):
            scalar = [v.data for v in gpt(model, token, t, keys, values)]
            assert logits[b][t] == pytest.approx(scalar, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    "config",
    [GPTConfig(), GPTConfig(n_layer=2, n_embd=8, n_head=2, block_size=8)],
    ids=["course model", "two layers, two heads"],
)
def test_same_loss_and_gradients_as_the_scalar_model(config):
    model = init_gpt(config, seed=5)
    params = from_gpt(model)
    idx, targets = batch_of_names(NAMES)
    batched = loss(params, config, idx, targets)
    batched.backward()
    scalar = mean([document_loss(model, tokens) for tokens in NAMES])  # same lengths: same mean
    scalar.backward()
    assert batched.item() == pytest.approx(scalar.data, rel=1e-12)
    for name, rows in model.params.items():
        expected = [p.grad for row in rows for p in row]
        assert params[name].grad == pytest.approx(expected, rel=1e-9, abs=1e-13), name


def test_a_later_token_changes_no_earlier_logit():
    config = GPTConfig()
    params = from_gpt(init_gpt(config, seed=1))
    a = forward(params, config, [[26, 4, 12, 12]]).tolist()[0]
    b = forward(params, config, [[26, 4, 12, 0]]).tolist()[0]
    assert a[:3] == b[:3] and a[3] != b[3]


def test_causal_mask_hides_the_upper_triangle():
    assert causal_mask(1) == [[False]]
    mask = causal_mask(4)
    assert all(mask[i][j] == (j > i) for i in range(4) for j in range(4))
    assert sum(map(sum, mask)) == 4 * 3 // 2
    with pytest.raises(ValueError, match="whole number"):
        causal_mask(0)


def test_from_gpt_copies_the_weights():
    model = init_gpt(seed=0)
    params = from_gpt(model)
    assert params["wte"].shape == (27, 16) and params["layer0.mlp_fc1"].shape == (64, 16)
    assert sum(p.numel() for p in params.values()) == 4192
    params["wte"].data[0] += 1.0
    assert model.params["wte"][0][0].data != params["wte"].data[0]


def test_bad_batches_say_what_to_do():
    config = GPTConfig()
    params = from_gpt(init_gpt(config, seed=0))
    with pytest.raises(ValueError, match="same length"):
        forward(params, config, [[26, 1], [26]])
    with pytest.raises(ValueError, match="block_size"):
        forward(params, config, [[0] * 17])
    with pytest.raises(TypeError, match="a list of B lists"):
        forward(params, config, [26, 1])
    with pytest.raises(ValueError, match="shape of idx"):
        loss(params, config, [[26, 1]], [[1]])
    with pytest.raises(ValueError, match="one length"):
        batch_of_names([[26, 1, 26], [26, 1, 2, 26]])


def test_the_first_loss_is_near_log_27():
    config = GPTConfig()
    idx, targets = batch_of_names(NAMES)
    value = loss(from_gpt(init_gpt(config, seed=0)), config, idx, targets).item()
    assert abs(value - math.log(27)) < 0.5


def test_docstring_examples():
    result = doctest.testmod(batched_gpt)
    assert result.attempted > 0 and result.failed == 0

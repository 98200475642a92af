"""The whole microGPT: its shape, its gradients, training and sampling."""

import math
import random

import pytest

from engine import Value
from engine.data import load_names
from engine.gpt import (
    GPTConfig,
    count_parameters,
    document_loss,
    evaluate,
    gpt,
    init_gpt,
    lr_at,
    make_optimizer,
    new_kv_cache,
    next_token_probs,
    sample,
    sample_names,
    train,
    train_step,
    training,
)
from engine.gradcheck import gradcheck
from engine.tokenizer import Tokenizer

TOK = Tokenizer()


@pytest.fixture(scope="module")
def docs():
    names = load_names()
    random.Random(1).shuffle(names)
    return [TOK.encode(n) for n in names]


# -- shape -------------------------------------------------------------------------------------


def test_parameter_count_of_the_course_model():
    model = init_gpt()
    E, V, B = 16, 27, 16
    by_hand = V * E + B * E + V * E + 4 * (E * E) + (4 * E) * E + E * (4 * E)
    assert by_hand == 4192
    assert len(model.parameters()) == 4192 == count_parameters(model.config)
    assert len({id(p) for p in model.parameters()}) == 4192  # no weight shared by accident


def test_matrix_shapes():
    model = init_gpt(GPTConfig(vocab_size=5, n_embd=8, n_head=2, n_layer=2, block_size=6))
    shapes = {k: (len(m), len(m[0])) for k, m in model.params.items()}
    assert shapes["wte"] == (5, 8) and shapes["wpe"] == (6, 8) and shapes["lm_head"] == (5, 8)
    for i in range(2):
        for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
            assert shapes[f"layer{i}.{name}"] == (8, 8)
        assert shapes[f"layer{i}.mlp_fc1"] == (32, 8)
        assert shapes[f"layer{i}.mlp_fc2"] == (8, 32)
    assert len(model.parameters()) == count_parameters(model.config)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_embd": 10, "n_head": 4}, "split evenly"),
        ({"block_size": 0}, "positive"),
        ({"n_layer": 1.5}, "positive"),
    ],
)
def test_config_rejects_impossible_sizes(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GPTConfig(**kwargs)


def test_gpt_returns_one_logit_per_symbol_and_fills_the_cache():
    model = init_gpt()
    keys, values = new_kv_cache(model.config)
    for pos, token in enumerate([26, 4, 12]):
        logits = gpt(model, token, pos, keys, values)
        assert len(logits) == 27 and all(isinstance(v, Value) for v in logits)
        assert len(keys[0]) == len(values[0]) == pos + 1
        assert all(len(k) == 16 for k in keys[0])


def test_gpt_explains_misuse():
    model = init_gpt()
    keys, values = new_kv_cache(model.config)
    with pytest.raises(ValueError, match="outside the block"):
        gpt(model, 0, 16, keys, values)
    with pytest.raises(ValueError, match="token id 27"):
        gpt(model, 27, 0, keys, values)
    with pytest.raises(ValueError, match="in order"):
        gpt(model, 0, 1, keys, values)  # position 0 was never fed


def test_a_position_sees_the_past_but_not_the_future():
    model = init_gpt(seed=3)

    def logits_at_1(tokens):
        keys, values = new_kv_cache(model.config)
        out = [gpt(model, t, pos, keys, values) for pos, t in enumerate(tokens)]
        return [v.data for v in out[1]]

    same_past = logits_at_1([26, 4, 7]), logits_at_1([26, 4, 19])
    assert same_past[0] == same_past[1]  # what comes later cannot change position 1
    assert logits_at_1([26, 4]) != logits_at_1([0, 4])  # what came earlier does


# -- gradients through the whole model ---------------------------------------------------


def test_model_gradients_match_central_differences():
    model = init_gpt(GPTConfig(vocab_size=6, n_embd=8, n_head=2, block_size=5), seed=7)
    picks = [("wte", 5, 1), ("wpe", 2, 3), ("lm_head", 4, 0), ("layer0.attn_wq", 1, 6),
             ("layer0.attn_wk", 7, 2), ("layer0.attn_wv", 3, 3), ("layer0.attn_wo", 0, 5),
             ("layer0.mlp_fc1", 20, 4), ("layer0.mlp_fc2", 6, 31)]  # fmt: skip
    tokens = [5, 1, 3, 0, 2, 5]
    start = [model.params[name][r][c].data for name, r, c in picks]

    def loss_of(vs):
        for (name, r, c), v in zip(picks, vs):
            model.params[name][r][c] = v
        return document_loss(model, tokens)

    result = gradcheck(loss_of, start, h=1e-6, rtol=1e-4, atol=1e-8)
    assert result.ok, str(result)
    assert all(abs(g) > 1e-6 for g in result.analytic)  # every picked weight matters


# -- training -----------------------------------------------------------------------------------


def test_loss_starts_near_uniform(docs):
    start = evaluate(init_gpt(seed=0), docs[:200])
    assert abs(start - math.log(27)) < 0.1, start


def test_lr_decays_linearly_to_zero():
    assert lr_at(0, 100, 0.01) == 0.01
    assert lr_at(50, 100, 0.01) == pytest.approx(0.005)
    assert lr_at(99, 100, 0.01) == pytest.approx(0.0001)
    with pytest.raises(ValueError):
        lr_at(100, 100, 0.01)


def test_first_adam_step_moves_each_weight_by_the_learning_rate():
    # At step 1 Adam's corrected moments are g and g^2, so the update is lr * g / |g|.
    model = init_gpt(seed=2)
    before = [p.data for p in model.parameters()]
    optimizer = make_optimizer(model, lr=0.01)
    train_step(model, optimizer, [TOK.encode("anna")], lr=0.003)
    moved = [(b - p.data, p.grad) for b, p in zip(before, model.parameters())]
    touched = [(d, g) for d, g in moved if abs(g) > 1e-4]
    assert len(touched) > 1000
    for d, g in touched:
        assert d == pytest.approx(0.003 * math.copysign(1.0, g), rel=1e-3)
    assert all(d == 0.0 for d, g in moved if g == 0.0)  # e.g. embeddings of unused letters


def test_a_short_run_lowers_the_loss(docs):
    model = init_gpt(seed=0)
    held_out = docs[-100:]
    before = evaluate(model, held_out)
    losses = train(model, docs[:-100], steps=150, lr=0.01)
    after = evaluate(model, held_out)
    assert len(losses) == 150
    assert after < before - 0.4, (before, after)
    assert sum(losses[-50:]) / 50 < sum(losses[:50]) / 50


def test_training_is_deterministic_given_the_seeds(docs):
    def run(seed):
        return train(init_gpt(seed=seed), docs[:50], steps=8, seed=seed)

    assert run(0) == run(0)
    assert run(0) != run(1)


def test_training_can_be_stopped_and_reports_each_step(docs):
    model = init_gpt()
    seen = []
    for result in training(model, docs, steps=100, lr=0.02, batch_size=2):
        seen.append(result)
        if result.step == 4:
            break  # the browser's Stop button does this
    assert [r.step for r in seen] == [0, 1, 2, 3, 4]
    assert [r.lr for r in seen] == pytest.approx([0.02 * (1 - s / 100) for s in range(5)])


def test_training_explains_bad_arguments(docs):
    with pytest.raises(ValueError, match="at least one"):
        next(training(init_gpt(), [], steps=1))
    with pytest.raises(ValueError, match="at least 2 tokens"):
        document_loss(init_gpt(), [26])


# -- sampling -------------------------------------------------------------------------------------


def test_next_token_probs_with_temperature():
    z = [1.0, 3.0, 2.0]
    assert next_token_probs(z, 1.0) == pytest.approx(
        [math.exp(x) / sum(math.exp(y) for y in z) for x in z]
    )
    assert next_token_probs(z, 0) == [0.0, 1.0, 0.0]
    assert next_token_probs(z, 0.01) == pytest.approx([0.0, 1.0, 0.0], abs=1e-12)
    assert next_token_probs(z, 1e6) == pytest.approx([1 / 3] * 3, rel=1e-5)
    sharp, flat = next_token_probs(z, 0.5), next_token_probs(z, 2.0)
    assert sharp[1] > next_token_probs(z, 1.0)[1] > flat[1]
    with pytest.raises(ValueError, match="0 or more"):
        next_token_probs(z, -1.0)


def greedy(model):
    """The argmax name, decoded step by step without the sampling code."""
    keys, values = new_kv_cache(model.config)
    token, out = TOK.bos, []
    for pos in range(model.config.block_size):
        logits = [v.data for v in gpt(model, token, pos, keys, values)]
        token = logits.index(max(logits))
        if token == TOK.bos:
            break
        out.append(token)
    return TOK.decode(out)


def test_sampling_at_temperature_zero_is_argmax_and_low_temperature_approaches_it(docs):
    model = init_gpt(seed=0)
    train(model, docs, steps=60)
    expected = greedy(model)
    assert sample(model, TOK, random.Random(1), temperature=0) == expected
    assert sample_names(model, TOK, n=3, seed=5, temperature=0.001) == [expected] * 3


def test_sampled_names_are_letters_and_fit_the_block(docs):
    model = init_gpt(seed=0)
    names = sample_names(model, TOK, n=20, seed=0, temperature=1.0)
    assert len(names) == 20 and len(set(names)) > 10
    assert all(set(n) <= set(TOK.chars) and len(n) <= 16 for n in names)
    assert sample_names(model, TOK, n=5, seed=9) == sample_names(model, TOK, n=5, seed=9)


def test_sample_rejects_a_tokenizer_of_another_vocabulary():
    with pytest.raises(ValueError, match="symbols"):
        sample(init_gpt(), Tokenizer("abc"), random.Random(0))

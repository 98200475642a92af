"""explorer.model: the model explorer's numbers are engine.gpt's, checked independently.

Every expected number here is computed another way than the view computes it: logits by
a plain `engine.gpt.gpt` call on a fresh cache, probabilities and attention weights by
formulas written out with floats, gradients by a plain `document_loss(...).backward()` on a
second copy of the model, a contribution by finite differences.
"""

import math

import pytest

import explorer.model as em
from engine import checkpoint, snapshot
from engine.gpt import (
    GPTConfig,
    cross_entropy,
    document_loss,
    gpt,
    init_gpt,
    new_kv_cache,
)
from engine.tokenizer import Tokenizer

TOK = Tokenizer()


@pytest.fixture(autouse=True)
def no_learner(monkeypatch):
    """Each test starts with no learner's model (the shipped checkpoint is explored)."""
    monkeypatch.setattr(snapshot, "_learner", None)
    monkeypatch.setattr(em, "_prefixes", [])  # and no prefix the page asked for yet
    monkeypatch.setattr(em, "_names", [])


@pytest.fixture(scope="module")
def fresh():
    """A second, independent copy of the shipped model (its own Values)."""
    return checkpoint.load(em.CHECKPOINT_PATH).model


def floats(row):
    return [w.data for w in row]


def rms_normed(x, eps=1e-5):
    s = (sum(v * v for v in x) / len(x) + eps) ** -0.5
    return [v * s for v in x]


def matvec(w, x):
    return [sum(a * b for a, b in zip(floats(row), x)) for row in w]


def softmax(z):
    top = max(z)
    e = [math.exp(v - top) for v in z]
    return [v / sum(e) for v in e]


# -- forward -----------------------------------------------------------------------------


def test_forward_view_logits_are_those_of_engine_gpt(fresh):
    view = em.forward_view("emm")
    assert [t["symbol"] for t in view["tokens"]] == [".", "e", "m", "m"]
    assert [t["id"] for t in view["tokens"]] == [26, 4, 12, 12]
    assert view["symbols"][26] == "." and view["symbols"][:3] == ["a", "b", "c"]
    keys, values = new_kv_cache(fresh.config)
    for pos, token in enumerate(view["tokens"]):
        logits = gpt(fresh, token["id"], pos, keys, values)
        assert view["positions"][pos]["logits"] == floats(logits)  # exactly


def test_probs_are_the_softmax_of_the_logits():
    for position in em.forward_view("oli")["positions"]:
        assert position["probs"] == pytest.approx(softmax(position["logits"]), abs=1e-15)
        assert len(position["probs"]) == 27


def test_attention_rows_are_weights_over_the_positions_so_far(fresh):
    view = em.forward_view("emma")
    p, d = fresh.params, fresh.config.head_dim
    normed = [rms_normed(pos["residual"]["embed"]) for pos in view["positions"]]
    keys = [matvec(p["layer0.attn_wk"], x) for x in normed]
    for t, position in enumerate(view["positions"]):
        q = matvec(p["layer0.attn_wq"], normed[t])
        assert len(position["heads"]) == 4
        for h, row in enumerate(position["heads"]):
            assert len(row) == t + 1
            assert sum(row) == pytest.approx(1.0, abs=1e-12) and min(row) >= 0
            s = slice(h * d, (h + 1) * d)
            scores = [sum(a * b for a, b in zip(q[s], k[s])) / math.sqrt(d) for k in keys[: t + 1]]
            assert row == pytest.approx(softmax(scores), abs=1e-12)


def test_residual_stream_adds_up_and_ends_in_the_logits(fresh):
    view = em.forward_view("ava")
    p = fresh.params
    for pos, (token, position) in enumerate(zip(view["tokens"], view["positions"])):
        assert position["tok_emb"] == floats(p["wte"][token["id"]])
        assert position["pos_emb"] == floats(p["wpe"][pos])
        residual = position["residual"]
        total = [a + b for a, b in zip(position["tok_emb"], position["pos_emb"])]
        assert residual["sum"] == pytest.approx(total, abs=1e-15)
        assert residual["embed"] == pytest.approx(rms_normed(total), abs=1e-12)
        (layer,) = residual["layers"]
        assert len(layer["after_attn"]) == len(layer["after_mlp"]) == 16
        logits = matvec(p["lm_head"], layer["after_mlp"])
        assert position["logits"] == pytest.approx(logits, abs=1e-12)


def test_forward_view_says_which_model_it_reads():
    info = checkpoint.load(em.CHECKPOINT_PATH).info
    model = em.forward_view("")["model"]
    assert model["source"] == "checkpoint" and model["steps"] == 1000
    assert model["loss"] == info["held_out_loss"] and model["held_out_names"] == 516
    assert (model["n_embd"], model["n_head"], model["head_dim"]) == (16, 4, 4)
    assert (model["n_layer"], model["block_size"], model["vocab_size"]) == (1, 16, 27)
    assert em.model_info() == model


def test_the_learners_model_is_explored_once_a_snapshot_names_it():
    mine = init_gpt(seed=5)
    losses = [3.3, 3.2]
    snapshot.snapshot(mine, 2, 10, losses)
    losses.append(3.1)  # the loop goes on after the snapshot (a Stop comes later)
    view = em.forward_view("e")
    assert view["model"]["source"] == "trained" and view["model"]["steps"] == 3
    keys, values = new_kv_cache(mine.config)
    gpt(mine, 26, 0, keys, values)
    assert view["positions"][1]["logits"] == floats(gpt(mine, 4, 1, keys, values))


def test_a_deeper_model_shows_every_layers_heads():
    model = init_gpt(GPTConfig(n_layer=2, n_embd=8, n_head=2), seed=1)
    view = em.forward_view("ab", model)
    last = view["positions"][2]
    assert len(last["layers_heads"]) == 2 and last["layers_heads"][0] == last["heads"]
    assert all(len(row) == 3 for heads in last["layers_heads"] for row in heads)
    assert len(last["residual"]["layers"]) == 2
    assert "layers_heads" not in em.forward_view("ab")["positions"][2]


def test_upper_case_is_lowered():
    assert em.forward_view("EMM")["positions"] == em.forward_view("emm")["positions"]


@pytest.mark.parametrize(
    "prefix, message",
    [
        ("em3", "only the letters a-z: '3' is not one"),
        ("é", "only the letters a-z: 'é' \\(a letter with an accent\\) is not one"),
        ("em ma", "Type only the letters a-z: ' ' \\(a space\\) is not one"),
        ("anne-marie", "Type only the letters a-z: '-' \\(a hyphen\\) is not one"),
        ("a" * 16, "at most 15 letters"),
        (7, "must be text"),
    ],
)
def test_a_prefix_the_model_cannot_read_gets_a_clear_message(prefix, message):
    with pytest.raises(ValueError, match=message):
        em.forward_view(prefix)


def test_fifteen_letters_fill_the_block():
    assert len(em.forward_view("a" * 15)["positions"]) == 16


# -- backward ----------------------------------------------------------------------------


def test_matrix_gradients_are_those_of_one_plain_backward(fresh):
    view = em.backward_view("emma")
    for p in fresh.parameters():
        p.grad = 0.0
    loss = document_loss(fresh, TOK.encode("emma"))
    loss.backward()
    assert view["loss"] == loss.data
    assert view["name"] == "emma" and [t["symbol"] for t in view["tokens"]] == list(".emma.")
    assert sum(view["losses"]) / 5 == pytest.approx(loss.data, abs=1e-14)
    assert [m["name"] for m in view["matrices"]] == list(fresh.params)
    for m in view["matrices"]:
        grads = [[w.grad for w in row] for row in fresh.params[m["name"]]]
        assert m["shape"] == [len(grads), len(grads[0])]
        assert m["abs_grad"] == [[abs(g) for g in row] for row in grads]
        assert m["norm"] == pytest.approx(
            math.sqrt(sum(g * g for r in grads for g in r)), rel=1e-12
        )
    for p in fresh.parameters():
        p.grad = 0.0


def test_each_position_loss_is_minus_log_p_of_the_next_letter():
    view = em.backward_view("ada")
    forward = em.forward_view("ada")
    for t, loss in enumerate(view["losses"]):
        target = view["tokens"][t + 1]["id"]
        assert loss == pytest.approx(-math.log(forward["positions"][t]["probs"][target]), abs=1e-12)


def loss_at(model, tokens, t):
    """loss_t of the name `tokens` (BOS + name + BOS) under `model`, as a float."""
    keys, values = new_kv_cache(model.config)
    for pos in range(t + 1):
        logits = gpt(model, tokens[pos], pos, keys, values)
    return cross_entropy(logits, tokens[t + 1]).data


def test_contributions_are_gradient_sizes_of_one_positions_loss(fresh):
    tokens = TOK.encode("emma")
    for t in (1, 4):
        view = em.backward_view("emma", t)
        c = view["contributions"]
        assert view["position"] == t and len(c) == t + 1
        assert all(math.isfinite(x) and x >= 0 for x in c)
        # x_s = wte[token_s] + wpe[s], and wpe[s] is used at position s only: its gradient is
        # d loss_t / d x_s. Checked with a plain backward of loss_t.
        for p in fresh.parameters():
            p.grad = 0.0
        keys, values = new_kv_cache(fresh.config)
        for pos in range(t + 1):
            logits = gpt(fresh, tokens[pos], pos, keys, values)
        cross_entropy(logits, tokens[t + 1]).backward()
        expected = [math.sqrt(sum(w.grad**2 for w in fresh.params["wpe"][s])) for s in range(t + 1)]
        assert c == pytest.approx(expected, rel=1e-10)
        for p in fresh.parameters():
            p.grad = 0.0


def test_a_contribution_matches_finite_differences(fresh):
    tokens, t, s, eps = TOK.encode("emma"), 4, 1, 1e-5
    view = em.backward_view("emma", t)
    for p in fresh.parameters():
        p.grad = 0.0
    keys, values = new_kv_cache(fresh.config)
    for pos in range(t + 1):
        logits = gpt(fresh, tokens[pos], pos, keys, values)
    cross_entropy(logits, tokens[t + 1]).backward()
    row = fresh.params["wpe"][s]
    g = [w.grad for w in row]
    size = math.sqrt(sum(x * x for x in g))
    u = [x / size for x in g]  # the direction of steepest ascent: the slope there is |g|
    original = [w.data for w in row]
    for w, x, ui in zip(row, original, u):
        w.data = x + eps * ui
    up = loss_at(fresh, tokens, t)
    for w, x, ui in zip(row, original, u):
        w.data = x - eps * ui
    down = loss_at(fresh, tokens, t)
    for w, x in zip(row, original):
        w.data = x
    for p in fresh.parameters():
        p.grad = 0.0
    assert (up - down) / (2 * eps) == pytest.approx(view["contributions"][s], rel=1e-5)


def test_repeated_calls_give_the_same_numbers_and_leave_grads_as_they_were():
    model = em.shipped().model
    model.params["wte"][0][0].grad = 7.0
    first = em.backward_view("olivia", 2)
    second = em.backward_view("olivia", 2)
    assert first == second
    assert model.params["wte"][0][0].grad == 7.0
    assert sum(abs(p.grad) for p in model.parameters()) == 7.0
    model.params["wte"][0][0].grad = 0.0


@pytest.mark.parametrize(
    "name, position, message",
    [
        ("", None, "at least one letter"),
        ("emma", 5, "from 0 to 4"),
        ("emma", -1, "from 0 to 4"),
        ("emma", 1.5, "whole number"),
        ("em!", None, "'!' is not one"),
    ],
)
def test_bad_backward_requests_get_clear_messages(name, position, message):
    with pytest.raises(ValueError, match=message):
        em.backward_view(name, position)


def test_the_explorer_wheel_ships_the_checkpoint():
    import site_build
    from wheels import package_files

    files = package_files(em.CHECKPOINT_PATH.parents[2], "explorer", data=site_build.EXPLORER_DATA)
    assert files["explorer/data/microgpt.json"] == em.CHECKPOINT_PATH.read_bytes()
    assert "explorer/model.py" in files


def test_a_model_of_another_vocabulary_needs_its_tokenizer():
    model = init_gpt(GPTConfig(vocab_size=3), seed=0)
    with pytest.raises(ValueError, match="pass a Checkpoint"):
        em.forward_view("ab", model)
    ours = checkpoint.loads(checkpoint.dumps(model, Tokenizer("ab")))
    view = em.forward_view("ba", ours)
    assert view["symbols"] == ["a", "b", "."] and view["model"]["source"] == "checkpoint"
    with pytest.raises(ValueError, match="only the symbols 'ab': 'c' is not one"):
        em.forward_view("abc", ours)


# -- while a training cell runs: the views a snapshot carries -------------------------------


def test_a_snapshot_carries_the_views_the_page_asked_for_of_the_model_being_trained():
    model, losses = init_gpt(seed=3), [3.3]
    assert "views" not in snapshot.snapshot(model, 1, 10, losses).to_json()  # nothing asked yet
    em.forward_view("EMM")  # the page's questions (no model given): watched
    em.backward_view("ann", 1)
    em.forward_view("x", model)  # a question with a model of its own is not the page's
    losses.append(3.2)
    data = snapshot.snapshot(model, 2, 10, losses).to_json()
    (forward,) = data["views"]["forward"]
    want = em.forward_view("emm", model)
    assert forward["prefix"] == "emm" and forward["positions"] == want["positions"]
    assert forward["model"]["source"] == "trained" and forward["model"]["steps"] == 2
    (backward,) = data["views"]["backward"]
    assert backward["asked_position"] == 1 and backward["position"] == 1
    assert backward["contributions"] == em.backward_view("ann", 1, model)["contributions"]
    assert backward["loss"] == em.backward_view("ann", 1, model)["loss"]


def test_only_the_last_few_questions_are_watched():
    for prefix in ("a", "b", "c", "d", "b"):
        em.forward_view(prefix)
    data = snapshot.snapshot(init_gpt(seed=0), 1, 2, [3.3]).to_json()
    assert [v["prefix"] for v in data["views"]["forward"]] == ["c", "d", "b"]


def test_a_saved_model_comes_back_as_the_learners_model():
    assert em.saved_model() is None  # no learner's model: nothing to keep
    model = init_gpt(seed=4)
    snapshot.snapshot(model, 3, 3, [3.3, 3.1, 3.0])
    saved = em.saved_model()
    assert saved["trained"] == 3 and saved["losses"] == [3.3, 3.1, 3.0]
    want = em.forward_view("emm")["positions"][-1]["probs"]
    snapshot._learner = None  # a new visit: a fresh Python
    assert em.model_info()["source"] == "checkpoint"
    shot = em.restore_model(saved)
    assert shot["model"]["source"] == "trained" and shot["model"]["steps"] == 3
    assert shot["losses"] == [3.3, 3.1, 3.0]
    view = em.forward_view("emm")
    assert view["model"]["steps"] == 3
    assert view["positions"][-1]["probs"] == pytest.approx(want, abs=1e-6)
    with pytest.raises(ValueError, match="not a model the model explorer saved"):
        em.restore_model({"weights": []})

"""Day 25: the parameter table, the uniform loss and its gradient, and the page's model."""

import math

import pytest

from engine import Value

from .pages import ROOT, assert_states, lesson

PAGE = lesson("day25_microgpt")
SHAPES = {
    "wte": (27, 16),
    "wpe": (16, 16),
    "attn_wq": (16, 16),
    "attn_wk": (16, 16),
    "attn_wv": (16, 16),
    "attn_wo": (16, 16),
    "mlp_fc1": (64, 16),
    "mlp_fc2": (16, 64),
    "lm_head": (27, 16),
}


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def test_parameter_table_stated():
    total = sum(r * c for r, c in SHAPES.values())
    assert_states(PAGE, total, "4,192")
    assert_states(PAGE, 27 * 16, "432")
    assert_states(PAGE, 16 * 16, "256")
    assert_states(PAGE, 4 * 16 * 16, "1,024")
    assert_states(PAGE, 2 * 64 * 16, "2,048")


def test_page_model_has_the_stated_shapes(namespace):
    params = namespace["params"]
    assert {k: (len(W), len(W[0])) for k, W in params.items()} == SHAPES
    assert len(namespace["flat"]) == 4192


def test_engine_gpt_counts_the_same():
    from engine.gpt import GPTConfig, count_parameters, init_gpt

    assert count_parameters(GPTConfig()) == 4192
    assert len(init_gpt(GPTConfig(), seed=3).parameters()) == 4192


def test_package_model_gives_the_page_loss(namespace):
    """The page's hand-built model and engine.gpt agree on the same weights."""
    assert namespace["package_loss"].data == pytest.approx(namespace["loss"].data, rel=1e-12)
    assert (
        len(namespace["package_loss"].topological_order())
        < len(namespace["loss"].topological_order()) / 5
    )


def test_uniform_loss_and_gradient_stated():
    # equal logits: compute the loss and its gradient with the engine, not with the formula
    logits = [Value(0.0) for _ in range(27)]
    exps = [z.exp() for z in logits]
    total = sum(exps)
    loss = -(exps[4] / total).log()
    loss.backward()
    assert_states(PAGE, 1 / 27, "0.037037")
    assert_states(PAGE, loss.data, "3.295837")
    assert_states(PAGE, logits[4].grad, "-0.962963")
    assert logits[0].grad == pytest.approx(1 / 27)


def test_fresh_model_is_near_uniform(namespace):
    probs = [p.data for p in namespace["probs"]]
    assert sum(probs) == pytest.approx(1.0)
    assert all(0.5 / 27 < p < 2 / 27 for p in probs)  # within a factor 2 of uniform
    assert namespace["loss"].data == pytest.approx(math.log(27), abs=0.3)


def test_graph_size_stated(namespace):
    assert_states(PAGE, len(namespace["loss"].topological_order()), "43,091")


def test_backward_reaches_every_used_parameter(namespace):
    params = namespace["params"]
    # emma uses positions 0..4 and the tokens BOS, e, m, a: those rows get gradient
    assert all(p.grad != 0 for row in params["wpe"][:5] for p in row)
    assert all(p.grad == 0 for row in params["wpe"][5:] for p in row)
    assert all(p.grad == 0 for p in params["wte"][25])  # z is not in emma
    assert all(p.grad != 0 for p in params["lm_head"][25])  # but its score was pushed down


def test_attention_reads_the_past(namespace):
    """Position 1's logits depend on the token at position 0, only through keys and values."""
    gpt = namespace["gpt"]

    def logits_after(first):
        keys, values = [], []
        gpt(first, 0, keys, values)
        out = [z.data for z in gpt(4, 1, keys, values)]
        assert len(keys) == len(values) == 2
        return out

    assert logits_after(26) != logits_after(0)


def test_n_is_a_position_never_the_normalised_vector():
    # Days 22-23 write n for a position; the math names the normalised h u.
    text = PAGE.text
    assert "u = \\operatorname{norm}(h)" in text
    assert "n = \\operatorname{norm}" not in text and "W_Q\\, n" not in text
    derivatives = (ROOT / "docs" / "reference" / "derivatives.md").read_text(encoding="utf-8")
    assert "\\frac{1}{E}\\sum_i x_i^2" in derivatives and "\\frac{1}{d}" not in derivatives
    assert "y_j}{d}" not in derivatives

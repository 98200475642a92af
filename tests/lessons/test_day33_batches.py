"""Day 33: the worked batch, the scalar and batched models on the same weights, the noise
of mini-batch gradients, the run on batches and the speed.

Expected numbers come from plain floats (math) and from day 21's scalar model in Values,
written here again, not from the page's cells.
"""

import math
import random

import pytest

from engine import Value
from engine.batched import Adam, batch, init_mlp_lm
from engine.gpt import cross_entropy as value_cross_entropy
from engine.gpt import mean
from engine.optim import Adam as ValueAdam

from .pages import assert_states, lesson

PAGE = lesson("day33_batches")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def _loss(z, y):
    top = max(z)
    return top + math.log(sum(math.exp(v - top) for v in z)) - z[y]


def test_the_worked_batch():
    C, X, Y = [1.0, -1.0, 0.5], [[2, 0], [1, 2], [0, 1], [2, 2]], [2, 0, 1, 1]
    losses = []
    for (t1, t2), y in zip(X, Y):
        a = C[t1] - C[t2]
        h = math.tanh(a)
        z = [2 * h, 0.0, -2 * h]
        losses.append(_loss(z, y))
        if a:
            assert_states(PAGE, h, f"{h:.6f}")
            assert_states(PAGE, 2 * h, f"{2 * h:.6f}")
    for value, text in zip(losses, ["0.441034", "3.794859", "2.082132", "1.098612"]):
        assert_states(PAGE, value, text)
    assert_states(PAGE, sum(losses) / 4, "1.854159")
    assert "$(0.441034 + 3.794859 + 2.082132 + 1.098612) / 4 = 1.854159$" in PAGE.text


def test_the_worked_cell_prints_the_shapes_and_the_loss():
    namespace = {}
    exec(PAGE.cells[0], namespace)  # later cells reuse the names x, h, logits and loss
    shapes = [namespace[n].shape for n in ("emb", "x", "h", "logits", "loss")]
    assert shapes == [(4, 2, 1), (4, 2), (4, 1), (4, 3), ()]
    assert namespace["loss"].item() == pytest.approx(1.854159, abs=5e-7)
    text = " ".join(PAGE.text.split())
    stated = "the embeddings $(4, 2, 1)$, $x$ is $(4, 2)$, $h$ is $(4, 1)$ and the logits $(4, 3)$"
    assert stated in text
    # the shapes are stated after the cell, not above the question that asks for one of them
    question = text.index("id: shape-of-the-embeddings")
    cell = text.index("emb = C.rows(X)")
    assert question < cell < text.index(stated)


def _scalar_model(model):
    """Day 21's model in Values on the model's weights: its logits, its Values in day 21's
    order, and the same Values flat, by the name of the tensor they copy."""
    C, W1, b1, W2, b2 = model.parameters()
    rows = lambda t: [[Value(v) for v in row] for row in t.tolist()]  # noqa: E731
    Cv, W1v, W2v = rows(C), rows(W1), rows(W2)
    b1v, b2v = [Value(v) for v in b1.data], [Value(v) for v in b2.data]

    def logits(context):
        x = [v for t in context for v in Cv[t]]
        h = [(sum(w * xi for w, xi in zip(r, x)) + b).tanh() for r, b in zip(W1v, b1v)]
        return [sum(w * hi for w, hi in zip(r, h)) + b for r, b in zip(W2v, b2v)]

    params = [v for M in (Cv, W1v, W2v) for row in M for v in row] + b1v + b2v
    flat = lambda M: [v for row in M for v in row]  # noqa: E731
    by_name = {"C": flat(Cv), "W1": flat(W1v), "b1": b1v, "W2": flat(W2v), "b2": b2v}
    return logits, params, by_name


def test_the_same_loss_as_the_scalar_model(namespace):
    model = init_mlp_lm(seed=0)
    X, Y = namespace["X"], namespace["Y"]
    xb, yb = batch(X, Y, 32, random.Random(33))
    logits, _, values = _scalar_model(model)
    scalar = mean([value_cross_entropy(logits(c), y) for c, y in zip(xb, yb)])
    assert_states(PAGE, scalar.data, "3.294413")
    assert namespace["batched"].item() == pytest.approx(scalar.data, rel=1e-12)
    scalar.backward()
    batched = model.loss(xb, yb)
    batched.backward()
    gaps = {}
    for name, t in zip(("C", "W1", "b1", "W2", "b2"), model.parameters()):
        flat = [v.grad for v in values[name]]
        gaps[name] = max(abs(g - v) for g, v in zip(t.grad, flat))
        if name != "C":
            assert t.grad == flat, name  # "to the last bit"
    assert gaps["C"] > 0  # "the gradients of C differ", by rounding only
    assert f"{gaps['C']:.1e}" == "3.5e-18"
    text = " ".join(PAGE.text.split())
    assert "The gradients of $C$ differ by at most $3.5 \\times 10^{-18}$" in text
    assert "those of $C$ up to rounding ($3.5 \\times 10^{-18}$)" in text
    largest = max(abs(v.grad) for v in values["C"])
    assert_states(PAGE, largest, "0.003")
    assert namespace["gaps"] == pytest.approx(gaps, abs=0)
    assert len(xb) == 32 and len(xb[0]) == 3


def test_the_noise_of_mini_batch_gradients(namespace):
    model = init_mlp_lm(seed=0)
    X, Y = namespace["X"][:2000], namespace["Y"][:2000]
    C, W1, b1, W2, b2 = (p.tolist() for p in model.parameters())
    a = 0  # the id of "a"
    g = []
    for context, y in zip(X, Y):
        x = [v for t in context for v in C[t]]
        h = [math.tanh(sum(w * xi for w, xi in zip(r, x)) + b) for r, b in zip(W1, b1)]
        z = [sum(w * hi for w, hi in zip(r, h)) + b for r, b in zip(W2, b2)]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        g.append(e[a] / sum(e) - (y == a))
    full = sum(g) / len(g)
    assert_states(PAGE, full, "-0.0997")
    assert_states(PAGE, len(g), "2,000")
    rng = random.Random(3)
    spreads, wrong_sign = {}, {}
    for B in (4, 32):
        est = [sum(rng.sample(g, B)) / B for _ in range(2000)]
        avg = sum(est) / len(est)
        spreads[B] = math.sqrt(sum((e - avg) ** 2 for e in est) / len(est))
        wrong_sign[B] = sum(1 for e in est if e > 0) / len(est)  # the full gradient is < 0
        assert abs(avg - full) < 0.02  # "both average close to the full gradient"
    assert_states(PAGE, spreads[4], "0.1685")
    assert_states(PAGE, spreads[32], "0.0598")
    assert_states(PAGE, spreads[4] / spreads[32], "2.82")
    assert_states(PAGE, math.sqrt(8), "2.8")
    assert_states(PAGE, math.sqrt(4), "2")  # the math's example: 4 times larger, 2 times less
    assert "$\\sqrt 4 = 2$ times less" in PAGE.text
    assert namespace["spreads"] == pytest.approx(spreads, rel=1e-9)
    # one batch of 4 with no target "a" points the other way
    assert any(y != a for y in Y) and full < 0
    assert namespace["wrong_sign"] == pytest.approx(wrong_sign, abs=0)
    assert_states(PAGE, 100 * wrong_sign[4], "58.4")
    assert_states(PAGE, 100 * wrong_sign[32], "5.0")
    assert "58.4% of the batches of 4 and 5.0% of the batches of 32" in " ".join(PAGE.text.split())


def test_the_run_on_batches(namespace):
    # The first steps of the page's run, with day 21's scalar model and Adam on Values.
    model = init_mlp_lm(seed=0)
    logits, params, _ = _scalar_model(model)
    optimizer = ValueAdam(params, lr=0.03)
    rng = random.Random(21)
    X, Y = namespace["X"], namespace["Y"]
    for step in range(3):
        xb, yb = batch(X, Y, 32, rng)
        optimizer.zero_grad()
        loss = mean([value_cross_entropy(logits(c), y) for c, y in zip(xb, yb)])
        loss.backward()
        optimizer.lr = 0.03 * (1 - step / 200)
        optimizer.step()
        assert namespace["losses"][step] == pytest.approx(loss.data, rel=1e-10)
    assert namespace["steps"] == 200 and len(namespace["losses"]) == 200
    held_out = namespace["model"].loss(namespace["X_test"], namespace["Y_test"]).item()
    assert_states(PAGE, held_out, "2.3651")
    assert_states(PAGE, len(namespace["X_test"]), "3,670")
    assert "2.2728" in lesson("day21_mlp_language_model").text  # day 21's number
    assert_states(PAGE, 2.2728, "2.2728")
    assert isinstance(Adam, type)


def test_the_speed_cell_measures_a_faster_batch(namespace):
    assert namespace["many"] < namespace["one"]  # the page says "2.5 to 5.5 times"; times vary
    text = " ".join(PAGE.text.split())
    assert "a few times faster: between 2.5 and 5.5 times in CPython" in text
    hedge = "(2.5 to 5.5 times in CPython on the machine where this page was written; the cell"
    assert hedge in text


def test_numbers_in_x():
    assert_states(PAGE, 32 * 3 * 4, "384")
    assert_states(PAGE, 32 * 12, "384")

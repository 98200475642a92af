"""engine.snapshot: what a training cell shows every few steps, and how it reaches the page."""

import importlib.util
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import engine.plot
from engine import snapshot as snap
from engine.gpt import GPTConfig, init_gpt, sample_names
from engine.plot import line_plot
from engine.tokenizer import Tokenizer
from explorer.model import forward_view

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_learner(monkeypatch):
    monkeypatch.setattr(snap, "_learner", None)
    # No page has asked for views: explorer.model's watcher (registered on import) answers
    # for the prefix an earlier test asked forward_view for, which would add "views".
    monkeypatch.setattr(snap, "_watchers", [])


def test_json_has_the_shape_the_page_draws():
    model = init_gpt(seed=2)
    data = snap.snapshot(model, 30, 100, [3.0 - i / 100 for i in range(30)]).to_json()
    assert set(data) == {"step", "steps", "losses", "loss_steps", "samples", "attention", "model"}
    assert (data["step"], data["steps"]) == (30, 100)
    assert data["losses"] == pytest.approx([3.0 - i / 100 for i in range(30)], abs=1e-15)
    assert data["loss_steps"] == list(range(1, 31))
    assert data["samples"] == sample_names(model, Tokenizer(), 3, seed=0)
    attention = data["attention"]
    assert attention["name"] == "emma" and attention["tokens"] == list(".emma")
    assert (attention["layer"], attention["head"]) == (0, 0)
    heads = [p["heads"][0] for p in forward_view("emma", model)["positions"]]
    assert attention["weights"] == heads
    for t, row in enumerate(attention["weights"]):
        assert len(row) == t + 1 and sum(row) == pytest.approx(1.0, abs=1e-12)
    assert data["model"] == {
        "source": "trained",
        "steps": 30,
        "loss": None,
        "held_out_names": None,
        "n_embd": 16,
        "n_head": 4,
        "head_dim": 4,
        "n_layer": 1,
        "block_size": 16,
        "vocab_size": 27,
    }
    json.dumps(data, allow_nan=False)  # plain JSON


def test_a_long_curve_is_sent_as_at_most_200_means():
    means, ends = snap.downsample([float(i) for i in range(1000)])
    assert len(means) == 200 and means[0] == 2.0 and means[-1] == 997.0  # means of 5 steps
    assert ends[:2] == [5, 10] and ends[-1] == 1000
    means, ends = snap.downsample([1.0] * 449 + [4.0, 6.0])  # 3 a point, the last of 1
    assert len(means) == 151 and means[-2:] == [2.0, 6.0] and ends[-2:] == [450, 451]
    assert snap.downsample([]) == ([], [])


def test_the_snapshot_makes_the_model_the_learners():
    assert snap.learner() is None
    model, losses = init_gpt(seed=1), [3.1]
    snap.snapshot(model, 1, 10, losses)
    losses += [3.0, 2.9]  # training goes on; a Stop leaves the list as it is
    mine = snap.learner()
    assert mine.model is model and mine.trained == 3 and mine.steps == 10
    other = init_gpt(seed=2)
    snap.snapshot(other, 1, 5, [3.0])
    assert snap.learner().model is other


def test_a_second_run_of_the_same_model_continues_its_count_of_steps():
    model = init_gpt(seed=1)
    first = [3.3, 3.2, 3.1]
    snap.snapshot(model, 3, 3, first)
    second = []  # the cell runs again: a new list, the same (already trained) model
    assert snap.snapshot(model, 0, 2, second).to_json()["model"]["steps"] == 3
    second += [3.0, 2.9]
    shot = snap.snapshot(model, 2, 2, second)
    assert shot.to_json()["model"]["steps"] == 5 and snap.learner().trained == 5
    assert shot.to_json()["step"] == 2  # the run's own step, for its curve
    second.append(2.8)  # a Stop after one more step: the list tells
    assert snap.learner().trained == 6
    fresh = init_gpt(seed=1)  # a new model starts from 0 again
    assert snap.snapshot(fresh, 1, 5, [3.3]).to_json()["model"]["steps"] == 1


def test_other_heads_names_and_models():
    model = init_gpt(GPTConfig(n_layer=2, n_embd=8, n_head=2), seed=3)
    data = snap.snapshot(model, 1, 2, [3.3], name="zoe", head=1).to_json()
    assert data["attention"]["head"] == 1 and data["attention"]["tokens"] == list(".zoe")
    assert data["attention"]["weights"] == [
        p["heads"][1] for p in forward_view("zoe", model)["positions"]
    ]
    with pytest.raises(ValueError, match="head must be from 0 to 1"):
        snap.snapshot(model, 1, 2, [3.3], head=2)
    with pytest.raises(ValueError, match="tokenizer has 3 symbols"):
        snap.snapshot(model, 1, 2, [3.3], tokenizer=Tokenizer("ab"))


def test_svg_is_one_figure_with_the_curve_the_grid_and_the_names():
    shot = snap.snapshot(init_gpt(seed=0), 4, 10, [3.4, 3.3, 3.3, 3.2])
    root = ET.fromstring(shot._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    assert "step 4 of 10" in root.find(f"{ns}title").text
    texts = [t.text for t in root.iter(f"{ns}text")]
    for name in shot.samples:
        assert (name or "(empty)") in texts
    cells = [r for r in root.iter(f"{ns}rect") if r.get("width") == "24"]
    assert len(cells) == 1 + 2 + 3 + 4 + 5  # rows of 1..5 weights for ".emma"
    assert "<Snapshot step 4 of 10, loss 3.2000" in repr(shot)


def test_a_curve_of_equal_losses_draws():
    # Means of equal numbers can differ in the last bit; the axis must still get ticks.
    line_plot([3.3, 3.3 + 4.4e-16, 3.3]).svg()
    snap.snapshot(init_gpt(seed=0), 500, 500, [3.3] * 500).svg()


# -- through the course pages' cell runner (web/cellrun.py), under CPython ------------------


@pytest.fixture
def cellrun(monkeypatch):
    """web/cellrun.py as the worker loads it, its emitter collecting (kind, text, key)."""
    monkeypatch.setattr(engine.plot, "display_hook", None)
    spec = importlib.util.spec_from_file_location(
        "course_cellrun_test", ROOT / "web" / "cellrun.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    emitted = []
    module.set_emitter(lambda kind, text, key=None: emitted.append((kind, text, key)))
    yield module, emitted
    module.reset("snapshot-test")


def test_a_shown_snapshot_sends_one_model_message(cellrun):
    module, emitted = cellrun
    code = (
        "from engine.gpt import init_gpt\n"
        "from engine.snapshot import snapshot\n"
        "model = init_gpt(seed=0)\n"
        "losses = [3.3, 3.2]\n"
        "snapshot(model, 2, 10, losses).show(key='model')\n"
        "print('trained')\n"
    )
    result = json.loads(module.run(code, "snapshot-test", "<cell 1>"))
    assert result == {"ok": True}
    kinds = [kind for kind, _, _ in emitted]
    assert kinds.count("model") == 1 and kinds.count("figure") == 1
    (text, key) = next((t, k) for kind, t, k in emitted if kind == "model")
    assert key == "model"
    data = json.loads(text)
    assert data["step"] == 2 and data["losses"] == [3.3, 3.2] and len(data["samples"]) == 3
    assert len(data["attention"]["weights"]) == 5 and data["model"]["source"] == "trained"
    assert snap.learner().trained == 2


def test_a_snapshot_as_last_expression_is_shown_too_and_a_figure_sends_no_model(cellrun):
    module, emitted = cellrun
    module.run(
        "from engine.gpt import init_gpt\nfrom engine.snapshot import snapshot\n"
        "snapshot(init_gpt(seed=0), 1, 1, [3.3])",
        "snapshot-test",
        "<cell 1>",
    )
    assert sorted(kind for kind, _, _ in emitted) == ["figure", "model"]
    emitted.clear()
    module.run("from engine.plot import line_plot\nline_plot([1, 2])", "snapshot-test", "<cell 2>")
    assert [kind for kind, _, _ in emitted] == ["figure"]


def test_model_json_has_no_nan(cellrun):
    module, emitted = cellrun
    module.run(
        "from engine.gpt import init_gpt\nfrom engine.snapshot import snapshot\n"
        "snapshot(init_gpt(seed=0), 1, 2, [float('nan'), 3.0]).show()",
        "snapshot-test",
        "<cell 1>",
    )
    text = next(t for kind, t, _ in emitted if kind == "model")
    assert json.loads(text)["losses"][0] is None and not math.isnan(json.loads(text)["losses"][1])


def test_after_a_stop_the_explorer_reads_the_weights_trained_so_far(cellrun):
    module, emitted = cellrun
    code = (
        "from engine.gpt import init_gpt, training\n"
        "from engine.snapshot import snapshot\n"
        "from engine.tokenizer import Tokenizer\n"
        "tok = Tokenizer()\n"
        "docs = [tok.encode(n) for n in ('emma', 'olivia', 'ava', 'mia')]\n"
        "model = init_gpt(seed=0)\n"
        "losses = []\n"
        "for result in training(model, docs, steps=10):\n"
        "    losses.append(result.loss)\n"
        "    if result.step == 0:\n"
        "        snapshot(model, 1, 10, losses).show(key='model')\n"
        "    if result.step == 2:\n"
        "        raise KeyboardInterrupt  # what Stop does, between two steps\n"
    )
    result = json.loads(module.run(code, "snapshot-test", "<cell 1>"))
    assert result["interrupted"]
    view = json.loads(module.call("explorer.model", "forward_view", '["em"]'))
    assert view["model"]["source"] == "trained" and view["model"]["steps"] == 3
    model = module.namespace("snapshot-test")["model"]
    expected = forward_view("em", model)["positions"]  # the namespace's model, 3 steps in
    assert view["positions"] == json.loads(json.dumps(expected))
    assert view["positions"] != json.loads(
        json.dumps(forward_view("em", init_gpt(seed=0))["positions"])
    )

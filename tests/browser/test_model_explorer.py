"""The model explorer (web/model/) in Chromium.

Most tests use a page of its own (model_harness.py) whose numbers come from
`explorer.model` in this Python process, so each one compares what the page shows with what
the engine computes for the same prefix. The last ones use the built site, where the numbers
come from Pyodide in the course worker: the page agrees with CPython, passes axe in both
palettes, fits 390 px, and follows a training cell of day 30 live.
"""

from __future__ import annotations

import json
import math
import re

import pytest

import engine.snapshot
import explorer.model
from engine.gpt import init_gpt
from explorer.model import backward_view, forward_view, restore_model, saved_model
from tests.browser.helpers import editor_text, set_code, wait_state
from tests.browser.model_harness import ROOT, model_harness_url, open_harness  # noqa: F401

READY = "[data-model-explorer][data-state=ready]"


@pytest.fixture
def explorer_page(page, model_harness_url, monkeypatch):  # noqa: F811
    """Open the harness page with the given prefix, views and seed; waits until drawn.
    The page's Python is this process: its learner's model and watched prefixes are put
    back as they were after the test."""
    monkeypatch.setattr(engine.snapshot, "_learner", None)
    monkeypatch.setattr(explorer.model, "_prefixes", [])
    monkeypatch.setattr(explorer.model, "_names", [])
    opened = []

    def open_(prefix="emm", views="all", seed=7, wait=True):
        open_harness(
            page,
            model_harness_url,
            forward_view,
            backward_view,
            prefix=prefix,
            views=views,
            seed=seed,
            save=saved_model,
            restore=restore_model,
        )
        opened.append(page)
        if wait:
            shown(page, prefix)
        return page

    yield open_
    for p in opened:
        assert not p.errors, f"uncaught page errors: {p.errors}"


def shown(page, prefix, state="ready"):
    """Wait until the explorer has drawn `prefix` (and says `state`)."""
    page.wait_for_selector(
        f"[data-model-explorer][data-state={state}][data-shown='{prefix}']", state="attached"
    )


def softmax(z, temperature=1.0):
    """Written out here, from the definition: exp(z_i / T) / sum_j exp(z_j / T)."""
    top = max(z)
    e = [math.exp((x - top) / temperature) for x in z]
    return [x / sum(e) for x in e]


def probs_shown(page):
    return page.eval_on_selector_all(
        "[data-role=probs] [data-token]",
        "els => els.map(e => [e.dataset.token, Number(e.dataset.p)])",
    )


def number_in(label):
    """The number at the end of an aria-label ("... weight 0.123")."""
    return float(re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]\d+)?", label)[-1])


def tab_to(page, selector, limit=300):
    """Press Tab until the focused element matches `selector`; fail if it never does."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    raise AssertionError(f"Tab never reached {selector}")


# -- forward ---------------------------------------------------------------------------------


def test_typing_a_prefix_draws_every_head_with_the_engines_weights(explorer_page):
    page = explorer_page(prefix="")
    page.fill("input[data-role=prefix]", "")
    page.type("input[data-role=prefix]", "emma", delay=30)
    shown(page, "emma")
    want = forward_view("emma")
    n_head = want["model"]["n_head"]
    assert page.locator("[data-head]").count() == n_head == 4
    for h in range(n_head):
        rows = json.loads(page.get_attribute(f"[data-head='{h}']", "data-weights"))
        assert len(rows) == 5  # BOS, e, m, m, a
        for t, row in enumerate(rows):
            assert len(row) == t + 1
            assert math.isclose(sum(row), 1.0, abs_tol=1e-9)
            assert row == pytest.approx(want["positions"][t]["heads"][h], abs=1e-12)
        # one focusable-on-demand cell per weight: a triangle of 1 + 2 + ... + 5
        assert page.locator(f"[data-head='{h}'] .gm-cell").count() == 15


def test_the_bars_are_the_engines_probabilities_largest_first(explorer_page):
    page = explorer_page(prefix="ann")
    want = forward_view("ann")
    bars = probs_shown(page)
    assert len(bars) == 27 == len(want["symbols"])
    probs = dict(bars)
    for i, symbol in enumerate(want["symbols"]):
        assert probs[symbol] == pytest.approx(want["positions"][-1]["probs"][i], abs=1e-12)
    ps = [p for _, p in bars]
    assert ps == sorted(ps, reverse=True)


@pytest.mark.parametrize("presses, temperature", [(5, 0.5), (9, 0.1), (-10, 2.0)])
def test_the_temperature_slider_gives_softmax_of_the_logits_over_t(
    explorer_page, presses, temperature
):
    page = explorer_page(prefix="em")
    calls = page.evaluate("window.modelCalls.length")
    logits = forward_view("em")["positions"][-1]["logits"]
    symbols = forward_view("em")["symbols"]
    page.focus("input[data-role=temperature]")
    for _ in range(abs(presses)):
        page.keyboard.press("ArrowLeft" if presses > 0 else "ArrowRight")
    assert page.input_value("input[data-role=temperature]") == str(temperature).removesuffix(".0")
    assert f"T = {temperature:.1f}" in page.inner_text("[data-view=probs] label")
    want = dict(zip(symbols, softmax(logits, temperature)))
    got = dict(probs_shown(page))
    assert got == pytest.approx(want, abs=1e-12)
    assert got != pytest.approx(dict(zip(symbols, softmax(logits))), abs=1e-6)
    assert page.evaluate("window.modelCalls.length") == calls  # no Python call for a slider


def test_sample_appends_a_letter_whose_probability_was_shown(explorer_page):
    page = explorer_page(prefix="k", seed=3)
    appended = ended = 0
    for _ in range(12):
        before = page.input_value("input[data-role=prefix]")
        bars = dict(probs_shown(page))
        page.click("[data-action=sample]")
        drawn = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))
        assert drawn["prefix"] == before
        assert bars[drawn["symbol"]] > 0
        assert drawn["p"] == pytest.approx(bars[drawn["symbol"]], abs=1e-12)
        if drawn["symbol"] == ".":  # BOS: the name ends, nothing is appended
            assert "end of a name" in page.inner_text("[data-view=probs] [role=status]")
            assert page.input_value("input[data-role=prefix]") == before
            ended += 1
            break
        shown(page, before + drawn["symbol"])
        assert page.input_value("input[data-role=prefix]") == before + drawn["symbol"]
        appended += 1
    assert appended + ended >= 1


def test_top_k_and_top_p_cut_the_bars_and_sample_draws_only_what_is_kept(explorer_page):
    from engine.gpt import filter_probs

    page = explorer_page(prefix="em", views="probs,filters", seed=5)
    calls = page.evaluate("window.modelCalls.length")
    want = forward_view("em")
    symbols, logits = want["symbols"], want["positions"][-1]["logits"]
    # Off by default: the bars are softmax(logits), nothing is cut.
    assert page.input_value("input[data-role=top-k]") == "27"
    assert page.input_value("input[data-role=top-p]") == "1"
    assert "all (off)" in page.inner_text("label[for$=top-k]")
    assert page.locator("[data-role=probs] [data-cut]").count() == 0
    assert dict(probs_shown(page)) == pytest.approx(dict(zip(symbols, softmax(logits))), abs=1e-12)
    # Top-k 5 from the keyboard: 22 symbols cut, the 5 kept renormalised as the engine does.
    page.focus("input[data-role=top-k]")
    for _ in range(22):
        page.keyboard.press("ArrowLeft")
    assert page.inner_text("label[for$=top-k]") == "Top-k: keep k = 5"
    assert page.locator("[data-role=probs] [data-cut=top-k]").count() == 22
    assert dict(probs_shown(page)) == pytest.approx(
        dict(zip(symbols, filter_probs(softmax(logits), top_k=5))), abs=1e-12
    )
    # Top-p 0.5 on what top-k left, at T = 0.5.
    page.focus("input[data-role=top-p]")
    for _ in range(10):
        page.keyboard.press("ArrowLeft")
    page.focus("input[data-role=temperature]")
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    assert "p = 0.50" in page.inner_text("label[for$=top-p]")
    expected = filter_probs(softmax(logits, 0.5), 5, 0.5)
    assert dict(probs_shown(page)) == pytest.approx(dict(zip(symbols, expected)), abs=1e-12)
    kept = sum(x > 0 for x in expected)
    assert page.locator("[data-role=probs] [data-cut]").count() == 27 - kept
    assert page.locator("[data-role=probs] [data-cut=top-p]").count() == 5 - kept
    assert f"{kept} of the 27 symbols kept" in page.inner_text("[data-view=probs] .gm-caption")
    cut = page.locator("[data-role=probs] [data-cut]").first
    assert "cut by top-" in cut.get_attribute("aria-label")
    assert cut.inner_text().split()[-1] == "cut"
    assert page.evaluate("window.modelCalls.length") == calls  # no Python call for a slider
    # Sample draws from the bars shown: never a cut symbol.
    for _ in range(6):
        before = page.input_value("input[data-role=prefix]")
        bars = dict(probs_shown(page))
        page.click("[data-action=sample]")
        drawn = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))
        assert bars[drawn["symbol"]] > 0
        assert drawn["p"] == pytest.approx(bars[drawn["symbol"]], abs=1e-12)
        if drawn["symbol"] == ".":
            break
        shown(page, before + drawn["symbol"])
        # the filters stay set for the next prefix
        assert page.locator("[data-role=probs] [data-cut]").count() >= 22


def test_sampling_replays_with_the_same_seed(explorer_page):
    names = []
    for _ in range(2):
        page = explorer_page(prefix="m", seed=11)
        for _ in range(3):
            before = page.input_value("input[data-role=prefix]")
            page.click("[data-action=sample]")
            symbol = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))[
                "symbol"
            ]
            if symbol == ".":
                break
            shown(page, before + symbol)
        names.append(page.input_value("input[data-role=prefix]"))
    assert names[0] == names[1]


def test_a_reply_for_an_older_prefix_never_overwrites_a_newer_one(explorer_page):
    page = explorer_page(prefix="e")
    page.evaluate("window.delays = { em: 600 }; window.shownHistory = []")
    page.focus("input[data-role=prefix]")
    page.keyboard.press("End")
    page.keyboard.type("m")  # "em", whose reply is held back
    page.wait_for_function(
        "window.modelCalls.some(([kind, p]) => kind === 'forward' && p === 'em')"
    )
    page.keyboard.type("m")  # "emm", asked while "em" is on its way
    shown(page, "emm")
    page.wait_for_timeout(800)  # "em"'s late reply has arrived by now
    assert page.get_attribute("[data-model-explorer]", "data-shown") == "emm"
    assert "em" not in page.evaluate("window.shownHistory")
    rows = json.loads(page.get_attribute("[data-head='1']", "data-weights"))
    assert len(rows) == 4
    assert rows[-1] == pytest.approx(forward_view("emm")["positions"][-1]["heads"][1], abs=1e-12)


def test_a_bad_prefix_says_what_to_type(explorer_page):
    page = explorer_page(prefix="em")
    page.focus("input[data-role=prefix]")
    page.keyboard.press("End")
    page.keyboard.type("3")
    shown(page, "em3", state="error")
    with pytest.raises(ValueError) as python:
        forward_view("em3")
    status = page.inner_text("[data-model-explorer] [data-role=error]")
    assert "'3'" in status and status in str(python.value)
    assert page.get_attribute("input[data-role=prefix]", "aria-invalid") == "true"
    page.keyboard.press("Backspace")
    shown(page, "em")
    assert page.get_attribute("input[data-role=prefix]", "aria-invalid") is None


def test_embeddings_and_residual_stream_are_the_engines_vectors(explorer_page):
    page = explorer_page(prefix="li")
    want = forward_view("li")["positions"]
    labels = page.eval_on_selector_all(
        "[data-view=embeddings] .gm-grid",
        "gs => gs.map(g => [...g.querySelectorAll('.gm-cell')]"
        ".map(c => c.getAttribute('aria-label')))",
    )
    tok, pos = labels
    assert len(tok) == len(pos) == 3 * 16
    for t in range(3):
        for d in (0, 7, 15):
            assert number_in(tok[16 * t + d]) == pytest.approx(
                want[t]["tok_emb"][d], rel=5e-3, abs=1e-3
            )
            assert number_in(pos[16 * t + d]) == pytest.approx(
                want[t]["pos_emb"][d], rel=5e-3, abs=1e-3
            )
    stages = page.eval_on_selector_all(
        "[data-view=residual] .gm-grid",
        "gs => gs.map(g => [...g.querySelectorAll('.gm-cell')]"
        ".map(c => c.getAttribute('aria-label')))",
    )
    assert len(stages) == 3
    layer = [p["residual"]["layers"][0] for p in want]
    for stage, values in zip(
        stages,
        [
            [p["residual"]["embed"] for p in want],
            [x["after_attn"] for x in layer],
            [x["after_mlp"] for x in layer],
        ],
    ):
        assert [number_in(s) for s in stage] == pytest.approx(
            [v for row in values for v in row], rel=5e-3, abs=1e-3
        )


# -- backward --------------------------------------------------------------------------------


def test_backward_shows_one_map_per_matrix_with_the_engines_norms(explorer_page):
    page = explorer_page(prefix="emma")
    want = backward_view("emma")
    matrices = page.eval_on_selector_all(
        "[data-matrix]",
        "els => els.map(e => [e.dataset.matrix, Number(e.dataset.norm),"
        " e.querySelectorAll('.gm-cell').length])",
    )
    assert len(matrices) == len(want["matrices"])
    norms = {m["name"]: m["norm"] for m in want["matrices"]}
    for name, norm, cells in matrices:
        assert norm == pytest.approx(norms[name], abs=1e-12)
        rows, cols = next(m["shape"] for m in want["matrices"] if m["name"] == name)
        assert cells == rows * cols
    assert [n for _, n, _ in matrices] == sorted(norms.values(), reverse=True)
    assert f"{want['loss']:.3g}"[:4] in page.inner_text("[data-role=loss]")
    bars = page.eval_on_selector_all(
        "[data-role=contributions] [data-position]", "els => els.map(e => Number(e.dataset.value))"
    )
    assert bars == pytest.approx(want["contributions"], abs=1e-12)
    assert len(bars) == want["position"] + 1
    # the text alternative: the contributions, then one table per matrix, biggest norm first
    page.click("[data-view=backward] details summary")
    # The tables are made on the details' "toggle" event, a task after the click.
    page.wait_for_selector("[data-view=backward] details caption")
    captions = page.eval_on_selector_all(
        "[data-view=backward] details caption", "cs => cs.map(c => c.textContent)"
    )
    assert captions[0].startswith(f"Position {want['position']}'s loss")
    assert captions[2:] == [f"|gradient| of {name}" for name, _, _ in matrices]
    cells = page.eval_on_selector_all(
        "[data-view=backward] details table:first-of-type td",
        "ts => ts.map(t => Number(t.textContent))",
    )
    assert cells == pytest.approx(want["contributions"], rel=6e-3)


def test_choosing_a_position_shows_its_contributions(explorer_page):
    page = explorer_page(prefix="emma")
    page.select_option("select[data-role=position]", "2")
    page.wait_for_function(
        "document.querySelectorAll('[data-role=contributions] [data-position]').length === 3"
    )
    shown(page, "emma")
    want = backward_view("emma", 2)
    bars = page.eval_on_selector_all(
        "[data-role=contributions] [data-position]", "els => els.map(e => Number(e.dataset.value))"
    )
    assert bars == pytest.approx(want["contributions"], abs=1e-12)


# -- keyboard, width, training ---------------------------------------------------------------


def test_every_control_and_map_is_reached_and_read_from_the_keyboard(explorer_page):
    page = explorer_page(prefix="emm")
    page.focus("input[data-role=prefix]")
    page.keyboard.press("End")
    page.keyboard.type("a")
    shown(page, "emma")
    label = tab_to(page, "[data-head='0'] .gm-cell")
    want = forward_view("emma")["positions"]
    assert "head 0" in label and "position 0" in label
    assert number_in(label) == pytest.approx(want[0]["heads"][0][0], rel=5e-3)
    page.keyboard.press("ArrowDown")  # row 1 (query e), still column 0
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert "query e (position 1)" in label
    assert number_in(label) == pytest.approx(want[1]["heads"][0][0], rel=5e-3)
    assert page.inner_text("[data-head='0'] .gm-readout") == label  # shown as well as read
    page.keyboard.press("End")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert number_in(label) == pytest.approx(want[1]["heads"][0][1], rel=5e-3)
    tab_to(page, "input[data-role=temperature]")
    page.keyboard.press("ArrowLeft")
    assert page.input_value("input[data-role=temperature]") == "0.9"
    tab_to(page, "[data-action=sample]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-model-explorer][data-last-sample]")
    tab_to(page, "[data-matrix] .gm-cell")


def test_at_390_px_nothing_scrolls_the_page_sideways(explorer_page):
    page = explorer_page(prefix="", wait=False)
    page.set_viewport_size({"width": 390, "height": 800})
    page.type("input[data-role=prefix]", "alexandra", delay=20)
    shown(page, "alexandra")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for view in ("embeddings", "attention", "residual", "probs", "backward", "training"):
        box = page.locator(f"[data-view={view}]").bounding_box()
        assert box and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # the widest map (64 columns) scrolls in its own box, which takes focus
    wide = page.locator("[data-matrix] .gm-scroll[tabindex='0']")
    assert wide.count() >= 1


SNAPSHOT = {
    "step": 40,
    "steps": 200,
    "losses": [3.3, 3.0, 2.8, 2.7],
    "loss_steps": [10, 20, 30, 40],
    "samples": ["mara", "kel", "ann"],
    "attention": {
        "name": "emma",
        "layer": 0,
        "head": 2,
        "tokens": [".", "e", "m"],
        "weights": [[1.0], [0.25, 0.75], [0.5, 0.25, 0.25]],
    },
}


def test_a_snapshot_sent_before_the_explorer_was_drawn_is_shown_when_it_mounts(explorer_page, page):
    # Training ran on another page of the tab: the client kept its last snapshot.
    page.add_init_script(f"window.lastModel = {json.dumps(SNAPSHOT)};")
    explorer_page(prefix="emma", views="training,backward")
    assert "Step 40 of 200" in page.inner_text("[data-role=training-status]")
    assert page.inner_text("[data-role=samples]").split() == ["mara", "kel", "ann"]


def test_with_only_the_backward_views_the_model_and_the_status_are_said(explorer_page):
    page = explorer_page(prefix="emma", views="training,backward")
    assert "No training snapshot" in page.inner_text("[data-role=training-status]")
    assert page.inner_text("[data-role=model]").startswith(
        "Model in use: the checkpoint shipped with the course"
    )
    assert page.inner_text("[data-model-explorer] .gm-status") == 'Showing the gradients of "emma".'
    assert page.inner_text("label[for$=prefix]") == "Prefix (also the name below)"


def test_no_sampling_leaves_out_the_temperature_and_sample(explorer_page):
    page = explorer_page(prefix="emm", views="forward,no-sampling")
    assert page.locator("input[data-role=temperature]").count() == 0
    assert page.locator("[data-action=sample]").count() == 0
    bars = dict(probs_shown(page))
    assert list(bars.values()) == pytest.approx(
        sorted(softmax(forward_view("emm")["positions"][-1]["logits"]), reverse=True), abs=1e-12
    )
    assert page.locator("[data-head]").count() == 4  # the other forward views are there


def test_the_status_counts_what_the_model_read_and_typing_clears_the_sample_note(explorer_page):
    page = explorer_page(prefix="k", seed=3)
    page.fill("input[data-role=prefix]", "Emm ")  # capitals and spaces are not read
    shown(page, "Emm ")
    status = page.inner_text("[data-model-explorer] .gm-status")
    assert status == 'Showing "emm": BOS and 3 letters, 4 positions.'
    page.click("[data-action=sample]")
    drawn = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))
    assert drawn["prefix"] == "emm"
    assert page.inner_text("[data-view=probs] [role=status]") != ""
    page.fill("input[data-role=prefix]", "ann")
    assert page.inner_text("[data-view=probs] [role=status]") == ""


def test_training_snapshots_draw_the_curve_and_ask_for_the_new_model(explorer_page):
    page = explorer_page(prefix="emm")
    assert "No training" in page.inner_text("[data-role=training-status]")
    calls = page.evaluate("window.modelCalls.length")
    snapshot = {
        "step": 40,
        "steps": 200,
        "losses": [3.3, 3.0, 2.8, 2.7],
        "loss_steps": [10, 20, 30, 40],
        "samples": ["mara", "kel", "ann"],
        "attention": {
            "name": "emma",
            "layer": 0,
            "head": 2,
            "tokens": [".", "e", "m"],
            "weights": [[1.0], [0.25, 0.75], [0.5, 0.25, 0.25]],
        },
        "model": forward_view("emm")["model"],
    }
    page.evaluate("s => window.pushModel(s)", snapshot)
    assert page.get_attribute("[data-model-explorer]", "data-training-step") == "40"
    assert "Step 40 of 200, training loss 2.7" in page.inner_text("[data-role=training-status]")
    assert page.inner_text("[data-role=samples]").split() == ["mara", "kel", "ann"]
    assert page.locator("[data-view=training] polyline").get_attribute("points").count(",") == 4
    assert "Head 2" in page.inner_text("[data-view=training]")
    page.wait_for_function(f"window.modelCalls.length > {calls}")  # the other views ask again
    shown(page, "emm")


FORWARD_VIEWS = ("embeddings", "attention", "residual", "probs")


def stale(page):
    """{view: its data-stale} of every view but the training one ("" when it is current)."""
    return page.eval_on_selector_all(
        "[data-view]:not([data-view=training])",
        "vs => Object.fromEntries(vs.map(v => [v.dataset.view, v.dataset.stale ?? '']))",
    )


def test_while_a_cell_trains_every_view_follows_the_model_and_a_new_prefix_waits(explorer_page):
    page = explorer_page(prefix="emm")
    page.evaluate("window.hold()")  # a training cell runs from now on: Python answers nothing
    model, losses = init_gpt(seed=5), [3.3] * 25
    # The page asked for "emm": the snapshot carries its views of the model being trained.
    shot = engine.snapshot.snapshot(model, 25, 100, losses).to_json()
    page.evaluate("s => window.pushModel(s)", shot)
    page.wait_for_function(
        "document.querySelector('[data-role=model]').textContent.includes('trained 25 steps')"
    )
    want = forward_view("emm", model)
    assert dict(probs_shown(page)) == pytest.approx(
        dict(zip(want["symbols"], want["positions"][-1]["probs"])), abs=1e-12
    )
    rows = json.loads(page.get_attribute("[data-head='3']", "data-weights"))
    assert rows == [pytest.approx(p["heads"][3], abs=1e-12) for p in want["positions"]]
    norms = dict(
        page.eval_on_selector_all(
            "[data-matrix]", "els => els.map(e => [e.dataset.matrix, Number(e.dataset.norm)])"
        )
    )
    back = backward_view("emm", None, model)
    assert norms == pytest.approx({m["name"]: m["norm"] for m in back["matrices"]}, rel=1e-9)
    assert set(stale(page).values()) == {""}
    # A prefix typed meanwhile waits for Python, and says so on every view.
    page.fill("input[data-role=prefix]", "zo")
    assert set(stale(page).values()) == {"waiting"}
    for view in (*FORWARD_VIEWS, "backward"):
        assert "Waiting for Python" in page.inner_text(f"[data-view={view}] [data-role=waiting]")
    losses += [3.0] * 25
    page.evaluate(
        "s => window.pushModel(s)", engine.snapshot.snapshot(model, 50, 100, losses).to_json()
    )
    assert "Step 50 of 100" in page.inner_text("[data-role=training-status]")
    assert set(stale(page).values()) == {"waiting"}  # "emm"'s views never go under "zo"
    page.evaluate("window.release()")  # the cell ends: Python answers "zo", with the model
    shown(page, "zo")
    assert set(stale(page).values()) == {""}
    assert "trained 50 steps" in page.inner_text("[data-role=model]")
    want = forward_view("zo", model)
    assert dict(probs_shown(page)) == pytest.approx(
        dict(zip(want["symbols"], want["positions"][-1]["probs"])), abs=1e-12
    )


def test_a_prefix_with_a_space_a_hyphen_or_an_accent_says_in_one_line_what_to_type(explorer_page):
    page = explorer_page(prefix="emm")
    for text in ("em ma", "anne-marie", "zoé"):
        page.fill("input[data-role=prefix]", text)
        page.wait_for_selector("[data-model-explorer][data-state=error]", state="attached")
        message = page.inner_text("[data-model-explorer] [data-role=error]")
        with pytest.raises(ValueError) as python:
            forward_view(text)
        assert message == str(python.value)  # Python's own words, one line, no traceback
        assert message.startswith("Type only the letters a-z: ") and "\n" not in message
        assert page.get_attribute("input[data-role=prefix]", "aria-invalid") == "true"
        assert set(stale(page).values()) == {"invalid"}
        assert not page.locator("[data-role=probs]").is_visible()  # no bars of another prefix
    page.fill("input[data-role=prefix]", "emma")
    shown(page, "emma")
    assert not page.locator("[data-role=error]").is_visible()
    assert set(stale(page).values()) == {""}
    assert page.locator("[data-role=probs]").is_visible()


def test_a_reply_of_python_that_is_a_traceback_shows_only_its_last_line(explorer_page):
    page = explorer_page(prefix="emm")
    page.fill("input[data-role=prefix]", "a" * 16)  # too long: Python says so
    shown(page, "a" * 16, state="error")
    message = page.inner_text("[data-model-explorer] [data-role=error]")
    assert message.startswith("at most 15 letters") and "Traceback" not in message


def test_the_attention_maps_column_labels_do_not_overlap(explorer_page):
    page = explorer_page(prefix="emmanuel")
    boxes = page.eval_on_selector_all(
        "[data-head] .gm-collabel",
        """ls => ls.map(l => {
          const r = document.createRange();
          r.selectNodeContents(l);
          const b = r.getBoundingClientRect();
          return [l.closest('[data-head]').dataset.head, b.left, b.right];
        })""",
    )
    assert len(boxes) == 4 * 9
    for head in "0123":
        row = [b for b in boxes if b[0] == head]
        for (_, _, right), (_, left, _) in zip(row, row[1:]):
            assert right <= left  # each label ends before the next one starts
    texts = page.eval_on_selector_all(
        "[data-head='0'] .gm-collabel", "ls => ls.map(l => l.textContent)"
    )
    assert [t.split() for t in texts][:3] == [["0", "."], ["1", "e"], ["2", "m"]]


def test_sample_never_extends_a_name_it_has_finished(explorer_page):
    page = explorer_page(prefix="olivia", seed=1)
    page.focus("input[data-role=temperature]")
    for _ in range(9):
        page.keyboard.press("ArrowLeft")  # T = 0.1: the end of the name is all but certain
    page.click("[data-action=sample]")
    drawn = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))
    assert drawn["symbol"] == "." and drawn["prefix"] == "olivia"
    assert "finished" in page.inner_text("[data-view=probs] [role=status]")
    button = page.locator("[data-action=sample]")
    assert button.inner_text() == "Start a new name"
    button.click()  # never "olivia" and one more letter: a new name starts
    shown(page, "")
    assert page.input_value("input[data-role=prefix]") == ""
    assert json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample")) == drawn
    assert button.inner_text() == "Sample the next symbol"
    button.click()
    drawn = json.loads(page.get_attribute("[data-model-explorer]", "data-last-sample"))
    assert drawn["prefix"] == ""
    shown(page, drawn["symbol"])


def test_a_trained_model_is_kept_for_the_next_visit(explorer_page):
    page = explorer_page(prefix="emm")
    unload = """() => { const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e); return e.defaultPrevented; }"""
    assert not page.evaluate(unload)  # nothing trained: leave freely
    page.evaluate("window.hold()")
    model = init_gpt(seed=6)
    shot = engine.snapshot.snapshot(model, 3, 3, [3.3, 3.1, 3.0]).to_json()
    page.evaluate("s => window.pushModel(s)", shot)
    page.wait_for_function("window.modelCalls.some(([kind]) => kind === 'save')")
    assert page.evaluate(unload)  # a trained model not kept yet: the browser asks first
    page.evaluate("window.release()")
    page.wait_for_function("!!localStorage.getItem('course:model-explorer:trained')")
    assert not page.evaluate(unload)  # kept: nothing is lost by leaving
    want = forward_view("emm", model)
    # The next visit: a fresh Python, without the model; the page offers it back.
    engine.snapshot._learner = None
    page.reload()
    shown(page, "emm")
    assert "the checkpoint shipped" in page.inner_text("[data-role=model]")
    offer = page.locator("[data-role=restore-offer]")
    assert "trained 3 steps" in offer.inner_text()
    offer.locator("[data-action=restore]").click()
    page.wait_for_function(
        "document.querySelector('[data-role=model]').textContent.includes('your model, trained 3 steps')"
    )
    shown(page, "emm")
    assert dict(probs_shown(page)) == pytest.approx(
        dict(zip(want["symbols"], want["positions"][-1]["probs"])), abs=1e-6
    )
    assert not offer.is_visible()
    assert "Step 3 of 3" in page.inner_text("[data-role=training-status]")
    # Forget it: the next visit offers nothing.
    engine.snapshot._learner = None
    page.reload()
    shown(page, "emm")
    page.locator("[data-role=restore-offer] [data-action=forget]").click()
    assert page.evaluate("localStorage.getItem('course:model-explorer:trained')") is None
    assert not offer.is_visible()


# -- the built site: Pyodide in the course worker --------------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = """
async () => (await axe.run(document, {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
})).violations.filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "))
"""


def open_site(page, url, path="model-explorer/"):
    page.goto(url + path)
    page.wait_for_selector(READY, timeout=180_000)  # Python boots in the worker first
    return page


def test_the_site_page_shows_what_the_engine_computes(course_page, base_url):
    page = open_site(course_page, base_url)
    assert page.get_attribute("[data-model-explorer]", "data-shown") == "emm"
    want = forward_view("emm")
    for h in range(want["model"]["n_head"]):
        rows = json.loads(page.get_attribute(f"[data-head='{h}']", "data-weights"))
        assert rows == [pytest.approx(p["heads"][h], abs=1e-9) for p in want["positions"]]
    probs = dict(probs_shown(page))
    assert [probs[s] for s in want["symbols"]] == pytest.approx(
        want["positions"][-1]["probs"], abs=1e-9
    )
    loss = want["model"]["loss"]
    assert page.inner_text("[data-role=model]") == (
        "Model in use: the checkpoint shipped with the course, a saved copy of trained weights "
        f"(1,000 steps; loss {loss:.4f} on 516 held-out names it never trained on)."
    )
    back = backward_view("emm")
    norms = dict(
        page.eval_on_selector_all(
            "[data-matrix]", "els => els.map(e => [e.dataset.matrix, Number(e.dataset.norm)])"
        )
    )
    assert norms == pytest.approx({m["name"]: m["norm"] for m in back["matrices"]}, rel=1e-9)


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_serious_violation_on_the_model_explorer(course_page, base_url, scheme):
    page = open_site(course_page, base_url)
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    for details in page.locator("[data-model-explorer] details").all():
        details.locator("summary").click()  # the tables too
    page.focus("[data-head='0'] .gm-cell[tabindex='0']")
    page.wait_for_timeout(400)  # Material's colour transitions end before anything is measured
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(SERIOUS)
    assert not violations, "\n".join(violations)


def test_at_390_px_the_site_page_does_not_scroll_sideways(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 390, "height": 844})
    open_site(page, base_url)
    for details in page.locator("[data-model-explorer] details").all():
        details.locator("summary").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for view in page.locator("[data-model-explorer] [data-view]").all():
        view.scroll_into_view_if_needed()
        assert view.is_visible()
        box = view.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_a_day_30_training_run_is_followed_live_and_stop_keeps_your_model(course_page, base_url):
    page = course_page
    page.goto(base_url + "lessons/day30_your_gpt/")
    explorer = page.locator("[data-model-explorer]")
    page.wait_for_selector(READY, timeout=180_000)
    assert "the checkpoint shipped with the course" in page.inner_text("[data-role=model]")
    index = page.locator("[data-cell]", has_text="STEPS = 100").first.get_attribute("data-cell")
    block = page.locator(f"[data-cell='{index}']")  # found once: its text is about to change
    # Long enough to be still running when Stop is pressed below.
    set_code(block, editor_text(block).replace("STEPS = 100 ", "STEPS = 1000 "))
    block.locator("[data-action=run]").click()
    page.wait_for_function(
        "() => Number(document.querySelector('[data-model-explorer]').dataset.trainingStep) > 0",
        timeout=180_000,
    )
    first = int(explorer.get_attribute("data-training-step"))
    points = page.locator("[data-view=training] polyline").get_attribute("points").count(",")
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-model-explorer]').dataset.trainingStep) > {first}",
        timeout=120_000,
    )  # a later snapshot: the curve has grown
    assert page.locator("[data-view=training] polyline").get_attribute("points").count(",") > points
    # Every view follows the model being trained, while the cell still runs.
    step = int(explorer.get_attribute("data-training-step"))
    assert f"your model, trained {step} steps in this tab" in page.inner_text("[data-role=model]")
    assert explorer.get_attribute("data-shown") == "emm"
    assert page.locator("[data-view] [data-matrix]").count() > 0
    assert block.get_attribute("data-state") == "running"
    # A prefix typed meanwhile waits for Python, and says so; it never shows "emm"'s views.
    page.fill("input[data-role=prefix]", "zo")
    assert page.get_attribute("[data-view=probs]", "data-stale") == "waiting"
    assert "Waiting for Python" in page.inner_text("[data-view=probs] [data-role=waiting]")
    block.locator("[data-action=stop]").click()
    wait_state(block, ("idle", "done", "error"), timeout=30)
    page.wait_for_selector(
        "[data-model-explorer][data-state=ready][data-shown='zo']", state="attached", timeout=60_000
    )
    assert re.search(
        r"your model, trained \d+ steps in this tab", page.inner_text("[data-role=model]")
    )
    assert page.get_attribute("[data-view=probs]", "data-stale") is None
    # The trained model is kept in the browser for the next visit.
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('course:model-explorer:trained'))?.saved.trained > 0",
        timeout=30_000,
    )

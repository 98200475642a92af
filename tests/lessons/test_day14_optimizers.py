"""Day 14: the learning-rate table, two steps of each optimizer, and the valley race."""

import math
import re

from engine import Value
from engine.optim import SGD, Adam

from .pages import assert_states, lesson

PAGE = lesson("day14_optimizers")


def test_learning_rate_factors():
    for lr, factor, path in (
        (0.1, "0.8", "$1, 0.8, 0.64, \\dots$"),
        (0.9, "−0.8", "$1, -0.8, 0.64, \\dots$"),
        (1.1, "−1.2", "$1, -1.2, 1.44, \\dots$"),
    ):
        assert_states(PAGE, 1 - 2 * lr, factor)
        assert path in PAGE.text


def _two_steps(make):
    w = Value(1.0)
    opt = make([w])
    out = []
    for _ in range(2):
        opt.zero_grad()
        (w * w).backward()
        opt.step()
        out.append(w.data)
    return out


def test_sgd_and_momentum():
    assert [round(v, 12) for v in _two_steps(lambda p: SGD(p, lr=0.1))] == [0.8, 0.64]
    assert [round(v, 12) for v in _two_steps(lambda p: SGD(p, lr=0.1, momentum=0.9))] == [0.8, 0.46]
    assert_states(PAGE, 0.9 * 2 + 1.6, "3.4")


def test_adam_by_hand():
    # The formulas of the page, written out, against engine.optim.Adam.
    b1, b2, lr = 0.9, 0.999, 0.1
    m = 0.1 * 2
    v = 0.001 * 4
    w1 = 1 - lr * (m / (1 - b1)) / math.sqrt(v / (1 - b2))
    assert_states(PAGE, w1, "0.9")
    g = 2 * w1
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    assert_states(PAGE, m, "0.36")
    assert_states(PAGE, v, "0.007236")
    m_hat, v_hat = m / (1 - b1**2), v / (1 - b2**2)
    assert_states(PAGE, m_hat, "1.894737")
    assert_states(PAGE, v_hat, "3.619810")
    assert_states(PAGE, math.sqrt(v_hat), "1.902580")
    assert_states(PAGE, lr * m_hat / math.sqrt(v_hat), "0.099588")
    w2 = w1 - lr * m_hat / math.sqrt(v_hat)
    assert_states(PAGE, w2, "0.800412")
    engine_path = _two_steps(lambda p: Adam(p, lr=lr))
    assert abs(engine_path[0] - w1) < 1e-8 and abs(engine_path[1] - w2) < 1e-8


def test_valley_race():
    ns = PAGE.run_cells()
    steps = ns["steps"]
    for name, shown in (
        ("SGD lr=0.1", "333"),
        ("SGD lr=0.18", "185"),
        ("momentum 0.9, lr=0.1", "62"),
        ("Adam lr=0.1", "64"),
    ):
        assert_states(PAGE, steps[name], shown)
    assert "SGD 333 (or 185) steps, momentum 62, Adam 64" in PAGE.text


def test_sgd_above_the_ceiling_diverges():
    y = Value(1.0)
    opt = SGD([y], lr=0.21)
    sizes = []
    for _ in range(20):
        opt.zero_grad()
        (5.0 * y * y).backward()
        opt.step()
        sizes.append(abs(y.data))
    assert all(b > a for a, b in zip(sizes, sizes[1:]))


def _grad_of_square(w):
    x = Value(w)
    (x * x).backward()
    return x.grad


def test_worked_sgd_numbers():
    g1 = _grad_of_square(1.0)
    w1 = 1 - 0.1 * g1
    g2 = _grad_of_square(w1)
    assert_states(PAGE, g2, "1.6")
    assert_states(PAGE, 0.1 * g2, "0.16")
    assert_states(PAGE, w1 - 0.1 * g2, "0.64")
    assert "then $g = 1.6$, $w = 0.8 - 0.16 = 0.64$" in PAGE.text


def test_worked_momentum_numbers():
    opt = SGD([w := Value(1.0)], lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        (w * w).backward()
        opt.step()
    v2 = 0.9 * (0.9 * 0 + 2) + 1.6
    assert abs(opt.velocity[0] - v2) < 1e-12
    assert_states(PAGE, 0.1 * v2, "0.34")
    assert_states(PAGE, w.data, "0.46")
    assert "$v = 0.9 \\cdot 2 + 1.6 = 3.4$, $w = 0.8 - 0.34 = 0.46$" in PAGE.text


def test_worked_adam_numbers_against_the_engine():
    b1, b2, lr = 0.9, 0.999, 0.1
    opt = Adam([w := Value(1.0)], lr=lr)
    opt.zero_grad()
    (w * w).backward()
    g1 = w.grad
    opt.step()
    # Step 1: the engine's running means are the page's m and v.
    m, v = (1 - b1) * g1, (1 - b2) * g1**2
    assert abs(opt.m[0] - m) < 1e-15 and abs(opt.v[0] - v) < 1e-15
    assert_states(PAGE, m, "0.2")
    assert_states(PAGE, v, "0.004")
    assert_states(PAGE, m / (1 - b1), "2")
    assert_states(PAGE, v / (1 - b2), "4")
    assert "$\\hat m = 0.2 / 0.1 = 2$, $\\hat v = 0.004 / 0.001 = 4$" in PAGE.text
    # Step 2: the gradient at the engine's w, its square and the two corrections.
    opt.zero_grad()
    (w * w).backward()
    g2 = w.grad
    assert_states(PAGE, g2, "1.8")
    assert_states(PAGE, g2 * g2, "3.24")
    assert_states(PAGE, 1 - b1**2, "0.19")
    assert_states(PAGE, 1 - b2**2, "0.001999")
    opt.step()
    assert abs(opt.m[0] - 0.36) < 1e-9 and abs(opt.v[0] - 0.007236) < 1e-9
    assert (
        "$\\hat m = 0.36 / 0.19 = 1.894737$, $\\hat v = 0.007236 / 0.001999 = 3.619810$"
        in PAGE.text
    )


def test_adams_first_step_is_eta_up_to_epsilon():
    # Not exactly eta: eta * |g| / (|g| + eps), a hair short of it.
    for g_scale in (1e-6, 1.0, 1e6):
        opt = Adam([w := Value(1.0)], lr=0.1)
        (g_scale * w).backward()
        opt.step()
        step = 1.0 - w.data
        assert step < 0.1 and abs(step - 0.1 * g_scale / (g_scale + 1e-8)) < 1e-12
    assert "exactly $\\eta$" not in PAGE.text
    text = " ".join(PAGE.text.split())
    assert "Adam's first step is $\\eta$ in size, up to $\\epsilon$, whatever the gradient" in text
    # The question adam-ignores-scale is a prediction: the page says it after the question.
    assert text.index("id: adam-ignores-scale") < text.index("Adam's first step is $\\eta$ in size")
    assert "whatever the scale of the gradient" not in text
    assert "its first step is\n  $\\eta$, up to $\\epsilon$." in PAGE.text


FIGURE_RUNS = {
    "SGD, η = 0.18": lambda p: SGD(p, lr=0.18),
    "momentum 0.9, η = 0.1": lambda p: SGD(p, lr=0.1, momentum=0.9),
    "Adam, η = 0.1": lambda p: Adam(p, lr=0.1),
}


def _figure():
    return re.search(r'<figure class="lesson-figure">.*?</figure>', PAGE.text, re.S)[0]


def test_figure_paths_are_the_engines():
    # The plot maps x in [-4.5, 1] to 50..580 and y in [-1.2, 1.2] to 244..24.
    paths = dict(re.findall(r'data-optimizer="([^"]+)" points="([^"]+)"', _figure()))
    assert set(paths) == set(FIGURE_RUNS)
    for name, make in FIGURE_RUNS.items():
        drawn = [tuple(map(float, pair.split(","))) for pair in paths[name].split()]
        x, y = Value(-4.0), Value(1.0)
        opt = make([x, y])
        path = [(x.data, y.data)]
        for _ in range(len(drawn) - 1):
            opt.zero_grad()
            (0.05 * x * x + 5.0 * y * y).backward()
            opt.step()
            path.append((x.data, y.data))
        assert len(drawn) == 41 and f"{name}</text>" in _figure()
        for (px, py), (xv, yv) in zip(drawn, path):
            assert abs(px - (50 + (xv + 4.5) / 5.5 * 530)) <= 0.051
            assert abs(py - (244 - (yv + 1.2) / 2.4 * 220)) <= 0.051


def test_figure_caption_counts_are_the_races():
    ns = PAGE.run_cells()
    steps = ns["steps"]
    caption = " ".join(re.search(r"<figcaption>(.*?)</figcaption>", _figure(), re.S)[1].split())
    assert (
        f"SGD needs {steps['SGD lr=0.18']} steps at η = 0.18 ({steps['SGD lr=0.1']} at η = 0.1), "
        f"momentum {steps['momentum 0.9, lr=0.1']} and Adam {steps['Adam lr=0.1']}." in caption
    )
    # The figure draws the start and 40 steps of each path, and so does the race's plot.
    drawn = re.findall(r'data-optimizer="[^"]+" points="([^"]+)"', _figure())
    assert {len(points.split()) for points in drawn} == {41}
    assert "first 40 steps from (−4, 1), as the race's plot draws them" in caption
    plotted = ns["fig"].series
    assert [s["label"] for s in plotted] == list(steps) and len(plotted) == 4
    assert {len(s["xs"]) for s in plotted} == {41}
    assert "the race also runs SGD at η = 0.1, left out here" in caption
    # The caption names each path's colour as the figure draws it.
    colour_names = {"#d62728": "red", "#2ca02c": "green", "#ff7f0e": "orange", "#1f77b4": "blue"}
    stroke = dict(
        re.findall(
            r'data-optimizer="([^"]+)" points="[^"]+" fill="none" stroke="(#[0-9a-f]{6})"',
            _figure(),
        )
    )
    assert f"SGD at η = 0.18 ({colour_names[stroke['SGD, η = 0.18']]})" in caption
    assert f"Momentum ({colour_names[stroke['momentum 0.9, η = 0.1']]})" in caption
    assert f"Adam ({colour_names[stroke['Adam, η = 0.1']]})" in caption


def test_each_optimizer_has_one_colour_in_the_figure_and_the_plot():
    ns = PAGE.run_cells()
    plotted = ns["fig"].svg()
    # The plot's legend: a swatch of the series' colour, then its label.
    legend = dict(
        (label, colour)
        for colour, label in re.findall(
            r'fill="(#[0-9a-f]{6})"/>\s*<text [^>]*>([^<]+)</text>', plotted
        )
    )
    same_run = {
        "SGD, η = 0.18": "SGD lr=0.18",
        "momentum 0.9, η = 0.1": "momentum 0.9, lr=0.1",
        "Adam, η = 0.1": "Adam lr=0.1",
    }
    drawn = dict(
        re.findall(
            r'data-optimizer="([^"]+)" points="[^"]+" fill="none" stroke="(#[0-9a-f]{6})"',
            _figure(),
        )
    )
    assert set(drawn) == set(same_run)
    for name, run in same_run.items():
        assert drawn[name] == legend[run], (
            f"{name}: the figure draws {drawn[name]}, the plot {legend[run]}"
        )
        assert f'stroke="{legend[run]}" stroke-width="2.5"/>' in _figure()  # the figure's key too

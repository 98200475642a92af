"""Day 15: the linear classifier's step by hand, the data and the training run."""

from engine.boundary import BoundaryFigure, two_moons

from .pages import assert_states, lesson

PAGE = lesson("day15_classifier")
POINTS = [(2.0, 0.5), (0.5, 1.0), (0.0, 2.0)]
LABELS = [1.0, -1.0, 1.0]


def _scores(w, b):
    return [w[0] * x1 + w[1] * x2 + b for x1, x2 in POINTS]


def _loss(scores):
    return sum(max(0.0, 1 - y * s) for s, y in zip(scores, LABELS)) / 3


def test_worked_step():
    w, b = [1.0, -1.0], 0.25
    s = _scores(w, b)
    for value, shown in zip(s, ("1.75", "-0.25", "-1.75")):
        assert_states(PAGE, value, shown)
    hinges = [max(0.0, 1 - y * v) for v, y in zip(s, LABELS)]
    for value, shown in zip(hinges, ("0", "0.75", "2.75")):
        assert_states(PAGE, value, shown)
    assert "| $0.25$ | $0.75$ | yes |" in PAGE.text and "| $-1.75$ | $2.75$ | no |" in PAGE.text
    assert "$L = (0 + 0.75 + 2.75)/3 = 1.166667$" in PAGE.text
    assert_states(PAGE, _loss(s), "1.166667")
    assert sum(1 for v, y in zip(s, LABELS) if v * y > 0) == 2
    dl_ds = [(-y / 3 if y * v < 1 else 0.0) for v, y in zip(s, LABELS)]
    grad_w = [sum(d * p[i] for d, p in zip(dl_ds, POINTS)) for i in range(2)]
    grad_b = sum(dl_ds)
    assert_states(PAGE, grad_w[0], "0.166667")
    assert_states(PAGE, grad_w[1], "-0.333333")
    assert grad_b == 0.0
    w = [w[0] - 0.3 * grad_w[0], w[1] - 0.3 * grad_w[1]]
    assert_states(PAGE, w[0], "0.95")
    assert_states(PAGE, w[1], "-0.9")
    after = _scores(w, b)
    assert_states(PAGE, _loss(after), "1.125")
    assert after[2] < 0  # C still wrong
    assert "$(0 + 0.825 + 2.55)/3 = 1.125$" in PAGE.text


def test_two_moons_is_seeded_and_balanced():
    a = two_moons(60, noise=0.1, seed=15)
    assert a == two_moons(60, noise=0.1, seed=15)
    assert a != two_moons(60, noise=0.1, seed=16)
    assert a[1].count(1.0) == a[1].count(-1.0) == 30


def test_training_run_claims():
    ns = PAGE.run_cells()
    losses, accuracies = ns["losses"], ns["accuracies"]
    assert_states(PAGE, losses[0], "1.64")
    assert losses[-1] < 0.05
    assert round(accuracies[0] * 60) == 22 and "22 of 60 points" in PAGE.text
    assert accuracies[-1] == 1.0
    right = sum(1 for s, y in zip(ns["test_scores"], ns["test_labels"]) if y * s.data > 0)
    assert_states(PAGE, right, "198")
    assert len(ns["model"].parameters()) == 105 and "105 parameters" in PAGE.text


def test_boundary_figure_shows_the_model_regions():
    class Sign:  # a "model" whose boundary is the line x = 0.5
        def __call__(self, p):
            return p[0] - 0.5

    points, labels = two_moons(20, seed=1)
    svg = BoundaryFigure(Sign(), points, labels, resolution=10).svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('fill="#d6e6f5"') == 50 and svg.count('fill="#f7d9d9"') == 50

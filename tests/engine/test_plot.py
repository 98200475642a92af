"""engine.plot: figures and progress bars, shown in a page or summarised on the command line."""

import pytest

from engine import plot
from engine.plot import Progress, line_plot, progress


def test_a_progress_bar_fills_in_proportion():
    half = progress(500, 1000)
    assert half.fraction == 0.5
    svg = half.svg(width=402)
    assert 'width="200.0"' in svg  # half of the 400 pixels inside the frame
    assert "500 of 1,000 (50%)" in svg
    assert progress(1200, 1000).fraction == 1.0 and progress(-3, 10).fraction == 0.0
    assert "training (25%)" in progress(1, 4, label="training").svg()


def test_a_progress_bar_needs_a_positive_total():
    with pytest.raises(ValueError, match="positive total"):
        Progress(1, 0)


def test_the_page_hook_receives_the_key(monkeypatch):
    shown = []
    monkeypatch.setattr(plot, "display_hook", lambda fig, key: shown.append((fig, key)))
    fig = line_plot([3.0, 2.0, 1.0])
    fig.show(key="loss")
    fig.show()
    assert shown == [(fig, "loss"), (fig, None)]


def test_outside_the_pages_a_redrawn_figure_is_announced_once(monkeypatch, capsys):
    monkeypatch.setattr(plot, "display_hook", None)
    monkeypatch.setattr(plot, "_keys_printed", set())
    for step in range(3):
        line_plot([1.0] * (step + 1), title="loss").show(key="loss")
        progress(step + 1, 3).show(key="bar")
    line_plot([1.0], title="once more").show()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "<Figure 'loss': 1 series, 1 points>",
        "<Progress 1 of 3>",
        "<Figure 'once more': 1 series, 1 points>",
    ]


def test_a_boundary_figure_is_shown_with_its_key(monkeypatch):
    from engine.boundary import boundary_figure, two_moons
    from engine.nn import MLP

    shown = []
    monkeypatch.setattr(plot, "display_hook", lambda fig, key: shown.append(key))
    points, labels = two_moons(6, seed=1)
    boundary_figure(MLP(2, [1]), points, labels, resolution=3).show(key="training")
    assert shown == ["training"]

"""engine.plot: figures and progress bars, shown in a page or summarised on the command line."""

import sys
import types

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


class _FakeShell:
    """What show() reads of IPython: the shell's cell count and `IPython.display.display`."""

    def __init__(self):
        self.execution_count = 1
        self.outputs = []  # [figure shown in each display, in order]

    def display(self, fig, display_id=None):
        self.outputs.append(fig)
        if display_id:
            index = len(self.outputs) - 1
            return types.SimpleNamespace(update=lambda new: self.outputs.__setitem__(index, new))
        return None


@pytest.fixture
def ipython(monkeypatch):
    shell = _FakeShell()
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell
    display = types.ModuleType("IPython.display")
    display.display = shell.display
    ipython.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    monkeypatch.setattr(plot, "display_hook", None)
    monkeypatch.setattr(plot, "_displays", {})
    return shell


def test_in_ipython_a_repeated_key_updates_its_own_display(ipython, capsys):
    for step in range(3):
        progress(step + 1, 3).show(key="bar")
        line_plot([1.0] * (step + 1), title="loss").show(key="loss")
    once = line_plot([2.0], title="once")
    once.show()
    # Two live displays (the last bar and the last curve) and the figure without a key.
    bar, loss, last = ipython.outputs
    assert (bar.done, bar.total) == (3, 3)
    assert len(loss.series[0]["ys"]) == 3
    assert last is once
    assert capsys.readouterr().out == ""  # drawn, not summarised as text
    # The next cell's first figure with the same key is a new display, under that cell.
    ipython.execution_count = 2
    progress(1, 5).show(key="bar")
    assert len(ipython.outputs) == 4 and ipython.outputs[0].done == 3


def test_ipython_installed_but_not_running_prints_the_summary(monkeypatch, capsys):
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: None  # plain `python` that merely imported IPython
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setattr(plot, "display_hook", None)
    monkeypatch.setattr(plot, "_keys_printed", set())
    progress(1, 2).show(key="bar")
    assert capsys.readouterr().out == "<Progress 1 of 2>\n"


def test_the_page_hook_wins_over_ipython(ipython, monkeypatch):
    shown = []
    monkeypatch.setattr(plot, "display_hook", lambda fig, key: shown.append(key))
    progress(1, 2).show(key="bar")
    assert shown == ["bar"] and ipython.outputs == []

"""Small SVG figures for lessons: loss curves, descent paths, two-class scatters.

Pure Python (no dependencies), so the same code draws in CPython and in the
browser. A `Figure` is drawn as SVG text; in a course page, a figure that is a
cell's last expression, or passed to `show()`, appears under the cell. In Jupyter,
Colab or VS Code the same happens through IPython's rich display (`_repr_svg_`);
in plain Python, `show()` prints a one-line summary instead.

    from engine.plot import line_plot
    line_plot(losses, title="training loss", xlabel="step", ylabel="loss", logy=True)

    fig = Figure(title="two classes")
    fig.scatter(xs0, ys0, label="class 0")
    fig.scatter(xs1, ys1, label="class 1")
    fig.show()

A figure shown with a `key` replaces the one shown earlier with that key in the same
cell, so a training loop can redraw its loss curve and a `progress` bar as it goes:

    for step in range(steps):
        ...
        progress(step + 1, steps).show(key="progress")
        line_plot(losses, title="loss").show(key="loss")
"""

import math
import sys
from html import escape

from .errors import said

__all__ = ["Figure", "Progress", "line_plot", "progress", "scatter_plot", "show"]

# The browser runtime sets this to a function that shows a figure under the cell.
display_hook = None
_keys_printed = set()  # outside the pages, a redrawn figure is announced once

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")


def _nice_ticks(lo, hi, count=5):
    """About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 x 10^k)."""
    if hi == lo:
        return [lo]
    raw = (hi - lo) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    t = first
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 12))
        t += step
    return ticks


def _fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        return f"{v:.0e}"
    return f"{v:g}"


class _Frame:
    """A figure's plotting area and the scales from data to pixels (y grows downward)."""

    def __init__(self, fig, points):
        self.width, self.height = fig.width, fig.height
        self.left, self.right, self.top, self.bottom = 64, 16, 34 if fig.title else 14, 46
        x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
        y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
        # A range too narrow for float steps (equal ends, or a few ulps apart, as means of
        # equal numbers can be) is widened: ticks could not step across it.
        if x1 - x0 <= 1e-9 * max(abs(x0), abs(x1)):
            x0, x1 = x0 - 1, x1 + 1
        if y1 - y0 <= 1e-9 * max(abs(y0), abs(y1)):
            y0, y1 = y0 - 1, y1 + 1
        pad = (y1 - y0) * 0.05
        self.x0, self.x1, self.y0, self.y1 = x0, x1, y0 - pad, y1 + pad

    def sx(self, x):
        return self.left + (x - self.x0) / (self.x1 - self.x0) * (
            self.width - self.left - self.right
        )

    def sy(self, y):
        return (
            self.height
            - self.bottom
            - (y - self.y0) / (self.y1 - self.y0) * (self.height - self.top - self.bottom)
        )


class Figure:
    """A plot with one or more series; `svg()` draws it."""

    def __init__(self, title="", xlabel="", ylabel="", *, logy=False, width=560, height=320):
        self.title, self.xlabel, self.ylabel = title, xlabel, ylabel
        self.logy = logy
        self.width, self.height = width, height
        self.series = []

    def line(self, ys, xs=None, *, label=None):
        """Add a line through (xs[i], ys[i]); xs defaults to 0, 1, 2, ..."""
        return self._add("line", ys, xs, label)

    def scatter(self, xs, ys, *, label=None):
        """Add points (xs[i], ys[i])."""
        return self._add("scatter", ys, xs, label)

    def _add(self, kind, ys, xs, label):
        ys = [float(getattr(y, "data", y)) for y in ys]
        xs = list(range(len(ys))) if xs is None else [float(getattr(x, "data", x)) for x in xs]
        if len(xs) != len(ys):
            raise said(
                ValueError,
                "plot.lengths",
                f"xs has {len(xs)} values but ys has {len(ys)}: give one x per y",
                xs=len(xs),
                ys=len(ys),
            )
        self.series.append({"kind": kind, "xs": xs, "ys": ys, "label": label})
        return self

    def _points(self, series):
        # Points that cannot be drawn (nan, inf, or <= 0 on a log axis) are skipped.
        for x, y in zip(series["xs"], series["ys"]):
            if math.isfinite(x) and math.isfinite(y) and (y > 0 or not self.logy):
                yield x, (math.log10(y) if self.logy else y)

    def svg(self):
        """The figure as standalone SVG text."""
        points = [p for s in self.series for p in self._points(s)]
        if not points:
            raise said(
                ValueError,
                "plot.nothingToDraw",
                "nothing to draw: add a series with at least one finite value",
            )
        frame = _Frame(self, points)
        title = escape(self.title or "figure")
        w, h = self.width, self.height
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
            f"<title>{title}</title>",
            f'<rect width="{w}" height="{h}" fill="white"/>',
        ]
        if self.title:
            parts.append(
                f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>'
            )
        parts += self._axes(frame)
        parts += self._axis_labels(frame)
        parts += self._marks(frame)
        parts += self._legend(frame)
        parts.append("</svg>")
        return "\n".join(parts)

    def _axes(self, f):
        """The two axes, their ticks and the horizontal grid lines."""
        h, left, right, bottom = f.height, f.left, f.right, f.bottom
        parts = [
            f'<path d="M{left},{f.top} V{h - bottom} H{f.width - right}" fill="none" stroke="#444"/>'
        ]
        for t in _nice_ticks(f.x0, f.x1):
            x = f.sx(t)
            parts.append(
                f'<line x1="{x:.1f}" y1="{h - bottom}" x2="{x:.1f}" y2="{h - bottom + 4}" stroke="#444"/>'
            )
            parts.append(
                f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">{_fmt(t)}</text>'
            )
        for t in _nice_ticks(f.y0, f.y1):
            y = f.sy(t)
            label = _fmt(10**t) if self.logy else _fmt(t)
            parts.append(
                f'<line x1="{left}" y1="{y:.1f}" x2="{f.width - right}" y2="{y:.1f}" stroke="#eee"/>'
            )
            parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        return parts

    def _axis_labels(self, f):
        parts = []
        if self.xlabel:
            parts.append(
                f'<text x="{(f.left + f.width - f.right) / 2}" y="{f.height - 8}" '
                f'text-anchor="middle">{escape(self.xlabel)}</text>'
            )
        if self.ylabel:
            cy = (f.top + f.height - f.bottom) / 2
            parts.append(
                f'<text x="14" y="{cy}" text-anchor="middle" transform="rotate(-90 14 {cy})">'
                f"{escape(self.ylabel)}</text>"
            )
        return parts

    def _marks(self, f):
        """Each series: a polyline for a line of two points or more, dots otherwise."""
        parts = []
        for i, s in enumerate(self.series):
            color = COLORS[i % len(COLORS)]
            pts = [(f.sx(x), f.sy(y)) for x, y in self._points(s)]
            if s["kind"] == "line" and len(pts) > 1:
                d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
                parts.append(
                    f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2"/>'
                )
            else:
                parts.extend(
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>' for x, y in pts
                )
        return parts

    def _legend(self, f):
        """A colour key for the series that have a label, top right."""
        parts = []
        labelled = [(i, s["label"]) for i, s in enumerate(self.series) if s["label"]]
        for row, (i, label) in enumerate(labelled):
            y = f.top + 8 + row * 16
            color = COLORS[i % len(COLORS)]
            x = f.width - f.right
            parts.append(f'<rect x="{x - 120}" y="{y - 8}" width="10" height="10" fill="{color}"/>')
            parts.append(f'<text x="{x - 104}" y="{y + 1}">{escape(str(label))}</text>')
        return parts

    def _repr_svg_(self):
        return self.svg()

    def save(self, path):
        """Write the SVG to `path` (to look at it outside the course pages)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg())

    def show(self, key=None):
        show(self, key)

    def __repr__(self):
        n = sum(len(s["ys"]) for s in self.series)
        return f"<Figure {self.title!r}: {len(self.series)} series, {n} points>"


def _ipython():
    """The running IPython shell (Jupyter, Colab, VS Code), or None in plain Python.

    IPython is looked up, never imported: it is loaded only where a shell runs, and the
    engine needs no package of its own.
    """
    shell = sys.modules.get("IPython")
    return shell.get_ipython() if shell is not None else None


# In IPython: {(cell run, key): the display that figure went to}, so a repeated key
# updates the picture in place instead of adding one more under the cell.
_displays = {}


def _show_in_ipython(shell, fig, key):
    from IPython.display import display

    if key is None:
        display(fig)
        return
    run = shell.execution_count
    for old in [k for k in _displays if k[0] != run]:
        del _displays[old]  # an earlier cell run's figures are never updated again
    handle = _displays.get((run, key))
    if handle is None:
        _displays[run, key] = display(fig, display_id=True)
    else:
        handle.update(fig)


def show(fig, key=None):
    """Show `fig` under the running cell; outside the course pages, print a summary.

    With a `key`, the figure replaces the one last shown with the same key in this cell:
    in a page, and in Jupyter or Colab (where the figure is drawn through IPython's display).
    """
    if display_hook is not None:
        display_hook(fig, key)
        return
    shell = _ipython()
    if shell is not None:
        _show_in_ipython(shell, fig, key)
    elif key is None or key not in _keys_printed:
        if key is not None:
            _keys_printed.add(key)
        print(repr(fig))


class Progress:
    """A progress bar: `done` of `total`, drawn as SVG."""

    def __init__(self, done, total, label=""):
        if total <= 0:
            raise said(
                ValueError,
                "plot.progressTotal",
                f"a progress bar needs a positive total, got {total}",
                total=total,
            )
        self.done, self.total, self.label = min(max(done, 0), total), total, label

    @property
    def fraction(self):
        return self.done / self.total

    def svg(self, width=560, height=34):
        bar = round((width - 2) * self.fraction, 1)
        text = escape(self.label or f"{self.done:,} of {self.total:,}")
        return "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
                f"<title>{text}: {self.fraction:.0%}</title>",
                f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="5" '
                'fill="#f1f3f5" stroke="#868e96"/>',
                f'<rect x="1" y="1" width="{bar}" height="{height - 2}" rx="5" fill="{COLORS[0]}"/>',
                f'<text x="{width / 2}" y="{height / 2 + 5}" text-anchor="middle" '
                f'fill="#212529">{text} ({self.fraction:.0%})</text>',
                "</svg>",
            ]
        )

    def _repr_svg_(self):
        return self.svg()

    def show(self, key=None):
        show(self, key)

    def __repr__(self):
        return f"<Progress {self.done} of {self.total}>"


def progress(done, total, label=""):
    """A progress bar to `show(key=...)` from a loop: `progress(step + 1, steps)`."""
    return Progress(done, total, label)


def line_plot(ys, xs=None, *, label=None, **figure_options):
    """A Figure with one line: `line_plot(losses, title=..., logy=True)`."""
    return Figure(**figure_options).line(ys, xs, label=label)


def scatter_plot(xs, ys, *, label=None, **figure_options):
    """A Figure with one set of points."""
    return Figure(**figure_options).scatter(xs, ys, label=label)

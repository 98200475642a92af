"""Two-class data in the plane and a picture of what a classifier learned.

`two_moons` makes the classic toy problem (two interleaved half-moons) from a seed,
so every learner, every test and the browser see the same points. `boundary_figure`
draws the data over the regions a model assigns to each class, next to the loss so far:

    points, labels = two_moons(60, noise=0.1, seed=15)
    boundary_figure(model, points, labels, losses=losses).show()

Pure Python like `engine.plot`: a figure has `_repr_svg_()`, so the course pages show it.
"""

import math
import random
from html import escape

from . import plot
from .errors import said

__all__ = ["two_moons", "boundary_figure", "BoundaryFigure"]

_CLASS_COLORS = {1.0: "#1f77b4", -1.0: "#d62728"}
_REGION_COLORS = {1.0: "#d6e6f5", -1.0: "#f7d9d9"}


def two_moons(n, noise=0.1, seed=0):
    """`n` points in two interleaved half-moons, labelled +1 (upper) and -1 (lower).

    Returns (points, labels): points as [x, y] lists of floats, labels as +1.0 / -1.0,
    alternating so any prefix is balanced. Gaussian noise of std `noise` blurs the moons.
    """
    if not isinstance(n, int) or n < 2:
        raise said(
            ValueError,
            "boundary.points",
            f"n must be a whole number of points, at least 2; got {n!r}",
            n=repr(n),
        )
    if noise < 0:
        raise said(
            ValueError,
            "boundary.noise",
            f"noise is a standard deviation and cannot be negative; got {noise!r}",
            noise=repr(noise),
        )
    rng = random.Random(seed)
    points, labels = [], []
    for i in range(n):
        t = math.pi * rng.random()
        if i % 2 == 0:
            x, y, label = math.cos(t), math.sin(t), 1.0
        else:
            x, y, label = 1.0 - math.cos(t), 0.5 - math.sin(t), -1.0
        points.append([x + rng.gauss(0.0, noise), y + rng.gauss(0.0, noise)])
        labels.append(label)
    return points, labels


def _score(model, point):
    out = model(point)
    return float(getattr(out, "data", out))


class BoundaryFigure:
    """The regions where `model` scores > 0 (+1) and <= 0 (-1), the points on top,
    and (optionally) the loss curve beside them."""

    def __init__(self, model, points, labels, *, losses=None, resolution=30, title=""):
        if len(points) != len(labels):
            raise said(
                ValueError,
                "boundary.labels",
                f"{len(points)} points but {len(labels)} labels: give one label per point",
                points=len(points),
                labels=len(labels),
            )
        if not points:
            raise said(ValueError, "boundary.noPoints", "no points to draw")
        self.title = title or "decision boundary"
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        pad_x = 0.15 * (max(xs) - min(xs) or 1.0)
        pad_y = 0.15 * (max(ys) - min(ys) or 1.0)
        self.box = (min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y)
        self.points = [(float(p[0]), float(p[1])) for p in points]
        self.labels = [1.0 if label > 0 else -1.0 for label in labels]
        self.resolution = resolution
        # Score the grid now: the figure shows the model as it is at this moment.
        x0, x1, y0, y1 = self.box
        self.grid = [
            [
                _score(
                    model,
                    [
                        x0 + (i + 0.5) * (x1 - x0) / resolution,
                        y0 + (j + 0.5) * (y1 - y0) / resolution,
                    ],
                )
                for i in range(resolution)
            ]
            for j in range(resolution)
        ]
        self.losses = [float(v) for v in losses] if losses else []

    def _plane(self, left, top, size):
        x0, x1, y0, y1 = self.box
        n = self.resolution
        cell = size / n
        parts = [f'<g transform="translate({left},{top})">']
        for j, row in enumerate(self.grid):
            y = size - (j + 1) * cell
            for i, s in enumerate(row):
                color = _REGION_COLORS[1.0 if s > 0 else -1.0]
                parts.append(
                    f'<rect x="{i * cell:.1f}" y="{y:.1f}" width="{cell + 0.3:.1f}" '
                    f'height="{cell + 0.3:.1f}" fill="{color}"/>'
                )
        for (px, py), label in zip(self.points, self.labels):
            cx = (px - x0) / (x1 - x0) * size
            cy = size - (py - y0) / (y1 - y0) * size
            shape = (
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4"'
                if label > 0
                else f'<rect x="{cx - 3.5:.1f}" y="{cy - 3.5:.1f}" width="7" height="7"'
            )
            parts.append(
                f'{shape} fill="{_CLASS_COLORS[label]}" stroke="white" stroke-width="0.8"/>'
            )
        parts.append(f'<rect width="{size}" height="{size}" fill="none" stroke="#444"/>')
        parts.append("</g>")
        return parts

    def svg(self):
        size = 300
        width = 560 if self.losses else size + 40
        height = size + 60
        title = escape(self.title)
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
            f"<title>{title}</title>",
            f'<rect width="{width}" height="{height}" fill="white"/>',
            f'<text x="{20 + size / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
        ]
        parts += self._plane(20, 32, size)
        parts.append(
            f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle" font-size="11">'
            "circles: class +1 · squares: class −1 · shade: the model's answer</text>"
        )
        if self.losses:
            curve = plot.Figure(title="loss", xlabel="step", width=220, height=size)
            curve.line(self.losses)
            inner = curve.svg().split("\n")
            # Nest the loss curve as an <svg> of its own, placed right of the plane.
            inner[0] = inner[0].replace("<svg ", f'<svg x="{size + 30}" y="32" ', 1)
            parts += inner
        parts.append("</svg>")
        return "\n".join(parts)

    def _repr_svg_(self):
        return self.svg()

    def show(self, key=None):
        plot.show(self, key)

    def __repr__(self):
        return f"<BoundaryFigure {self.title!r}: {len(self.points)} points>"


def boundary_figure(model, points, labels, *, losses=None, resolution=30, title=""):
    """A `BoundaryFigure` of `model` on `points` (see the module docstring)."""
    return BoundaryFigure(model, points, labels, losses=losses, resolution=resolution, title=title)

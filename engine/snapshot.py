"""A snapshot of a microGPT while it trains: its loss curve, one head's attention, a few names.

Call it every few steps of a training loop, next to the progress bar:

    losses = []
    for result in training(model, train_docs, steps=STEPS):
        losses.append(result.loss)
        if (result.step + 1) % 25 == 0:
            snapshot(model, result.step + 1, STEPS, losses).show(key="model")

A Snapshot draws itself as SVG (`_repr_svg_`: in Jupyter, and under the cell in a course
page) and describes itself as JSON (`to_json()`), which a course page sends to its model
explorer. It also makes `model` *the learner's model*: `learner()` returns it (with its
tokenizer and its list of losses) until a snapshot of another model is taken. Training
updates the weights in place, so after a Stop the learner's model holds what was learnt.

>>> from engine.gpt import init_gpt
>>> shot = snapshot(init_gpt(seed=0), step=1, steps=10, losses=[3.3])
>>> shot.to_json()["attention"]["tokens"], len(shot.to_json()["samples"])
(['.', 'e', 'm', 'm', 'a'], 3)
>>> learner().trained
1

API:
    snapshot(model, step, steps, losses, tokenizer=None, name="emma", head=0, n_samples=3,
             seed=0) -> Snapshot       (and the model becomes the learner's model)
    Snapshot.to_json() -> dict         {"step", "steps", "losses", "loss_steps", "samples",
                                        "attention": {"name", "layer", "head", "tokens",
                                        "weights"}, "model": model_summary(...)}
    Snapshot.show(key=None); Snapshot.svg() / _repr_svg_()
    learner() -> Learner | None        .model, .tokenizer, .losses, .steps, .trained
    watch(views)                       every snapshot from now on adds views(model, tokenizer,
                                       summary) to to_json()["views"] (the model explorer's)
    model_summary(model, source, steps, loss=None, names=None) -> dict   sizes and origin of a model
    downsample(losses, points=200) -> (means, last_steps)    a long curve in few points
"""

import math
from dataclasses import dataclass
from html import escape

from .errors import said
from .gpt import gpt, new_kv_cache, sample_names
from .plot import COLORS, line_plot, show
from .tokenizer import Tokenizer

__all__ = [
    "Learner",
    "Snapshot",
    "downsample",
    "learner",
    "model_summary",
    "snapshot",
    "watch",
]

MAX_POINTS = 200  # a loss curve sent to the page has at most this many points

_learner = None  # the model of the latest snapshot (see learner())
_watchers = []  # functions whose answers each snapshot carries (see watch())


@dataclass
class Learner:
    """The model a training loop is training (or trained), as its snapshots saw it."""

    model: object
    tokenizer: Tokenizer
    losses: list  # the loop's own list: it keeps growing after the snapshot
    steps: int  # the steps the loop was asked for
    earlier: int = 0  # steps this model was trained in earlier runs (loops) of the page

    @property
    def trained(self):
        """Steps trained so far, over every run: one loss per step."""
        return self.earlier + len(self.losses)


def learner():
    """The learner's model (a Learner), or None when no snapshot was taken yet."""
    return _learner


def watch(views):
    """Make every snapshot taken from now on carry `views(model, tokenizer, summary)`.

    `views` returns a JSON-able dict (or None), merged into `to_json()["views"]`: the model
    explorer (explorer.model) registers the views a page asked for, so that they follow the
    model while a training cell keeps the page's Python busy. A watcher that fails is left
    out of that snapshot: it never stops the training loop. Registering twice does nothing.
    """
    if views not in _watchers:
        _watchers.append(views)


def model_summary(model, source, steps, loss=None, names=None):
    """What the model explorer says about a model: where it comes from and its sizes.

    `loss` is a held-out loss, measured on `names` names the model never trained on."""
    cfg = model.config
    return {
        "source": source,
        "steps": steps,
        "loss": loss,
        "held_out_names": names,
        "n_embd": cfg.n_embd,
        "n_head": cfg.n_head,
        "head_dim": cfg.head_dim,
        "n_layer": cfg.n_layer,
        "block_size": cfg.block_size,
        "vocab_size": cfg.vocab_size,
    }


def downsample(losses, points=MAX_POINTS):
    """At most `points` means of consecutive losses, and the step each mean ends at.

    With n losses, each point averages k = ceil(n / points) steps (the last may average
    fewer): a long noisy curve keeps its shape in few points.
    """
    n = len(losses)
    k = max(1, math.ceil(n / points))
    means = [sum(losses[i : i + k]) / len(losses[i : i + k]) for i in range(0, n, k)]
    ends = [min(i + k, n) for i in range(0, n, k)]
    return means, ends


def _attention(model, tokenizer, name, head):
    """Head `head` of layer 0 reading BOS + name: row t = its weights over positions 0..t."""
    tokens = [tokenizer.bos, *tokenizer.encode(name, bos=False)]
    tokens = tokens[: model.config.block_size]
    keys, values = new_kv_cache(model.config)
    rows = []
    for pos, token in enumerate(tokens):
        trace = {}
        gpt(model, token, pos, keys, values, trace)
        rows.append([w.data for w in trace["layers"][0]["heads"][head]])
    return [tokenizer.symbol(t) for t in tokens], rows


class Snapshot:
    """A model's state at one training step, computed when the snapshot is taken."""

    def __init__(
        self,
        model,
        step,
        steps,
        losses,
        tokenizer=None,
        name="emma",
        head=0,
        n_samples=3,
        seed=0,
    ):
        tokenizer = Tokenizer() if tokenizer is None else tokenizer
        if tokenizer.vocab_size != model.config.vocab_size:
            raise said(
                ValueError,
                "snapshot.tokenizer",
                f"the tokenizer has {tokenizer.vocab_size} symbols but the model "
                f"{model.config.vocab_size}; pass the tokenizer the model is trained with",
                symbols=tokenizer.vocab_size,
                vocab_size=model.config.vocab_size,
            )
        if not 0 <= head < model.config.n_head:
            raise said(
                ValueError,
                "snapshot.head",
                f"head must be from 0 to {model.config.n_head - 1}, got {head!r}",
                last=model.config.n_head - 1,
                head=repr(head),
            )
        self.step, self.steps = step, steps
        self.losses, self.loss_steps = downsample([float(x) for x in losses])
        self.tokens, self.weights = _attention(model, tokenizer, name, head)
        self.name, self.head = name, head
        # Drawn with the same seed every time: the names change only as the model does.
        self.samples = sample_names(model, tokenizer, n_samples, seed=seed)
        self.summary = model_summary(model, "trained", step)
        self.views = {}
        for views in _watchers:
            try:
                self.views.update(views(model, tokenizer, self.summary) or {})
            except Exception:  # noqa: BLE001 - a view must never stop the training loop
                continue

    def to_json(self):
        """The snapshot as a JSON-able dict (what the course page's model explorer draws)."""
        data = {
            "step": self.step,
            "steps": self.steps,
            "losses": self.losses,
            "loss_steps": self.loss_steps,
            "samples": self.samples,
            "attention": {
                "name": self.name,
                "layer": 0,
                "head": self.head,
                "tokens": self.tokens,
                "weights": self.weights,
            },
            "model": self.summary,
        }
        if self.views:
            data["views"] = self.views
        return data

    _model_json_ = to_json  # what the course pages' cell runner (web/cellrun.py) looks for

    def svg(self, width=560):
        """Loss curve on top; below, the head's attention as a grid and the sampled names."""
        curve_height = 220
        parts = []
        if self.losses:
            curve = line_plot(
                self.losses,
                self.loss_steps,
                title=f"loss, step {self.step} of {self.steps}",
                xlabel="step",
                width=width,
                height=curve_height,
            )
            parts.append(curve.svg())
        else:
            curve_height = 0
        cell, left, top = 24, 40, curve_height + 44
        n = len(self.tokens)
        grid_height = 44 + n * cell + 24
        parts.append(
            f'<text x="{left}" y="{curve_height + 24}" font-size="13">attention of head '
            f"{self.head} reading {escape(self.name)!r} (row: reading, column: read)</text>"
        )
        for t, row in enumerate(self.weights):
            y = top + t * cell
            parts.append(
                f'<text x="{left - 6}" y="{y + 16}" text-anchor="end">{escape(self.tokens[t])}</text>'
            )
            for s, w in enumerate(row):
                x = left + s * cell
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{_shade(w)}" '
                    'stroke="#dee2e6"/>'
                )
                ink = "#ffffff" if w > 0.5 else "#212529"
                parts.append(
                    f'<text x="{x + cell / 2}" y="{y + 16}" text-anchor="middle" font-size="9" '
                    f'fill="{ink}">{w:.2f}</text>'
                )
        for s, symbol in enumerate(self.tokens):
            parts.append(
                f'<text x="{left + s * cell + cell / 2}" y="{top + n * cell + 16}" '
                f'text-anchor="middle">{escape(symbol)}</text>'
            )
        names_x = left + max(n, 6) * cell + 40
        parts.append(f'<text x="{names_x}" y="{top + 12}" font-size="13">sampled names:</text>')
        for i, sample in enumerate(self.samples):
            parts.append(
                f'<text x="{names_x}" y="{top + 34 + 20 * i}">{escape(sample or "(empty)")}</text>'
            )
        height = curve_height + grid_height
        summary = escape(
            f"microGPT at step {self.step} of {self.steps}"
            + (f", latest loss {self.losses[-1]:.4f}" if self.losses else "")
            + f"; sampled names: {', '.join(self.samples)}"
        )
        return "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
                f"<title>{summary}</title>",
                f'<rect width="{width}" height="{height}" fill="white"/>',
                *parts,
                "</svg>",
            ]
        )

    def _repr_svg_(self):
        return self.svg()

    def show(self, key=None):
        """Draw it under the running cell (replacing the one shown with the same key)."""
        show(self, key)

    def __repr__(self):
        latest = f", loss {self.losses[-1]:.4f}" if self.losses else ""
        return f"<Snapshot step {self.step} of {self.steps}{latest}: {', '.join(self.samples)}>"


def _shade(w):
    """White for weight 0 to the plots' first colour (a blue) for weight 1."""
    w = min(max(w, 0.0), 1.0)
    blue = (int(COLORS[0][i : i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(255 + (c - 255) * w) for c in blue)
    return f"#{r:02x}{g:02x}{b:02x}"


def snapshot(model, step, steps, losses, tokenizer=None, name="emma", head=0, n_samples=3, seed=0):
    """A Snapshot of `model` after `step` of `steps` steps; `model` becomes the learner's model.

    `losses` is the training loop's list of losses (one per step so far): the learner's
    model keeps a reference to it, so it knows how far training got even after a Stop.
    A loop that trains the same model again with a new list continues its count of steps.
    """
    global _learner
    shot = Snapshot(model, step, steps, losses, tokenizer, name, head, n_samples, seed)
    tokenizer = Tokenizer() if tokenizer is None else tokenizer
    earlier = 0
    if _learner is not None and _learner.model is model:
        # The same list: the same run. A new list: a new run of the same model.
        earlier = _learner.earlier if _learner.losses is losses else _learner.trained
    _learner = Learner(model, tokenizer, losses, steps, earlier)
    shot.summary["steps"] = earlier + step
    return shot

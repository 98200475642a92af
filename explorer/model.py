"""The model explorer's numbers: one microGPT's forward pass and gradients, as JSON-able dicts.

The course page (web/model/) calls `forward_view` and `backward_view` in its Python worker.
Every number comes from `engine.gpt` itself, never from a second implementation:
`forward_view` reads the intermediate vectors that `engine.gpt.gpt` records in its `trace`,
`backward_view` the `.grad` of the engine's Values after `backward()`.

Which model: the learner's model, when a training cell in this worker took a snapshot of
one (`engine.snapshot.learner()`: the weights trained so far, also after a Stop), else the
checkpoint shipped with the course (explorer/data/microgpt.json, made by
`python -m engine.train --samples 0 --save explorer/data/microgpt.json`, loaded once).

While a training cell runs, the page's Python is busy and cannot answer the page: so the
model explorer's prefixes and names, the last few the page asked for, are *watched*, and
every training snapshot (engine.snapshot) carries their views of the model being trained
(`watched_views`). `saved_model` and `restore_model` let the page keep the learner's model
in the browser's storage, for the next visit.

Token ids index every list of symbols: with the course's tokenizer the letters a-z are ids
0-25 and BOS (shown as ".") is id 26, the last.

>>> view = forward_view("em")
>>> [t["symbol"] for t in view["tokens"]], len(view["positions"][2]["heads"][0])
(['.', 'e', 'm'], 3)
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache
from pathlib import Path

from engine import checkpoint
from engine.gpt import GPT, cross_entropy, gpt, mean, new_kv_cache, next_token_probs
from engine.snapshot import learner, model_summary, snapshot, watch
from engine.tokenizer import Tokenizer

__all__ = [
    "CHECKPOINT_PATH",
    "RequestError",
    "backward_view",
    "forward_view",
    "model_info",
    "restore_model",
    "saved_model",
    "shipped",
    "watched_views",
]


class RequestError(ValueError):
    """A request the model explorer cannot answer (a prefix it cannot read...). `message` is
    the English sentence; `key` and `values` name the same sentence among the page's messages
    (web/locales/*.json, "model.error.*"), which the page says in the reader's language. A
    value {"key": ...} is a message of its own."""

    def __init__(self, message, key, values=None):
        super().__init__(message)
        self.key = key
        self.values = dict(values or {})


WATCHED = 3  # prefixes (and names) a snapshot carries the views of: the last ones asked
_prefixes = []  # the prefixes the page asked forward_view for, the newest last
_names = []  # the (name, position) pairs it asked backward_view for

CHECKPOINT_PATH = Path(__file__).with_name("data") / "microgpt.json"


@lru_cache(maxsize=1)
def shipped():
    """The checkpoint shipped with the course (an engine.checkpoint.Checkpoint), loaded once."""
    return checkpoint.load(CHECKPOINT_PATH)


def _current(model=None):
    """(model, tokenizer, summary) of the model to explore.

    `model` may be a GPT (read with the course's tokenizer) or a Checkpoint; by default
    the learner's model if there is one, else the shipped checkpoint.
    """
    if isinstance(model, GPT):
        tokenizer = Tokenizer()
        if model.config.vocab_size != tokenizer.vocab_size:
            raise ValueError(
                f"this model has {model.config.vocab_size} symbols, the course's tokenizer "
                f"{tokenizer.vocab_size}: pass a Checkpoint, which carries its own tokenizer"
            )
        return model, tokenizer, model_summary(model, "given", None)
    if isinstance(model, checkpoint.Checkpoint):
        info = model.info
        steps = info.get("training", {}).get("steps")
        return (
            model.model,
            model.tokenizer,
            model_summary(
                model.model,
                "checkpoint",
                steps,
                info.get("held_out_loss"),
                info.get("held_out_names"),
            ),
        )
    if model is not None:
        raise TypeError(f"model must be a GPT or a Checkpoint, got {type(model).__name__}")
    mine = learner()
    if mine is not None:
        return mine.model, mine.tokenizer, model_summary(mine.model, "trained", mine.trained)
    return _current(shipped())


def model_info():
    """The summary of the model the views use now (source, steps, held-out loss, sizes)."""
    return _current()[2]


def _floats(values):
    return [v.data for v in values]


def _symbols(tokenizer):
    return [tokenizer.symbol(i) for i in range(tokenizer.vocab_size)]


# What a symbol is, in words, where its repr leaves it unclear; and its page message key.
_NAMES = {
    " ": ("a space", "model.symbol.space"),
    "-": ("a hyphen", "model.symbol.hyphen"),
    "'": ("an apostrophe", "model.symbol.apostrophe"),
    "\t": ("a tab", "model.symbol.tab"),
}


def _named(ch):
    """A symbol for a message: its repr, and in words what it is when that is unclear; then
    the same as a value of the page's message."""
    words, key = _NAMES.get(ch, (None, None))
    parts = unicodedata.normalize("NFD", ch)
    if words is None and len(parts) > 1 and all(unicodedata.combining(c) for c in parts[1:]):
        # é is e and an accent: not a letter a-z
        words, key = "a letter with an accent", "model.symbol.accent"
    if words is None:
        return repr(ch), repr(ch)
    said = {"key": "model.error.namedSymbol", "values": {"symbol": repr(ch), "what": {"key": key}}}
    return f"{ch!r} ({words})", said


def _remember(asked, key):
    """Put `key` last in `asked`, keeping the WATCHED newest."""
    if key in asked:
        asked.remove(key)
    asked.append(key)
    del asked[:-WATCHED]


def _token_ids(text, tokenizer, block_size, what):
    """The ids of `text` (lowered), after checking it is something the model can read."""
    if not isinstance(text, str):
        raise RequestError(
            f"the {what} must be text, e.g. 'emm'; got {type(text).__name__}",
            f"model.error.{what}NotText",
            {"type": type(text).__name__},
        )
    text = text.strip().lower()
    for ch in text:
        if ch not in tokenizer.chars:
            if tokenizer.chars == Tokenizer().chars:
                allowed, allowed_key = "the letters a-z", {"key": "model.error.lettersAZ"}
            else:
                allowed = f"the symbols {tokenizer.chars!r}"
                symbols = {"symbols": repr(tokenizer.chars)}
                allowed_key = {"key": "model.error.symbols", "values": symbols}
            words, said = _named(ch)
            raise RequestError(
                f"Type only {allowed}: {words} is not one",
                "model.error.typeOnly",
                {"allowed": allowed_key, "symbol": said},
            )
    longest = block_size - 1  # position 0 holds BOS
    if len(text) > longest:
        raise RequestError(
            f"at most {longest} letters: the model reads BOS and then at most {longest} letters "
            f"(its block size is {block_size}); {text!r} has {len(text)}",
            "model.error.tooLong",
            {"count": longest, "blockSize": block_size, "text": repr(text), "length": len(text)},
        )
    return tokenizer.encode(text, bos=False)


def forward_view(prefix, model=None):
    """Everything the model computes reading BOS and then `prefix`, position by position.

    {"model": summary, "symbols": [symbol of id 0, 1, ...], "prefix": the prefix read,
     "tokens": [{"id", "symbol"}] (BOS then the prefix's letters),
     "positions": [one dict per position t:
        "tok_emb", "pos_emb": the rows of wte and wpe added at t,
        "residual": {"sum": tok_emb + pos_emb, "embed": its rmsnorm (the stream entering
                     layer 0), "layers": [{"after_attn", "after_mlp"} per layer]},
        "heads": each head of layer 0: its weights over positions 0..t (t + 1 numbers),
        "layers_heads": the same for every layer (only when there is more than one),
        "logits": the scores of the next token, "probs": softmax(logits) (temperature 1)]}

    A prefix the model cannot read (a symbol outside a-z, too long) is a ValueError whose
    message says why, for the page to show. Upper case is lowered.
    """
    view = _forward(_current(model), prefix)
    if model is None:  # the page's question: watched while a training cell runs
        _remember(_prefixes, view["prefix"])
    return view


def _forward(current, prefix):
    model, tokenizer, summary = current
    ids = _token_ids(prefix, tokenizer, model.config.block_size, "prefix")
    tokens = [tokenizer.bos, *ids]
    keys, values = new_kv_cache(model.config)
    positions = []
    for pos, token in enumerate(tokens):
        trace = {}
        logits = gpt(model, token, pos, keys, values, trace)
        layers = trace["layers"]
        position = {
            "tok_emb": _floats(trace["tok_emb"]),
            "pos_emb": _floats(trace["pos_emb"]),
            "residual": {
                "sum": _floats(trace["x"]),
                "embed": _floats(trace["embed"]),
                "layers": [
                    {
                        "after_attn": _floats(layer["after_attn"]),
                        "after_mlp": _floats(layer["after_mlp"]),
                    }
                    for layer in layers
                ],
            },
            "heads": [_floats(w) for w in layers[0]["heads"]],
            "logits": _floats(logits),
            "probs": next_token_probs(logits, 1.0),
        }
        if len(layers) > 1:
            position["layers_heads"] = [[_floats(w) for w in layer["heads"]] for layer in layers]
        positions.append(position)
    return {
        "model": summary,
        "symbols": _symbols(tokenizer),
        "prefix": tokenizer.decode(ids),
        "tokens": [{"id": t, "symbol": tokenizer.symbol(t)} for t in tokens],
        "positions": positions,
    }


def _norm(xs):
    return math.sqrt(sum(x * x for x in xs))


def backward_view(name, position=None, model=None):
    """Where the gradient of one name's loss goes.

    The name is read as BOS + name + BOS: position t predicts token t + 1, with loss
    loss_t = -log p(token t + 1); the name's loss is their mean (engine.gpt.document_loss).

    {"model", "symbols", "name", "tokens": [{"id", "symbol"}] (BOS + name + BOS),
     "loss": the name's loss, "losses": [loss_t for each position t],
     "matrices": [{"name", "shape": [rows, cols], "abs_grad": rows of |d loss / d w|,
                   "norm": sqrt of the sum of (d loss / d w)^2 over the matrix}]
                 in the model's order, all from ONE backward() of the name's loss,
     "position": t (default the last),
     "contributions": [c_0, ..., c_t] with c_s = || d loss_t / d x_s ||, the length of
                 the gradient of position t's loss with respect to x_s = wte[token_s] +
                 wpe[s], the vector that enters the model at position s; from one
                 backward() of loss_t alone. For s < t, position s can change loss_t
                 only through attention (the key and value position t reads from it).}

    The model's own gradients are put back as they were, so calls repeat the same numbers
    and a training loop that follows is not disturbed.
    """
    view = _backward(_current(model), name, position)
    if model is None:  # the page's question: watched while a training cell runs
        _remember(_names, (view["name"], position))
    return view


def _backward(current, name, position):
    model, tokenizer, summary = current
    ids = _token_ids(name, tokenizer, model.config.block_size, "name")
    if not ids:
        raise RequestError(
            "type a name of at least one letter to see the gradients of its loss",
            "model.error.emptyName",
        )
    tokens = [tokenizer.bos, *ids, tokenizer.bos]
    last = len(tokens) - 2
    if position is None:
        position = last
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= last:
        raise RequestError(
            f"position must be a whole number from 0 to {last}, got {position!r}",
            "model.error.position",
            {"last": last, "position": repr(position)},
        )

    params = model.parameters()
    saved = [p.grad for p in params]
    try:
        for p in params:
            p.grad = 0.0
        keys, values = new_kv_cache(model.config)
        inputs, losses = [], []
        for pos in range(last + 1):
            trace = {}
            logits = gpt(model, tokens[pos], pos, keys, values, trace)
            inputs.append(trace["x"])
            losses.append(cross_entropy(logits, tokens[pos + 1]))
        loss = mean(losses)
        loss.backward()
        matrices = []
        for matrix_name, matrix in model.params.items():
            grads = [[abs(w.grad) for w in row] for row in matrix]
            matrices.append(
                {
                    "name": matrix_name,
                    "shape": [len(matrix), len(matrix[0])],
                    "abs_grad": grads,
                    "norm": _norm([g for row in grads for g in row]),
                }
            )
        # A second backward, of position t's loss alone; the inputs' grads are this pass's.
        losses[position].backward()
        contributions = [_norm([x.grad for x in inputs[s]]) for s in range(position + 1)]
    finally:
        for p, g in zip(params, saved):
            p.grad = g
    return {
        "model": summary,
        "symbols": _symbols(tokenizer),
        "name": tokenizer.decode(ids),
        "tokens": [{"id": t, "symbol": tokenizer.symbol(t)} for t in tokens],
        "loss": loss.data,
        "losses": [x.data for x in losses],
        "matrices": matrices,
        "position": position,
        "contributions": contributions,
    }


def watched_views(model, tokenizer, summary):
    """The views of the prefixes and names the page asked for last, of `model` as it is now.

    {"forward": [forward_view of each watched prefix], "backward": [backward_view of each
    watched name, with "asked_position": the position asked (None: the name's last)]}, or
    None when the page asked for nothing yet. Registered with engine.snapshot.watch: every
    training snapshot carries them, and `summary` (the snapshot's) says which model it is.
    """
    if not _prefixes and not _names:
        return None
    current = (model, tokenizer, summary)
    forward = []
    for prefix in _prefixes:
        try:
            forward.append(_forward(current, prefix))
        except ValueError:  # a model of other symbols or a shorter block: not this prefix
            continue
    backward = []
    for name, position in _names:
        try:
            backward.append({**_backward(current, name, position), "asked_position": position})
        except ValueError:
            continue
    return {"forward": forward, "backward": backward}


watch(watched_views)

SAVED_DIGITS = 8  # decimals of each weight a saved model keeps (engine.checkpoint's digits)


def saved_model():
    """The learner's model as JSON for the page to keep, or None when there is none.

    {"checkpoint": engine.checkpoint text of its weights, "trained": steps trained,
     "losses": the loss of each step, rounded to 4 decimals}
    """
    mine = learner()
    if mine is None:
        return None
    return {
        "checkpoint": checkpoint.dumps(
            mine.model,
            mine.tokenizer,
            training={"steps": mine.trained},
            digits=SAVED_DIGITS,
        ),
        "trained": mine.trained,
        "losses": [round(float(x), 4) for x in mine.losses],
    }


def restore_model(saved):
    """Make a model saved by `saved_model` the learner's model again; returns its snapshot.

    The snapshot (engine.snapshot's JSON) is what a training cell would have shown at its
    end, so the page draws it as one: the other views then use this model.
    """
    if not isinstance(saved, dict) or not isinstance(saved.get("checkpoint"), str):
        raise RequestError("this is not a model the model explorer saved", "model.error.notSaved")
    kept = checkpoint.loads(saved["checkpoint"])
    losses = [float(x) for x in saved.get("losses") or []]
    trained = max(int(saved.get("trained") or 0), len(losses))
    shot = snapshot(kept.model, len(losses), len(losses), losses, tokenizer=kept.tokenizer)
    learner().earlier = trained - len(losses)  # steps of earlier runs, whose losses are gone
    shot.summary["steps"] = trained
    return shot.to_json()

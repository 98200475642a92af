"""Save a trained microGPT to a JSON file and load it back.

A checkpoint is plain JSON text, so it can be read by eye and by any language:

    {"format": "microgpt-checkpoint", "version": 1,
     "config": {"vocab_size": 27, "n_embd": 16, ...},      the GPTConfig
     "chars": "abcdefghijklmnopqrstuvwxyz",                 the tokenizer's symbols (BOS is
                                                            added after them, as Tokenizer does)
     "training": {"steps": 1000, "lr": 0.01, "seed": 0, "batch_size": 1},
     "held_out_loss": 2.2485..., "held_out_names": 516,    measured after training
     "digits": 5,                                           decimals kept of every weight
     "params": {"wte": [[...], ...], ...}}                  every matrix, row by row

Weights are rounded to `digits` decimals: 5 keeps the file small (about 40 kB for the
course's 4,192 weights) and moves the held-out loss by far less than its 4th decimal.

>>> from engine.gpt import init_gpt
>>> from engine.tokenizer import Tokenizer
>>> text = dumps(init_gpt(seed=0), Tokenizer(), training={"steps": 0})
>>> restored = loads(text)
>>> len(restored.model.parameters()), restored.tokenizer.vocab_size, restored.info["training"]
(4192, 27, {'steps': 0})

API:
    FORMAT, VERSION, DIGITS
    dumps(model, tokenizer, training=None, held_out_loss=None, held_out_names=None,
          digits=DIGITS) -> str
    save(path, model, tokenizer, ...) -> pathlib.Path   dumps, written to `path`
    loads(text) -> Checkpoint(model, tokenizer, info)   info: every field but the weights
    load(path) -> Checkpoint
    CheckpointError (a ValueError): the file is not a checkpoint this code can read
"""

import dataclasses
import errno
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import said
from .gpt import GPT, GPTConfig, init_gpt
from .tokenizer import Tokenizer
from .value import Value

__all__ = [
    "DIGITS",
    "FORMAT",
    "VERSION",
    "Checkpoint",
    "CheckpointError",
    "dumps",
    "load",
    "loads",
    "save",
]

FORMAT = "microgpt-checkpoint"
VERSION = 1
DIGITS = 5
_HOW_TO_MAKE = "make one with `python -m engine.train --save PATH`"


class CheckpointError(ValueError):
    """The text is not a microGPT checkpoint this code can read; the message says why."""


# The json module's reasons (CPython 3.11 to 3.13), each with its page message: the page says
# the reason in its language, the position (line, column) as numbers.
_JSON_REASONS = {
    "Expecting value": "expectingValue",
    "Expecting property name enclosed in double quotes": "propertyName",
    "Expecting ':' delimiter": "colon",
    "Expecting ',' delimiter": "comma",
    "Unterminated string starting at": "unterminatedString",
    "Invalid control character at": "controlCharacter",
    "Invalid \\escape": "escape",
    "Invalid \\uXXXX escape": "unicodeEscape",
    "Extra data": "extraData",
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": "bom",
    "Illegal trailing comma before end of object": "trailingCommaObject",
    "Illegal trailing comma before end of array": "trailingCommaArray",
}


def _json_reason(err):
    """The parser's reason as an error naming its page message; one this table does not know
    (a newer Python's) is quoted as Python says it."""
    name = _JSON_REASONS.get(err.msg)
    if name is None:
        return said(ValueError, "checkpoint.json.other", err.msg, reason=err.msg)
    return said(ValueError, f"checkpoint.json.{name}", _reason(err))


def _reason(err):
    # "Unterminated string starting at" is followed by the position: "at line 3" says it once.
    return err.msg.removesuffix(" at")


@dataclass
class Checkpoint:
    """A loaded checkpoint: the model, its tokenizer, and the other fields (`info`)."""

    model: GPT
    tokenizer: Tokenizer
    info: dict


def dumps(
    model,
    tokenizer,
    training=None,
    held_out_loss=None,
    held_out_names=None,
    digits=DIGITS,
):
    """The checkpoint of `model` as JSON text: one line per matrix row, weights rounded."""
    if tokenizer.vocab_size != model.config.vocab_size:
        raise said(
            ValueError,
            "checkpoint.tokenizer",
            f"the tokenizer has {tokenizer.vocab_size} symbols but the model "
            f"{model.config.vocab_size}; save the tokenizer the model was trained with",
            symbols=tokenizer.vocab_size,
            vocab_size=model.config.vocab_size,
        )
    cfg = model.config
    header = {
        "format": FORMAT,
        "version": VERSION,
        "config": {
            "vocab_size": cfg.vocab_size,
            "n_embd": cfg.n_embd,
            "n_head": cfg.n_head,
            "n_layer": cfg.n_layer,
            "block_size": cfg.block_size,
        },
        "chars": tokenizer.chars,
        "training": dict(training or {}),
        "held_out_loss": held_out_loss,
        "held_out_names": held_out_names,
        "digits": digits,
    }
    lines = ["{"]
    lines += [f"{json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    lines.append('"params": {')
    names = list(model.params)
    for i, name in enumerate(names):
        rows = [json.dumps([round(w.data, digits) for w in row]) for row in model.params[name]]
        end = "," if i < len(names) - 1 else ""
        lines.append(f"{json.dumps(name)}: [\n" + ",\n".join(rows) + f"\n]{end}")
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def save(path, model, tokenizer, **fields):
    """Write `dumps(model, tokenizer, **fields)` to `path` (folders are made) and return it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(model, tokenizer, **fields), encoding="utf-8")
    return path


def _matrix(name, rows, shape):
    """The matrix `name` as rows of Values, after checking it has `shape`."""
    n_rows, n_cols = shape
    if not isinstance(rows, list) or len(rows) != n_rows:
        got = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise said(
            CheckpointError,
            "checkpoint.rows",
            f"matrix {name!r} has {got} rows but the config needs {n_rows} ({n_rows}x{n_cols})",
            name=repr(name),
            got=got,
            rows=n_rows,
            cols=n_cols,
        )
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n_cols:
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise said(
                CheckpointError,
                "checkpoint.entries",
                f"row {i} of matrix {name!r} has {got} entries but the config needs {n_cols}",
                row=i,
                name=repr(name),
                got=got,
                cols=n_cols,
            )
        for w in row:
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
                raise said(
                    CheckpointError,
                    "checkpoint.notNumber",
                    f"row {i} of matrix {name!r} holds {w!r}, not a number",
                    row=i,
                    name=repr(name),
                    weight=repr(w),
                )
        out.append([Value(float(w)) for w in row])
    return out


def _config_fields(config):
    """The checkpoint's config as GPTConfig's keyword arguments; an error naming its page
    message when it is not an object of GPTConfig's fields."""
    fields = [f.name for f in dataclasses.fields(GPTConfig)]
    if not isinstance(config, dict):
        raise said(
            TypeError,
            "checkpoint.configNotObject",
            f"it is {type(config).__name__}, not an object of the fields {', '.join(fields)}",
            type=type(config).__name__,
            fields=", ".join(fields),
        )
    for name in config:
        if name not in fields:
            raise said(
                TypeError,
                "checkpoint.configField",
                f"GPTConfig has no field {name!r}; its fields are {', '.join(fields)}",
                name=repr(name),
                fields=", ".join(fields),
            )
    return config


def _chars(chars):
    """The checkpoint's chars as the tokenizer takes them: a string, or a list of strings."""
    if isinstance(chars, str) or (
        isinstance(chars, list) and all(isinstance(c, str) for c in chars)
    ):
        return chars
    raise said(
        TypeError,
        "checkpoint.charsNotText",
        f"they are {type(chars).__name__}, not a string of the tokenizer's characters",
        type=type(chars).__name__,
    )


def loads(text):
    """The Checkpoint in JSON `text`; a CheckpointError says what is wrong with bad text."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise said(
            TypeError,
            "checkpoint.notString",
            f"loads reads a checkpoint's JSON text, got {type(text).__name__}; "
            "to read a checkpoint file, use load(path)",
            type=type(text).__name__,
        )
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")  # as json.loads
        except UnicodeDecodeError:
            raise said(
                CheckpointError,
                "checkpoint.bytesNotText",
                f"these bytes are not a checkpoint: they are not UTF-8 text; {_HOW_TO_MAKE}",
            ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise said(
            CheckpointError,
            "checkpoint.notJson",
            f"this is not a checkpoint: it is not JSON ({_reason(err)} at line {err.lineno}, "
            f"column {err.colno}); {_HOW_TO_MAKE}",
            reason=_json_reason(err),
            line=err.lineno,
            column=err.colno,
        ) from None
    except RecursionError:
        raise said(
            CheckpointError,
            "checkpoint.tooDeep",
            f"this is not a checkpoint: its JSON is nested too deeply to read; {_HOW_TO_MAKE}",
        ) from None
    except ValueError:
        # Python refuses to read a whole number of thousands of digits (int_max_str_digits).
        raise said(
            CheckpointError,
            "checkpoint.hugeNumber",
            f"this is not a checkpoint: it holds a whole number too long to read; {_HOW_TO_MAKE}",
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise said(
            CheckpointError,
            "checkpoint.format",
            f'this JSON is not a microGPT checkpoint (its "format" is {found!r}, '
            f"not {FORMAT!r}); {_HOW_TO_MAKE}",
            found=repr(found),
            format=repr(FORMAT),
        )
    if data.get("version") != VERSION:
        raise said(
            CheckpointError,
            "checkpoint.version",
            f"this checkpoint has version {data.get('version')!r}; this engine reads version "
            f"{VERSION}: save it again with this engine",
            found=repr(data.get("version")),
            version=VERSION,
        )
    for key in ("config", "chars", "params"):
        if key not in data:
            raise said(
                CheckpointError,
                "checkpoint.noField",
                f"the checkpoint has no {key!r} field; {_HOW_TO_MAKE}",
                field=repr(key),
            )
    try:
        config = GPTConfig(**_config_fields(data["config"]))
    except (TypeError, ValueError) as err:
        raise said(
            CheckpointError,
            "checkpoint.config",
            f"the checkpoint's config is not a GPTConfig: {err}",
            reason=err,
        ) from None
    try:
        tokenizer = Tokenizer(_chars(data["chars"]))
    except (TypeError, ValueError) as err:
        raise said(
            CheckpointError,
            "checkpoint.chars",
            f"the checkpoint's chars are not a tokenizer: {err}",
            reason=err,
        ) from None
    if tokenizer.vocab_size != config.vocab_size:
        raise said(
            CheckpointError,
            "checkpoint.vocabSize",
            f"the checkpoint's {len(tokenizer.chars)} chars + BOS make {tokenizer.vocab_size} "
            f"symbols but its config has vocab_size {config.vocab_size}",
            chars=len(tokenizer.chars),
            symbols=tokenizer.vocab_size,
            vocab_size=config.vocab_size,
        )
    # The names and shapes a model of this config has, taken from a fresh one.
    expected = {name: (len(m), len(m[0])) for name, m in init_gpt(config, seed=0).params.items()}
    params = data["params"]
    if not isinstance(params, dict) or set(params) != set(expected):
        got = sorted(params) if isinstance(params, dict) else type(params).__name__
        raise said(
            CheckpointError,
            "checkpoint.matrices",
            f"the checkpoint's matrices are {got}; a model of its config has {sorted(expected)}",
            got=got,
            expected=sorted(expected),
        )
    model = GPT(
        config, {name: _matrix(name, params[name], shape) for name, shape in expected.items()}
    )
    info = {k: v for k, v in data.items() if k != "params"}
    return Checkpoint(model, tokenizer, info)


def load(path):
    """The Checkpoint saved at `path`."""
    if not isinstance(path, (str, os.PathLike)):
        raise said(
            TypeError,
            "checkpoint.notPath",
            f"load takes the path of a checkpoint file, got {type(path).__name__}; "
            "to read a checkpoint's JSON text, use loads(text)",
            type=type(path).__name__,
        )
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise said(
            FileNotFoundError,
            "checkpoint.noFile",
            f"no checkpoint at {path}; {_HOW_TO_MAKE}",
            path=path,
        ) from None
    except IsADirectoryError:
        raise said(
            IsADirectoryError,
            "checkpoint.folder",
            f"{path} is a folder, not a checkpoint file; give the path of the file itself",
            path=path,
        ) from None
    except PermissionError:
        raise said(
            PermissionError,
            "checkpoint.noPermission",
            f"{path} cannot be read: you have no permission to read it; "
            "copy it somewhere you can read, or change its permissions",
            path=path,
        ) from None
    except NotADirectoryError:
        raise said(
            NotADirectoryError,
            "checkpoint.fileOnTheWay",
            f"no checkpoint at {path}: a part of its path is a file, not a folder; check the path",
            path=path,
        ) from None
    except OSError as err:
        # The system's own reason is English: the page gets its code (ENAMETOOLONG, ...).
        code = errno.errorcode.get(err.errno, str(err.errno))
        raise said(
            type(err),
            "checkpoint.cannotRead",
            f"cannot read {path}: the system refused ({code}); check the path and the file",
            path=path,
            code=code,
        ) from None
    except UnicodeDecodeError:
        raise said(
            CheckpointError,
            "checkpoint.notText",
            f"{path} is not a checkpoint: it is not text; {_HOW_TO_MAKE}",
            path=path,
        ) from None
    try:
        return loads(text)
    except CheckpointError as err:
        raise said(
            CheckpointError,
            "checkpoint.inFile",
            f"{path}: {err}",
            path=path,
            reason=err,
        ) from None

"""The messages between the trusted grader and a child: JSON only, checked strictly.

Nothing from a child is trusted: the result must be exactly one JSON line carrying the
nonce of this run, and every number in it an exact float (JSON true/false, integers,
strings or nested objects where numbers belong are rejected). Nothing is unpickled.
"""

import hmac
import json
import math
import re

from .messages import msg, render

MAX_KEYS = 500
MAX_TEXT = 400
MAX_DEPTH = 6  # a result nests 3 deep ({"outcome": {"values": {...}}}); deeper is forged
_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape, a quote or a bracket


class ProtocolError(ValueError):
    """The child's report is missing, forged or malformed: `message` says how (a Message,
    shown in the reader's language; str() is its English)."""

    def __init__(self, message):
        self.message = message
        super().__init__(render(message))


def encode_request(request):
    return json.dumps(request, allow_nan=False).encode()


def _constant(name):
    # NaN and +-Infinity are wrong answers, not protocol errors: the judge fails them.
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


def _no_duplicates(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise ProtocolError(msg("duplicate key {key}", key=repr(key[:40])))  # as shown below
        result[key] = value
    return result


def decode_result(data, nonce):
    """The outcome inside one result line, or ProtocolError saying what was wrong."""
    if not data:
        raise ProtocolError(msg("no result"))
    if data.count(b"\n") != 1 or not data.endswith(b"\n"):
        raise ProtocolError(msg("expected exactly one line"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(msg("not UTF-8")) from None
    _shallow(text)
    try:
        message = json.loads(text, parse_constant=_constant, object_pairs_hook=_no_duplicates)
    except ProtocolError:
        raise
    except Exception as exc:  # RecursionError, MemoryError, ...: all the child's fault
        raise ProtocolError(
            msg("not JSON: {error}", error=f"{type(exc).__name__}: {str(exc)[:80]}")
        ) from None
    if type(message) is not dict or set(message) != {"nonce", "outcome"}:
        raise ProtocolError(msg("unexpected fields"))
    if type(message["nonce"]) is not str or not hmac.compare_digest(message["nonce"], nonce):
        raise ProtocolError(msg("wrong nonce"))
    return _outcome(message["outcome"])


def _shallow(text):
    """ProtocolError if brackets outside strings nest deeper than MAX_DEPTH.

    json.loads recurses once per level and raises RecursionError (not ValueError) on
    thousands of them: refuse such a line before parsing it.
    """
    depth, in_string = 0, False
    for token in _TOKEN.findall(text):  # one linear pass
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue
        elif token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ProtocolError(msg("nested deeper than {depth} levels", depth=MAX_DEPTH))
        else:
            depth -= 1


def _text(value, what):
    """A string from the child, cut short and made printable (JSON can carry lone
    surrogates such as "\\ud800", which no report or terminal could write)."""
    if type(value) is not str:
        raise ProtocolError(msg("{what} is not a string", what=what))
    return value[:MAX_TEXT].encode("utf-8", "replace").decode("utf-8")


def _outcome(outcome):
    if type(outcome) is not dict:
        raise ProtocolError(msg("outcome is not an object"))
    if set(outcome) == {"error"}:
        error = outcome["error"]
        if type(error) is not dict or set(error) != {"type", "message", "line"}:
            raise ProtocolError(msg("malformed error"))
        if type(error["line"]) is not int or not 0 <= error["line"] < 10**7:
            raise ProtocolError(msg("malformed line number"))
        return {
            "error": {
                "type": _text(error["type"], msg("error type")),
                "message": _text(error["message"], msg("error message")),
                "line": error["line"],
            }
        }
    if set(outcome) != {"values", "invalid"}:
        raise ProtocolError(msg("unexpected outcome fields"))
    values, invalid = outcome["values"], outcome["invalid"]
    if type(values) is not dict or type(invalid) is not dict:
        raise ProtocolError(msg("values are not an object"))
    if len(values) + len(invalid) > MAX_KEYS:
        raise ProtocolError(msg("too many values"))
    clean = {}
    for key, value in values.items():
        if type(value) is not float:
            raise ProtocolError(msg("{key} is not a float", key=repr(key[:40])))
        clean[_text(key, msg("key"))] = value
    reasons = {_text(k, msg("key")): _text(v, msg("reason")) for k, v in invalid.items()}
    return {"values": clean, "invalid": reasons}

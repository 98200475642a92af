"""Child side of day 16: call vocabulary, encode, decode and pairs; send the lists back."""

from .lists import flatten_ints, flatten_text


def run(module, case):
    x = case["inputs"]
    kind = case["kind"]
    if kind == "vocabulary":
        return flatten_text("chars", module.vocabulary(list(x["names"])))
    if kind == "encode":
        return flatten_ints("ids", module.encode(x["word"], x["chars"]))
    if kind == "decode":
        return flatten_text("text", module.decode(list(x["ids"]), x["chars"]))
    out = {}
    result = list(module.pairs(list(x["ids"])))
    for i, pair in enumerate(result):
        if len(pair) != 2:
            raise ValueError(f"pairs()[{i}] is {pair!r}: each pair holds (current, next)")
    out.update(flatten_ints("current", [a for a, _ in result]))
    out.update(flatten_ints("next", [b for _, b in result]))
    return out

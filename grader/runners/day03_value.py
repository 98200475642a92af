"""Child side of day 3: build Values and read back .data, ._op as text, ._prev as the names
of the case's Values it holds ("V" for another Value, "?" for anything else), and the text
of `expression(v)` as character codes (at most MAX_TEXT of them).
"""

from . import MAX_TEXT
from .lists import flatten_text
from .programs import BINARY, OPS


def _names(V, items, known):
    """Each item's name in `known` ({name: Value}), "V" for another V, "?" for the rest."""
    by_id = {id(v): name for name, v in known.items()}
    return "".join(by_id.get(id(x), "V" if type(x) is V else "?") for x in items)


def _node(V, prefix, out, known, any_order=False):
    """out.data, out._op as text and out._prev as names, under `prefix`.

    With `any_order` the names go sorted: the order of the children is the learner's choice.
    """
    names = _names(V, tuple(out._prev)[:MAX_TEXT], known)
    values = {f"{prefix}.data": out.data}
    if isinstance(out._op, str):
        values.update(flatten_text(f"{prefix}._op", out._op[:MAX_TEXT]))
    values.update(flatten_text(f"{prefix}._prev", sorted(names) if any_order else names))
    return values


NUMBERS = {
    "a + n": lambda a, n: a + n,
    "a * n": lambda a, n: a * n,
    "n + a": lambda a, n: n + a,
    "n * a": lambda a, n: n * a,
}


def run(module, case):
    V, kind, inp = module.Value, case["kind"], case["inputs"]
    if kind == "binary":
        a, b = V(inp["a"]), V(inp["b"])
        out = a + b if inp["op"] == "+" else a * b
        return _node(V, "out", out, {"a": a, "b": b})
    if kind == "numbers":
        values = {}
        for text, make in NUMBERS.items():
            a = V(inp["a"])  # a fresh a for each expression
            out = make(a, inp["n"])
            values.update(_node(V, f"({text})", out, {"a": a}, any_order=True))
            wrapped = [p for p in tuple(out._prev) if p is not a and type(p) is V]
            if wrapped:
                values[f"({text}): the number's Value .data"] = wrapped[0].data
        return values
    if kind == "chain":
        a, b, c, f = (V(inp[k]) for k in "abcf")
        e = a * b
        d = e + c
        L = d * f
        known = {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "L": L}
        return {**_node(V, "e", e, known), **_node(V, "d", d, known), **_node(V, "L", L, known)}
    nodes = [V(x, label=name) for name, x in inp["leaves"]]
    for op in inp["ops"]:
        x = nodes[op[1]]
        nodes.append(OPS[op[0]](x, nodes[op[2]] if op[0] in BINARY else op[2]))
    text = module.expression(nodes[-1])
    if not isinstance(text, str):
        return {"expression is text": 0.0}
    return {"expression is text": 1.0, **flatten_text("expression", text[:MAX_TEXT])}

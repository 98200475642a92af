"""Child side of day 3: build Values and read back .data, 1.0/0.0 flags for _prev and _op,
and the text of `expression(v)` as character codes (at most MAX_TEXT of them).
"""

from . import MAX_TEXT
from .lists import flatten_text
from .programs import BINARY, OPS


def _flag(condition):
    return 1.0 if condition else 0.0


def run(module, case):
    V, kind, inp = module.Value, case["kind"], case["inputs"]
    if kind == "binary":
        a, b = V(inp["a"]), V(inp["b"])
        out = a + b if inp["op"] == "+" else a * b
        prev = tuple(out._prev)
        return {
            "data": out.data,
            "op is right": _flag(out._op == inp["op"]),
            "children are (a, b)": _flag(len(prev) == 2 and prev[0] is a and prev[1] is b),
        }
    if kind == "numbers":
        values = {}
        for text in ("a + n", "a * n", "n + a", "n * a"):
            a = V(inp["a"])
            n = inp["n"]
            if text == "a + n":
                out = a + n
            elif text == "a * n":
                out = a * n
            elif text == "n + a":
                out = n + a
            else:
                out = n * a
            prev = tuple(out._prev)
            wrapped = [p for p in prev if p is not a]
            values[f"{text}: data"] = out.data
            values[f"{text}: a is a child"] = _flag(any(p is a for p in prev))
            values[f"{text}: the number is a Value child"] = _flag(
                len(prev) == 2
                and len(wrapped) == 1
                and isinstance(wrapped[0], V)
                and wrapped[0].data == n
            )
        return values
    if kind == "chain":
        a, b, c, f = (V(inp[k]) for k in "abcf")
        e = a * b
        d = e + c
        L = d * f
        return {
            "e.data": e.data,
            "d.data": d.data,
            "L.data": L.data,
            "L is made of (d, f) by *": _flag(L._op == "*" and tuple(L._prev) == (d, f)),
            "d is made of (e, c) by +": _flag(d._op == "+" and tuple(d._prev) == (e, c)),
            "e is made of (a, b) by *": _flag(e._op == "*" and tuple(e._prev) == (a, b)),
        }
    nodes = [V(x, label=name) for name, x in inp["leaves"]]
    for op in inp["ops"]:
        x = nodes[op[1]]
        nodes.append(OPS[op[0]](x, nodes[op[2]] if op[0] in BINARY else op[2]))
    text = module.expression(nodes[-1])
    if not isinstance(text, str):
        return {"expression is text": 0.0}
    return {"expression is text": 1.0, **flatten_text("expression", text[:MAX_TEXT])}

"""Child side of day 8: set out.grad, call out._backward() of pow, exp, tanh and relu.

Sends x.grad of each operation, the ops that -a, a - b and a / b are made of (as text),
and whole programs through backward().
"""

from . import MAX_TEXT
from .lists import flatten_text
from .programs import OPS, run_program


def run(module, case):
    kind, inputs, V = case["kind"], case["inputs"], module.Value
    if kind == "program":
        return run_program(module, case)
    if kind == "primitives":
        a, b = V(inputs["a"]), V(inputs["b"])
        values = {}
        for name, out in (("-a", -a), ("a - b", a - b), ("a / b", a / b)):
            values.update(flatten_text(f"the ops of {name}", _ops(out)[:MAX_TEXT]))
        return values
    values = {}
    for i, s in enumerate(inputs["ops"]):
        x = V(s["x"])
        x.grad = s["x0"]
        out = OPS["pow"](x, s["k"]) if s["op"] == "pow" else OPS[s["op"]](x)
        out.grad = s["g"]
        out._backward()
        values[f"{i}:x.grad"] = x.grad
    return values


def _ops(out):
    """The ops in the graph of `out`, each once, sorted, as "op op": "**" without its number."""
    seen, stack, ops = set(), [out], set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        op = str(v._op)
        ops.add("**" if op.startswith("**") else op)
        stack.extend(v._prev)
    return " ".join(sorted(ops - {""}))

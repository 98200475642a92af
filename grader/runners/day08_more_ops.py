"""Child side of day 8: set out.grad, call out._backward() of pow, exp, tanh and relu.

Sends x.grad of each operation, the count of ops other than +, * and ** in -a, a - b
and a / b, and whole programs through backward().
"""

from .programs import OPS, run_program


def run(module, case):
    kind, inputs, V = case["kind"], case["inputs"], module.Value
    if kind == "program":
        return run_program(module, case)
    if kind == "primitives":
        a, b = V(inputs["a"]), V(inputs["b"])
        values = {}
        for name, out in (("-a", -a), ("a - b", a - b), ("a / b", a / b)):
            values[f"{name}: other ops"] = float(len(_foreign_ops(out)))
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


def _foreign_ops(out):
    """The ops in the graph of `out` that are not +, *, ** or a leaf."""
    seen, stack, foreign = set(), [out], []
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        op = str(v._op)
        if op not in ("", "+", "*") and not op.startswith("**"):
            foreign.append(op)
        stack.extend(v._prev)
    return foreign

"""Child side of day 5: set out.grad, call out._backward(), read the inputs' .grad.

Each operation on its own, reuse of one Value, then whole programs through backward().
"""

from .programs import run_program


def run(module, case):
    kind, inputs, V = case["kind"], case["inputs"], module.Value
    if kind == "program":
        return run_program(module, case)
    values = {}
    if kind == "ops":
        for i, spec in enumerate(inputs["ops"]):
            a, b = V(spec["a"]), V(spec["b"])
            a.grad, b.grad = spec["a0"], spec["b0"]
            out = a + b if spec["op"] == "+" else a * b
            out.grad = spec["g"]
            out._backward()
            values[f"{i}:a.grad"], values[f"{i}:b.grad"] = a.grad, b.grad
        return values
    # reuse: x + x and x * x, each on a fresh x
    for op in "+*":
        x = V(inputs["x"])
        out = x + x if op == "+" else x * x
        out.grad = inputs["g"]
        out._backward()
        values[f"x {op} x: x.grad"] = x.grad
    return values

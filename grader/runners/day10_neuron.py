"""Child side of day 10: call neuron(x, w, b, act) and backward() on its output.

Sends out.data and the .grad of every weight, input and the bias; for bad arguments,
whether neuron raised ValueError.
"""

from .refusal import refusal


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    x = [Value(v) for v in inputs["x"]]
    w = [Value(v) for v in inputs["w"]]
    b = Value(inputs["b"])
    if case["kind"] == "lengths":
        call = lambda: module.neuron(x, w, b, inputs["act"])  # noqa: E731
        return refusal(call, run, module, inputs.get("then"))
    out = module.neuron(x, w, b, inputs["act"])
    out.backward()
    values = {"out": out.data, "b.grad": b.grad}
    for i, (wi, xi) in enumerate(zip(w, x)):
        values[f"w[{i}].grad"] = wi.grad
        values[f"x[{i}].grad"] = xi.grad
    return values

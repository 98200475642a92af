"""Child side of day 9: call gradient_descent_step on parameters with set .data and .grad.

Sends every parameter's .data and .grad after the step; on the bowl, x, y and the loss after.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    if case["kind"] == "bowl":
        x, y = Value(inputs["x"]), Value(inputs["y"])
        loss = (x - 3.0) ** 2 + (y + 1.0) ** 2
        loss.backward()
        module.gradient_descent_step([x, y], inputs["lr"])
        after = (x - 3.0) ** 2 + (y + 1.0) ** 2
        return {"x.data": x.data, "y.data": y.data, "loss after": after.data}
    params = []
    for data, grad in inputs["params"]:
        p = Value(data)
        p.grad = grad
        params.append(p)
    module.gradient_descent_step(params, inputs["lr"])
    values = {}
    for i, p in enumerate(params):
        values[f"p{i}.data"] = p.data
        values[f"p{i}.grad"] = p.grad
    return values

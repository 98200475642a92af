"""Child side of day 11: call dense, mlp and parameter_count, and backward() on the outputs.

Sends the number of outputs, their .data and the .grad of every weight, bias and input.
"""


def _values(Value, rows):
    return [[Value(v) for v in row] for row in rows]


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    if case["kind"] == "count":
        return {"count": module.parameter_count(inputs["nin"], list(inputs["nouts"]))}
    x = [Value(v) for v in inputs["x"]]
    values = {}
    if case["kind"] == "dense":
        W, b = _values(Value, inputs["W"]), [Value(v) for v in inputs["b"]]
        out = module.dense(x, W, b, inputs["act"])
        values["outputs"] = float(len(out))
        loss = sum((ci * o for ci, o in zip(inputs["c"], out)), Value(0.0))
        loss.backward()
        layers = [(W, b)]
        for j, o in enumerate(out):
            values[f"out[{j}]"] = o.data
    else:
        layers = [(_values(Value, W), [Value(v) for v in b]) for W, b in inputs["layers"]]
        out = module.mlp(x, layers)
        values["outputs"] = float(len(out))
        out[0].backward()
        values["y"] = out[0].data
    for k, (W, b) in enumerate(layers):
        for j, row in enumerate(W):
            for i, w in enumerate(row):
                values[f"layer {k} W[{j}][{i}].grad"] = w.grad
            values[f"layer {k} b[{j}].grad"] = b[j].grad
    for i, xi in enumerate(x):
        values[f"x[{i}].grad"] = xi.grad
    return values

"""Child side of day 23: call multi_head_attention on Values, send the outputs and the
gradients of sum_j weights_j out_j; for a width that does not split, whether it raised.
"""

from .refusal import refusal


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    if case["kind"] == "uneven":
        q = [Value(x) for x in inputs["q"]]
        keys = [[Value(x) for x in k] for k in inputs["keys"]]
        values = [[Value(x) for x in v] for v in inputs["values"]]
        call = lambda: module.multi_head_attention(q, keys, values, inputs["n_head"])  # noqa: E731
        return refusal(call, run, module, inputs.get("then"))
    q = [Value(x) for x in inputs["q"]]
    keys = [[Value(x) for x in k] for k in inputs["keys"]]
    values = [[Value(x) for x in v] for v in inputs["values"]]
    out = module.multi_head_attention(q, keys, values, inputs["n_head"])
    result = {"len(out)": float(len(out))}
    for j, o in enumerate(out):
        result[f"out[{j}]"] = o.data
    loss = sum((w * o for w, o in zip(inputs["weights"], out)), Value(0.0))
    loss.backward()
    for j, v in enumerate(q):
        result[f"q[{j}].grad"] = v.grad
    for t, (k, v) in enumerate(zip(keys, values)):
        for j in range(len(k)):
            result[f"keys[{t}][{j}].grad"] = k[j].grad
            result[f"values[{t}][{j}].grad"] = v[j].grad
    return result

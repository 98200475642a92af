"""Child side of day 22: call attention_scores or attention_head on Values, send the
outputs and the gradients of sum_j w_j out_j with respect to q, the keys and the values.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    q = [Value(x) for x in inputs["q"]]
    keys = [[Value(x) for x in k] for k in inputs["keys"]]
    values = [[Value(x) for x in v] for v in inputs.get("values", [])]
    if case["kind"] == "scores":
        out = module.attention_scores(q, keys)
    else:
        out = module.attention_head(q, keys, values)
    result = {"len(out)": float(len(out))}
    for j, o in enumerate(out):
        result[f"out[{j}]"] = o.data
    loss = sum((w * o for w, o in zip(inputs["w"], out)), Value(0.0))
    loss.backward()
    for j, v in enumerate(q):
        result[f"q[{j}].grad"] = v.grad
    for t, k in enumerate(keys):
        for j, v in enumerate(k):
            result[f"keys[{t}][{j}].grad"] = v.grad
    for t, vec in enumerate(values):
        for j, v in enumerate(vec):
            result[f"values[{t}][{j}].grad"] = v.grad
    return result

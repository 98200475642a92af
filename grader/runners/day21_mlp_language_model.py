"""Child side of day 21: call context_examples and send the windows and targets as lists;
call mlp_logits on Values, send the logits and every weight's gradient of sum_j w_j z_j.
"""

from .lists import flatten_ints


def run(module, case):
    x = case["inputs"]
    if case["kind"] == "examples":
        examples = list(module.context_examples(list(x["ids"]), x["block"], x["bos"]))
        contexts, targets = [], []
        for i, example in enumerate(examples):
            context, target = example
            if len(context) != x["block"]:
                raise ValueError(f"example {i} has a context of {len(context)} ids, not block_size")
            contexts.extend(context)
            targets.append(target)
        out = flatten_ints("contexts", contexts)
        out.update(flatten_ints("targets", targets))
        return out

    from engine import Value

    P = {k: [[Value(v) for v in row] for row in x[k]] for k in ("C", "W1", "W2")}
    b1, b2 = [Value(v) for v in x["b1"]], [Value(v) for v in x["b2"]]
    z = list(module.mlp_logits(tuple(x["context"]), P["C"], P["W1"], b1, P["W2"], b2))
    out = {"len(z)": len(z)}
    loss = Value(0.0)
    for j, (zj, wj) in enumerate(zip(z, x["w"])):
        out[f"z[{j}]"] = zj.data
        loss = loss + zj * wj
    loss.backward()
    for name in ("C", "W1", "W2"):
        for i, row in enumerate(P[name]):
            for k, v in enumerate(row):
                out[f"{name}[{i}][{k}].grad"] = v.grad
    for name, vec in (("b1", b1), ("b2", b2)):
        for i, v in enumerate(vec):
            out[f"{name}[{i}].grad"] = v.grad
    return out

"""Child side of day 18: call nll on Values (then backward) and sequence_nll on a table;
send the loss and each probability's gradient.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    if case["kind"] == "nll":
        ps = [Value(p) for p in inputs["probs"]]
        loss = module.nll(ps)
        loss.backward()
        result = {"nll": loss.data}
        result.update({f"p[{i}].grad": p.grad for i, p in enumerate(ps)})
        return result
    return {"nll": module.sequence_nll(inputs["P"], list(inputs["ids"]))}

"""Child side of day 12: call mse, hinge or logistic on Value scores, then backward().

Sends the loss and every score's .grad; for mismatched lists, whether it raised ValueError.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    scores = [Value(v) for v in inputs["s"]]
    loss_fn = getattr(module, inputs["loss"])
    if case["kind"] == "lengths":
        try:
            loss_fn(scores, list(inputs["y"]))
        except ValueError:
            return {"raised ValueError": 1.0}
        return {"raised ValueError": 0.0}
    loss = loss_fn(scores, list(inputs["y"]))
    loss.backward()
    values = {"loss": loss.data}
    for i, s in enumerate(scores):
        values[f"s[{i}].grad"] = s.grad
    return values

"""Child side of day 12: call mse, hinge or logistic on Value scores, then backward().

Sends the loss and every score's .grad; for mismatched lists, whether it raised ValueError.
"""

from .refusal import refusal


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    scores = [Value(v) for v in inputs["s"]]
    loss_fn = getattr(module, inputs["loss"])
    if case["kind"] == "lengths":
        call = lambda: loss_fn(scores, list(inputs["y"]))  # noqa: E731
        return refusal(call, run, module, inputs.get("then"))
    loss = loss_fn(scores, list(inputs["y"]))
    loss.backward()
    values = {"loss": loss.data}
    for i, s in enumerate(scores):
        values[f"s[{i}].grad"] = s.grad
    return values

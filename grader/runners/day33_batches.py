"""Child side of day 33: call embed_batch, flatten_batch, batch_linear or batch_loss on
nested lists of floats and send the result's lengths and numbers."""

from .lists import flatten_nested


def run(module, case):
    x = case["inputs"]
    kind, out = case["kind"], {}
    if kind == "embed":
        flatten_nested("emb", module.embed_batch(x["C"], x["X"]), 3, out)
    elif kind == "flatten":
        flatten_nested("x", module.flatten_batch(x["emb"]), 2, out)
    elif kind == "linear":
        flatten_nested("out", module.batch_linear(x["x"], x["W"], x["b"]), 2, out)
    else:
        out["loss"] = float(module.batch_loss(x["logits"], x["Y"]))
    return out

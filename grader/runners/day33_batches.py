"""Child side of day 33: call embed_batch, flatten_batch, batch_linear or batch_loss on
nested lists of floats and send the result's lengths and numbers."""


def _send(name, nested, depth, out):
    """{len(name): n, name[i]...: number} for nested lists `depth` levels deep."""
    if depth == 0:
        out[name] = float(nested)
        return
    items = list(nested)
    out[f"len({name})"] = float(len(items))
    for i, item in enumerate(items):
        _send(f"{name}[{i}]", item, depth - 1, out)


def run(module, case):
    x = case["inputs"]
    kind, out = case["kind"], {}
    if kind == "embed":
        _send("emb", module.embed_batch(x["C"], x["X"]), 3, out)
    elif kind == "flatten":
        _send("x", module.flatten_batch(x["emb"]), 2, out)
    elif kind == "linear":
        _send("out", module.batch_linear(x["x"], x["W"], x["b"]), 2, out)
    else:
        out["loss"] = float(module.batch_loss(x["logits"], x["Y"]))
    return out

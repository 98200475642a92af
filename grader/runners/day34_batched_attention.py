"""Child side of day 34: call causal_mask and attention_weights, masked_attention or
split_heads on nested lists of floats and send the results' lengths and numbers; for a
width that does not split into the heads, whether split_heads raised ValueError."""

from .refusal import refusal


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
    if kind == "weights":
        _send("mask", module.causal_mask(len(x["Q"])), 2, out)
        _send("weights", module.attention_weights(x["Q"], x["K"]), 2, out)
    elif kind == "attend":
        _send("out", module.masked_attention(x["Q"], x["K"], x["V"]), 2, out)
    elif kind == "split":
        _send("heads", module.split_heads(x["X"], x["n_head"]), 3, out)
    else:
        call = lambda: module.split_heads(x["X"], x["n_head"])  # noqa: E731
        return refusal(call, run, module, x.get("then"))
    return out

"""Child side of day 34: call causal_mask and attention_weights, masked_attention or
split_heads on nested lists of floats and send the results' lengths and numbers; for a
width that does not split into the heads, whether split_heads raised ValueError."""

from .lists import flatten_nested
from .refusal import refusal


def run(module, case):
    x = case["inputs"]
    kind, out = case["kind"], {}
    if kind == "weights":
        flatten_nested("mask", module.causal_mask(len(x["Q"])), 2, out)
        flatten_nested("weights", module.attention_weights(x["Q"], x["K"]), 2, out)
    elif kind == "attend":
        flatten_nested("out", module.masked_attention(x["Q"], x["K"], x["V"]), 2, out)
    elif kind == "split":
        flatten_nested("heads", module.split_heads(x["X"], x["n_head"]), 3, out)
    else:
        call = lambda: module.split_heads(x["X"], x["n_head"])  # noqa: E731
        return refusal(call, run, module, x.get("then"))
    return out

"""Child side of day 40: call top_k_filter, top_p_filter and next_token (once per scripted
u); send the filtered probabilities and the drawn tokens back."""

from .lists import flatten_ints


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "topk":
        q = module.top_k_filter(list(inputs["probs"]), inputs["k"])
    elif kind == "topp":
        q = module.top_p_filter(list(inputs["probs"]), inputs["p"])
    else:
        tokens = [
            module.next_token(list(inputs["z"]), inputs["T"], inputs["top_k"], inputs["top_p"], u)
            for u in inputs["us"]
        ]
        return flatten_ints("tokens", tokens)
    return {"len(q)": len(q), **{f"q[{i}]": x for i, x in enumerate(q)}}

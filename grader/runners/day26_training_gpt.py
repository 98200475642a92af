"""Child side of day 26: call lr_at, adam_step (on engine Values) and train_step (on a
small microGPT from engine.gpt); send the rate, the parameters and moments, the losses
and a few weights back.
"""

SMALL = {"vocab_size": 5, "n_embd": 4, "n_head": 2, "n_layer": 1, "block_size": 6}


def picked(model):
    """A few weights spread over the model, enough to see whether each update was right."""
    p = model.parameters()
    return [p[i] for i in range(0, len(p), max(1, len(p) // 12))]


def run(module, case):
    inputs = case["inputs"]
    if case["kind"] == "lr":
        return {"lr": module.lr_at(inputs["step"], inputs["steps"], inputs["lr"])}
    if case["kind"] == "adam":
        from engine import Value

        params = [Value(x) for x in inputs["data"]]
        m, v = [0.0] * len(params), [0.0] * len(params)
        for step, grads in enumerate(inputs["grads"]):
            for p, g in zip(params, grads):
                p.grad = g
            module.adam_step(params, m, v, step, inputs["lr"], inputs["beta1"], inputs["beta2"])
        result = {f"p[{i}].data": p.data for i, p in enumerate(params)}
        result.update({f"m[{i}]": x for i, x in enumerate(m)})
        result.update({f"v[{i}]": x for i, x in enumerate(v)})
        return result
    from engine.gpt import GPTConfig, init_gpt, make_optimizer

    model = init_gpt(GPTConfig(**SMALL), seed=inputs["seed"])
    optimizer = make_optimizer(model, lr=inputs["lr"])
    result = {}
    for step, tokens in enumerate(inputs["names"]):
        loss = module.train_step(
            model, optimizer, list(tokens), step, inputs["steps"], inputs["lr"]
        )
        result[f"loss[{step}]"] = loss
    result.update({f"weight[{i}]": p.data for i, p in enumerate(picked(model))})
    return result

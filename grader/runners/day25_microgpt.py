"""Child side of day 25: build engine.gpt's GPT from the case's weights, call gpt at every
position and name_loss; send the logits, the cache's length, the loss and a few gradients.
"""


def run(module, case):
    from engine import Value
    from engine.gpt import GPT, GPTConfig, new_kv_cache

    inputs = case["inputs"]
    config = GPTConfig(**inputs["config"])
    params = {k: [[Value(x) for x in row] for row in m] for k, m in inputs["params"].items()}
    model = GPT(config, params)
    tokens = inputs["tokens"]
    result = {}
    keys, values = new_kv_cache(config)
    for pos in range(len(tokens) - 1):
        logits = module.gpt(model, tokens[pos], pos, keys, values)
        result[f"position {pos}: number of logits"] = float(len(logits))
        for j, z in enumerate(logits):
            result[f"position {pos}: logit {j}"] = z.data
    result["keys cached"] = float(len(keys[0]))
    loss = module.name_loss(model, tokens)
    result["loss"] = loss.data
    loss.backward()
    for name, r, c in inputs["probes"]:
        result[f"{name}[{r}][{c}].grad"] = params[name][r][c].grad
    return result

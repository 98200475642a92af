"""Child side of day 41: call parameter_count, tokens_per_step and training_flops on the
case's sizes; send the three numbers back.
"""


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "params":
        n = module.parameter_count(
            inputs["vocab_size"],
            inputs["block_size"],
            inputs["n_layer"],
            inputs["n_embd"],
            bias=inputs["bias"],
            tied=inputs["tied"],
            count_positions=inputs["count_positions"],
        )
        return {"parameters": n}
    if kind == "tokens":
        n = module.tokens_per_step(
            inputs["batch_size"], inputs["block_size"], inputs["accumulation"], inputs["gpus"]
        )
        return {"tokens": n}
    return {"flops": module.training_flops(inputs["n_params"], inputs["tokens"], inputs["steps"])}

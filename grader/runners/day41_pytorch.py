"""Child side of day 41: call parameter_count, micro_batches and training_days on the
case's inputs; send the number back.
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
    if kind == "micro":
        n = module.micro_batches(
            inputs["target"], inputs["batch_size"], inputs["block_size"], inputs["gpus"]
        )
        return {"micro-batches": n}
    days = module.training_days(
        inputs["flops"], inputs["gpus"], inputs["peak"], inputs["utilisation"]
    )
    return {"days": days}

"""Child side of day 28: call logits_without_cache or logits_with_cache on a GPT built
from the case's weights, counting the calls of `gpt` through the name the learner's
module imported; send the number of positions, the calls and every logit back.
"""


def run(module, case):
    from engine import Value
    from engine.gpt import GPT, GPTConfig
    from engine.gpt import gpt as engine_gpt

    inputs = case["inputs"]
    model = GPT(
        GPTConfig(**inputs["config"]),
        {k: [[Value(x) for x in row] for row in m] for k, m in inputs["params"].items()},
    )
    calls = [0]

    def counted(*args, **kwargs):
        calls[0] += 1
        return engine_gpt(*args, **kwargs)

    module.gpt = counted
    try:
        fn = module.logits_without_cache if case["kind"] == "without" else module.logits_with_cache
        out = fn(model, inputs["tokens"])
    finally:
        module.gpt = engine_gpt
    result = {"positions returned": float(len(out)), "calls of gpt": float(calls[0])}
    for pos, row in enumerate(out):
        for j, z in enumerate(row):
            result[f"position {pos}: logit {j}"] = z.data
    return result

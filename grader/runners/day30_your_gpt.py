"""Child side of day 30: call perplexity and bits_per_character on the case's loss, or
held_out_loss on a GPT built from the case's weights; send the numbers back.
"""


def run(module, case):
    inputs = case["inputs"]
    if case["kind"] == "measures":
        loss = inputs["loss"]
        return {
            "perplexity": module.perplexity(loss),
            "bits per character": module.bits_per_character(loss),
        }
    from engine import Value
    from engine.gpt import GPT, GPTConfig

    model = GPT(
        GPTConfig(**inputs["config"]),
        {k: [[Value(x) for x in row] for row in m] for k, m in inputs["params"].items()},
    )
    return {"held-out loss": module.held_out_loss(model, inputs["docs"])}

"""Child side of day 7: call gradient_by_roads and challenge_gradients; run zero_grad
between backward passes of the engine's Value and send the gradients before and after.
"""


def run(module, case):
    inp = case["inputs"]
    if case["kind"] == "roads":
        return {"gradient": module.gradient_by_roads([list(r) for r in inp["roads"]])}
    if case["kind"] == "challenge":
        da, db, dc = module.challenge_gradients(inp["a"], inp["b"], inp["c"])
        return {"dL/da": da, "dL/db": db, "dL/dc": dc}
    from engine import Value

    a, b = Value(inp["a"]), Value(inp["b"])
    d = a * b + a
    d.backward()
    d.backward()
    module.zero_grad([a, b])
    after_zero = a.grad + 0.0, b.grad + 0.0
    d.backward()
    return {
        "a.grad after zero_grad": after_zero[0],
        "b.grad after zero_grad": after_zero[1],
        "a.grad after one more backward": a.grad,
        "b.grad after one more backward": b.grad,
    }

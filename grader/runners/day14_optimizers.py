"""Child side of day 14: take steps of the learner's sgd_momentum_step or adam_step on
sum((i + 1) * w[i] ** 2); send the parameters and the optimizer state.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    params = [Value(v) for v in inputs["w"]]
    state = [[0.0] * len(params) for _ in range(2)]
    for t in range(1, inputs["steps"] + 1):
        for p in params:
            p.grad = 0.0
        loss = sum(((i + 1) * p * p for i, p in enumerate(params)), Value(0.0))
        loss.backward()
        if case["kind"] == "momentum":
            module.sgd_momentum_step(params, state[0], inputs["lr"], inputs["mu"])
        else:
            module.adam_step(params, state[0], state[1], t, lr=inputs["lr"])
    values = {}
    for i, p in enumerate(params):
        values[f"w[{i}]"] = p.data
        values[f"{'velocity' if case['kind'] == 'momentum' else 'm'}[{i}]"] = float(state[0][i])
        if case["kind"] == "adam":
            values[f"v[{i}]"] = float(state[1][i])
    return values

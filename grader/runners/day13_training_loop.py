"""Child side of day 13: call zero_grad, and training_step on a given linear Neuron.

Sends every .grad and .data after zero_grad; each step's returned loss and the final
parameters after training.
"""


def run(module, case):
    from engine import Value
    from engine.nn import Neuron

    inputs = case["inputs"]
    if case["kind"] == "zero_grad":
        params = []
        for i, g in enumerate(inputs["grads"]):
            p = Value(float(i))
            p.grad = g
            params.append(p)
        module.zero_grad(params)
        values = {f"p{i}.grad": p.grad for i, p in enumerate(params)}
        values.update({f"p{i}.data": p.data for i, p in enumerate(params)})
        return values
    model = Neuron(len(inputs["w"]), nonlin=False)
    for p, value in zip(model.parameters(), inputs["w"] + [inputs["b"]]):
        p.data = value
    values = {}
    for step in range(inputs["steps"]):
        loss = module.training_step(model, inputs["xs"], inputs["ys"], inputs["lr"])
        values[f"loss of step {step + 1}"] = loss
    for i, p in enumerate(model.parameters()):
        values[_name(i, len(inputs["w"]))] = p.data
    return values


def _name(i, n_weights):
    return f"w{i}" if i < n_weights else "b"

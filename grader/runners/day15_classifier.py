"""Child side of day 15: call accuracy on Values and on floats, and one train_step of a
linear Neuron with SGD (stale gradients planted first); send the loss, accuracy and weights.
"""


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    if case["kind"] == "accuracy":
        as_values = module.accuracy([Value(s) for s in inputs["scores"]], list(inputs["labels"]))
        as_floats = module.accuracy(list(inputs["scores"]), list(inputs["labels"]))
        return {"accuracy of Values": as_values, "accuracy of floats": as_floats}
    from engine.nn import Neuron
    from engine.optim import SGD

    model = Neuron(2, nonlin=False)
    model.w[0].data, model.w[1].data = inputs["w"]
    model.b.data = inputs["b"]
    for p in model.parameters():
        p.grad = inputs["stale"]
    loss, acc = module.train_step(
        model, SGD(model.parameters(), lr=inputs["lr"]), inputs["points"], inputs["labels"]
    )
    return {
        "loss": loss,
        "accuracy": acc,
        "w[0]": model.w[0].data,
        "w[1]": model.w[1].data,
        "b": model.b.data,
    }

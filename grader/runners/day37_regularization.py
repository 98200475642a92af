"""Child side of day 37: call adamw_step for a few steps on lists, dropout_forward with a
scripted stand-in for random.Random (a hidden evaluation-mode case then a training
call, `then`), and dropout_backward; send the lists back.
"""


class Script:
    """A stand-in for random.Random whose random() returns the case's numbers in order."""

    def __init__(self, us):
        self.us, self.calls = list(us), 0

    def random(self):
        if self.calls >= len(self.us):
            raise RuntimeError("rng.random() was called more often than there are numbers")
        self.calls += 1
        return self.us[self.calls - 1]


def _listed(name, items):
    items = list(items)
    return {f"len({name})": len(items), **{f"{name}[{i}]": x for i, x in enumerate(items)}}


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "adamw":
        params = list(inputs["params"])
        m, v = [0.0] * len(params), [0.0] * len(params)
        for t, grads in enumerate(inputs["grads"], start=1):
            module.adamw_step(
                params,
                list(grads),
                m,
                v,
                t,
                inputs["lr"],
                inputs["weight_decay"],
                inputs["beta1"],
                inputs["beta2"],
            )
        return {**_listed("m", m), **_listed("v", v), **_listed("params", params)}
    if kind == "backward":
        return _listed("dx", module.dropout_backward(list(inputs["grads"]), list(inputs["mask"])))
    rng = Script(inputs["us"])
    out, mask = module.dropout_forward(list(inputs["xs"]), inputs["p"], rng, inputs["training"])
    values = {"calls": rng.calls, **_listed("mask", mask), **_listed("out", out)}
    if inputs.get("then") is not None:  # a training call in the same child: trusted side judges
        values.update({f"then: {k}": v for k, v in run(module, inputs["then"]).items()})
    return values

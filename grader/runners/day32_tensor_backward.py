"""Child side of day 32: call unbroadcast, sum_axis_backward and matmul_backward on flat
lists; send the gradients back as numbers.
"""


def _flat(name, data):
    data = list(data)
    return {f"len({name})": len(data), **{f"{name}[{i}]": x for i, x in enumerate(data)}}


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    grad = list(inputs["grad"])
    if kind == "unbroadcast":
        shapes = tuple(inputs["grad_shape"]), tuple(inputs["shape"])
        return _flat("dx", module.unbroadcast(grad, *shapes))
    if kind == "sum":
        shape = tuple(inputs["shape"])
        return _flat("dx", module.sum_axis_backward(grad, shape, inputs["axis"], inputs["mean"]))
    n, k, m = inputs["n"], inputs["k"], inputs["m"]
    da, db = module.matmul_backward(list(inputs["a"]), list(inputs["b"]), grad, n, k, m)
    return {**_flat("dA", da), **_flat("dB", db)}

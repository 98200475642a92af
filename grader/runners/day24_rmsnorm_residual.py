"""Child side of day 24: call rmsnorm, or residual around a small tanh block, on Values;
send the outputs and the gradients of sum_i w_i out_i with respect to x.
"""


def block(x, a, b):
    """The block f of the residual cases: f(x)_i = tanh(a_i x_i + b x_(i+1)), wrapping around."""
    n = len(x)
    return [(x[i] * a[i] + x[(i + 1) % n] * b).tanh() for i in range(n)]


def run(module, case):
    from engine import Value

    inputs = case["inputs"]
    x = [Value(v) for v in inputs["x"]]
    if case["kind"] == "rmsnorm":
        out = module.rmsnorm(x, eps=inputs["eps"])
    else:
        out = module.residual(x, lambda v: block(v, inputs["a"], inputs["b"]))
    result = {"len(out)": float(len(out))}
    result.update({f"out[{i}]": o.data for i, o in enumerate(out)})
    loss = sum((w * o for w, o in zip(inputs["w"], out)), Value(0.0))
    loss.backward()
    result.update({f"x[{i}].grad": v.grad for i, v in enumerate(x)})
    return result

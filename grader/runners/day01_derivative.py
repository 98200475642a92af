"""Child side of day 1: call forward_difference, central_difference and partial_derivative.

Sends each estimated slope, and the inputs list as it is after the calls.
"""

import math


def _p(k, x):
    """The cubic k3 x^3 + k2 x^2 + k1 x + k0 that the learner's code differentiates."""
    return ((k[0] * x + k[1]) * x + k[2]) * x + k[3]


def run(module, case):
    kind, inputs = case["kind"], case["inputs"]
    if kind in ("forward", "central"):
        k = inputs["k"]
        fn = module.forward_difference if kind == "forward" else module.central_difference
        return {"slope": fn(lambda t: _p(k, t), inputs["x"], inputs["h"])}
    if kind == "exp":
        return {"slope": module.central_difference(math.exp, inputs["x"], inputs["h"])}
    if kind == "default_h":
        return {"slope": module.central_difference(math.sin, inputs["x"])}
    point = list(inputs["point"])
    given = list(point)
    values = {}
    for i, name in enumerate("abc"):
        values[f"d/d{name}"] = module.partial_derivative(lambda a, b, c: a * b + c, given, i)
    for i, x in enumerate(given):
        values[f"inputs[{i}] afterwards"] = x
    return values

"""Child side of day 2: build (f, df) links from their names, call chain_derivative and
sensitivities, and send the output, the derivative and each sensitivity back.
"""

import math


def link(spec):
    """(f, df) of one link: ["square"], ["affine", m, c], ["tanh"], ["exp"], ["sin"], ["cube"].

    The links are the case's inputs, handed to the learner's code; the trusted side reads
    the same table to know the chain (grader/checks/day02_chain_rule.py)."""
    name = spec[0]
    if name == "square":
        return (lambda v: v * v), (lambda v: 2.0 * v)
    if name == "cube":
        return (lambda v: v * v * v), (lambda v: 3.0 * v * v)
    if name == "affine":
        m, c = spec[1], spec[2]
        return (lambda v: m * v + c), (lambda v: m)
    if name == "tanh":
        return math.tanh, (lambda v: 1.0 - math.tanh(v) ** 2)
    if name == "exp":
        return math.exp, math.exp
    if name == "sin":
        return math.sin, math.cos
    raise ValueError(f"unknown link {name!r}")


def run(module, case):
    links = [link(s) for s in case["inputs"]["links"]]
    x = case["inputs"]["x"]
    if case["kind"] == "forward":
        value, slope = module.chain_derivative(links, x)
        return {"output": value, "derivative": slope}
    result = list(module.sensitivities(links, x))
    values = {"length": float(len(result))}
    for k, s in enumerate(result):
        values[f"sensitivity[{k}]"] = s
    return values

"""Child side of day 38: call saturation, std and update_ratio on the case's lists; send
the three numbers back.
"""


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "saturation":
        return {"saturation": module.saturation(list(inputs["hs"]), inputs["threshold"])}
    if kind == "std":
        return {"std": module.std(list(inputs["xs"]))}
    return {"ratio": module.update_ratio(list(inputs["before"]), list(inputs["after"]))}

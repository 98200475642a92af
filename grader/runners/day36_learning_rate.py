"""Child side of day 36: call warmup_cosine at a few steps, range_test_rates and
range_test_pick; send the rates back (and whether no divergence was found)."""


def run(module, case):
    x = case["inputs"]
    if case["kind"] == "schedule":
        return {
            f"lr at step {s}": module.warmup_cosine(
                s, x["warmup"], x["steps"], x["lr_max"], x["lr_min"]
            )
            for s in x["at"]
        }
    if case["kind"] == "rates":
        rates = list(module.range_test_rates(x["lr_start"], x["lr_end"], x["n"]))
        out = {"len(rates)": len(rates)}
        out.update({f"rates[{i}]": r for i, r in enumerate(rates[: x["n"] + 16])})
        return out
    lowest, diverged = module.range_test_pick(list(x["rates"]), list(x["losses"]), x["k"])
    out = {"lowest": lowest}
    if diverged is None:
        out["diverged is None"] = 1
    else:
        out["diverged"] = diverged
    return out

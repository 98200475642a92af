"""Child side of day 35: call three_way_split (twice, and keep the list it was given) and
early_stopping; send the three lists, the list afterwards and the two indices back."""

from .lists import flatten_ints


def run(module, case):
    x = case["inputs"]
    if case["kind"] == "split":
        items = list(x["items"])
        train, dev, test = module.three_way_split(items, x["n_dev"], x["n_test"], x["seed"])
        out = {}
        out.update(flatten_ints("train", list(train)))
        out.update(flatten_ints("dev", list(dev)))
        out.update(flatten_ints("test", list(test)))
        out.update(flatten_ints("items afterwards", items))
        again = module.three_way_split(list(x["items"]), x["n_dev"], x["n_test"], x["seed"])
        out.update(flatten_ints("train, second call", list(again[0])))
        return out
    best, stop = module.early_stopping(list(x["losses"]), x["patience"])
    return {"best": best, "stop": stop}

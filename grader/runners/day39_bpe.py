"""Child side of day 39: call pair_counts, merge, train, encode and decode; send the
counts, ids, merges and text back as lists of whole numbers.
"""

from .lists import flatten_ints, flatten_text


def _pairs(merges):
    return [tuple(pair) for pair in merges]


def run(module, case):
    x, kind = case["inputs"], case["kind"]
    if kind == "counts":
        counts = module.pair_counts([list(ids) for ids in x["sequences"]])
        if not hasattr(counts, "items"):
            raise TypeError(
                f"pair_counts returned a {type(counts).__name__}: return a dict {{(a, b): count}}"
            )
        flat = []
        for pair, count in counts.items():
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"the key {pair!r} is not a pair: use the tuple (a, b) as key")
            flat += [pair[0], pair[1], count]
        return flatten_ints("counts", flat)
    if kind == "merge":
        return flatten_ints("ids", module.merge(list(x["ids"]), tuple(x["pair"]), x["new_id"]))
    if kind == "train":
        merges = module.train([list(ids) for ids in x["sequences"]], x["first_id"], x["num_merges"])
        flat = []
        for i, pair in enumerate(merges):
            if len(pair) != 2:
                raise TypeError(f"train()[{i}] is {pair!r}: each merge is a pair (a, b)")
            flat += list(pair)
        return flatten_ints("merges", flat)
    if kind == "encode":
        return flatten_ints("ids", module.encode(x["word"], x["chars"], _pairs(x["merges"])))
    return flatten_text("text", module.decode(list(x["ids"]), x["chars"], _pairs(x["merges"])))

"""Child side of day 17: call count_bigrams, probabilities and draw; send the counts and the
drawn index as lists of whole numbers, the probabilities as numbers.
"""

from .lists import flatten_ints


def run(module, case):
    x = case["inputs"]
    kind = case["kind"]
    if kind == "count":
        V = x["V"]
        N = module.count_bigrams([list(s) for s in x["sequences"]], V)
        if len(N) != V or any(len(row) != V for row in N):
            raise ValueError(f"the table must be {V} rows of {V} counts")
        return flatten_ints("N", [n for row in N for n in row])
    if kind == "probs":
        counts = [list(row) for row in x["counts"]]
        P = module.probabilities(counts, x["alpha"])
        V = len(counts)
        if len(P) != V or any(len(row) != V for row in P):
            raise ValueError(f"the probabilities must be {V} rows of {V} numbers")
        return {f"P[{a}][{b}]": P[a][b] for a in range(V) for b in range(V)}
    return flatten_ints("index", [module.draw(list(x["row"]), x["u"])])

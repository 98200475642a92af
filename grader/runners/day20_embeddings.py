"""Child side of day 20: call one_hot on each (token, V) of the case, or embed / embed_one_hot / embed_sequence on a table of
Values and backward through sum_t w_t . e_t; send the vectors and the table's gradients.
"""


def run(module, case):
    x = case["inputs"]
    if case["kind"] == "one_hot":
        out = {}
        for token, V in x["queries"]:
            name = f"one_hot({token}, {V})"
            hot = list(module.one_hot(token, V))
            out[f"len({name})"] = len(hot)
            out.update({f"{name}[{i}]": h for i, h in enumerate(hot)})
        return out

    from engine import Value

    table = [[Value(v) for v in row] for row in x["table"]]
    tokens = x["tokens"]
    if case["kind"] == "sequence":
        rows = list(module.embed_sequence(table, list(tokens)))
    elif case["kind"] == "embed":
        rows = [module.embed(table, tokens[0])]
    else:
        rows = [module.embed_one_hot(table, tokens[0])]
    out = {"len(embeddings)": len(rows)}
    loss = Value(0.0)
    for t, (row, w) in enumerate(zip(rows, x["w"])):
        row = list(row)
        out[f"len(e[{t}])"] = len(row)
        for k, (v, wk) in enumerate(zip(row, w)):
            out[f"e[{t}][{k}]"] = v.data
            loss = loss + v * wk
    loss.backward()
    for i, row in enumerate(table):
        for k, v in enumerate(row):
            out[f"C[{i}][{k}].grad"] = v.grad
    return out

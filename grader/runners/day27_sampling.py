"""Child side of day 27: call probabilities, draw, next_token and sample_tokens (with a
scripted stand-in for random.Random); send the probabilities, indices and name back.
"""


class Script:
    """A stand-in for random.Random whose random() returns the case's numbers in order."""

    def __init__(self, us):
        self.us, self.calls = list(us), 0

    def random(self):
        if self.calls >= len(self.us):
            raise RuntimeError("rng.random() was called more often than tokens were drawn")
        self.calls += 1
        return self.us[self.calls - 1]


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "probs":
        p = module.probabilities(list(inputs["z"]), inputs["T"])
        return {"len(p)": len(p), **{f"p[{i}]": x for i, x in enumerate(p)}}
    if kind == "draw":
        return {"index": module.draw(list(inputs["probs"]), inputs["u"])}
    if kind == "next":
        return {"token": module.next_token(list(inputs["z"]), inputs["T"], inputs["u"])}
    table, shift = inputs["table"], inputs["shift"]

    def next_logits(token, pos):
        return [a + b for a, b in zip(table[token], shift[pos])]

    ids = module.sample_tokens(
        next_logits, inputs["bos"], inputs["block_size"], inputs["T"], Script(inputs["us"])
    )
    return {"len(name)": len(ids), **{f"name[{i}]": t for i, t in enumerate(ids)}}

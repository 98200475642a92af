"""Send a list of whole numbers, or a string, back as plain numbers.

`flatten_ints("ids", [26, 4])` gives {"len(ids)": 2, "ids[0]": 26, "ids[1]": 4}; a
string goes as its character codes; a list of objects goes as where each stands in a
known list (`positions`). The trusted side judges the rebuilt list whole
(grader/verdict.py, `WantList`, `WantOrder`).
"""

__all__ = ["flatten_ints", "flatten_text", "positions"]


def flatten_ints(name, items):
    """{len(name): n, name[i]: item} for a list of ints (bools and floats are refused)."""
    items = list(items)
    out = {f"len({name})": len(items)}
    for i, item in enumerate(items):
        if type(item) is not int:
            raise TypeError(
                f"{name}[{i}] is {item!r} of type {type(item).__name__}: return whole numbers (int)"
            )
        out[f"{name}[{i}]"] = item
    return out


def flatten_text(name, text):
    """A string (or a list of one-character strings) as its character codes."""
    if isinstance(text, (list, tuple)) and all(isinstance(c, str) and len(c) == 1 for c in text):
        text = "".join(text)
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string, got {type(text).__name__}")
    return flatten_ints(name, [ord(c) for c in text])


def positions(items, known):
    """Where each of `items` stands in `known`, by identity; -1 for one not in it."""
    index = {}
    for i, v in enumerate(known):
        if v is not None:
            index.setdefault(id(v), i)
    return [index.get(id(v), -1) for v in items]

"""Send a list of whole numbers, or a string, back as plain numbers.

`flatten_ints("ids", [26, 4])` gives {"len(ids)": 2, "ids[0]": 26, "ids[1]": 4}; a
string goes as its character codes; a list of objects goes as where each stands in a
known list (`positions`), packed four to a number (`pack_positions`). The trusted side judges the rebuilt list whole
(grader/verdict.py, `WantList`, `WantOrder`).
"""

__all__ = [
    "flatten_ints",
    "flatten_nested",
    "flatten_text",
    "positions",
    "pack_positions",
    "PACK_BITS",
    "PACK_WIDTH",
    "PACK_MOST",
]

# A long list of positions goes four to a number, 13 bits each (exact in a float's 53):
# a graph of up to 8,190 nodes in a quarter of the keys a result line may hold.
PACK_BITS, PACK_WIDTH = 13, 4
PACK_MOST = 1900  # positions sent at most: 475 numbers, within a result line's 500 keys


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


def flatten_nested(name, nested, depth, out):
    """Put nested lists `depth` levels deep into `out` as plain numbers:
    {"len(name)": n, "name[0]": ..., "len(name[0])": ...}; numbers go as floats."""
    if depth == 0:
        out[name] = float(nested)
        return
    items = list(nested)
    out[f"len({name})"] = float(len(items))
    for i, item in enumerate(items):
        flatten_nested(f"{name}[{i}]", item, depth - 1, out)


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


def pack_positions(name, items, longest):
    """{len(name): n, "name packed[k]": ...}: items in [-1, 8190], each + 1 in 13 bits,
    four to a number; past `longest` (or PACK_MOST) items only the length goes."""
    items = list(items)
    out = {f"len({name})": len(items)}
    if len(items) > min(longest, PACK_MOST):
        return out
    top = (1 << PACK_BITS) - 1
    for k in range(0, len(items), PACK_WIDTH):
        number = 0
        for j, item in enumerate(items[k : k + PACK_WIDTH]):
            slot = item + 1 if type(item) is int and 0 <= item + 1 <= top else 0
            number |= slot << (PACK_BITS * j)
        out[f"{name} packed[{k // PACK_WIDTH}]"] = number
    return out

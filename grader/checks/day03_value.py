"""Checks of exercises/day03_value.py: a Value that records its children and operation.

The child reports plain numbers only: values, 1.0/0.0 flags for "the children are the
very operands" and "the op is right", and the text of `expression(v)` as character
codes, which the judge turns back into text and compares with the formula it builds
from the case itself.
"""

from ._kit import EXACT, Want, case, fmt
from ._kit import judge as judge_wants

EXERCISE = "day03_value.py"
TITLE = "Day 3: a Value that remembers"
LESSON = "docs/lessons/day03_value.md"
NEEDS_ENGINE = False

MAX_CHARS = 400


def public_cases():
    return [
        case("binary", "a + b records (a, b) and '+'", op="+", a=2.0, b=-3.0),
        case("binary", "a * b records (a, b) and '*'", op="*", a=2.0, b=-3.0),
        case("numbers", "a + 2, a * 2, 2 + a and 2 * a wrap the number in a Value", a=1.5, n=2.0),
        case("chain", "d = a*b + c, L = d*f: the lesson's graph", a=2.0, b=-3.0, c=10.0, f=-2.0),
        case(
            "expression",
            "expression of a * b + c",
            leaves=[["a", 2.0], ["b", -3.0], ["c", 10.0]],
            ops=[["*", 0, 1], ["+", 3, 2]],
        ),
        case(
            "expression",
            "expression with a reused leaf and a number: (a * a) + 0.5",
            leaves=[["a", 2.0]],
            ops=[["*", 0, 0], ["+n", 1, 0.5]],
        ),
        case("expression", "expression of a leaf without a label", leaves=[["", 4.0]], ops=[]),
    ]


def hidden_cases(rng):
    def num():
        return round(rng.uniform(-5, 5), 2) or 1.0

    leaves = [[n, num()] for n in "xyz"]
    ops = []
    for k in range(5):
        size = len(leaves) + k
        if rng.random() < 0.2:
            ops.append([rng.choice(["+n", "*n"]), rng.randrange(size), num()])
        else:
            ops.append([rng.choice("+*"), rng.randrange(size), rng.randrange(size)])
    return [
        case("binary", "random operands", public=False, op=rng.choice("+*"), a=num(), b=num()),
        case("expression", "expression of a random graph", public=False, leaves=leaves, ops=ops),
    ]


# -- child side ------------------------------------------------------------------------


def _flag(condition):
    return 1.0 if condition else 0.0


def run(module, case):
    V, kind, inp = module.Value, case["kind"], case["inputs"]
    if kind == "binary":
        a, b = V(inp["a"]), V(inp["b"])
        out = a + b if inp["op"] == "+" else a * b
        prev = tuple(out._prev)
        return {
            "data": out.data,
            "op is right": _flag(out._op == inp["op"]),
            "children are (a, b)": _flag(len(prev) == 2 and prev[0] is a and prev[1] is b),
        }
    if kind == "numbers":
        values = {}
        for text in ("a + n", "a * n", "n + a", "n * a"):
            a = V(inp["a"])
            n = inp["n"]
            if text == "a + n":
                out = a + n
            elif text == "a * n":
                out = a * n
            elif text == "n + a":
                out = n + a
            else:
                out = n * a
            prev = tuple(out._prev)
            wrapped = [p for p in prev if p is not a]
            values[f"{text}: data"] = out.data
            values[f"{text}: a is a child"] = _flag(any(p is a for p in prev))
            values[f"{text}: the number is a Value child"] = _flag(
                len(prev) == 2
                and len(wrapped) == 1
                and isinstance(wrapped[0], V)
                and wrapped[0].data == n
            )
        return values
    if kind == "chain":
        a, b, c, f = (V(inp[k]) for k in "abcf")
        e = a * b
        d = e + c
        L = d * f
        return {
            "e.data": e.data,
            "d.data": d.data,
            "L.data": L.data,
            "L is made of (d, f) by *": _flag(L._op == "*" and tuple(L._prev) == (d, f)),
            "d is made of (e, c) by +": _flag(d._op == "+" and tuple(d._prev) == (e, c)),
            "e is made of (a, b) by *": _flag(e._op == "*" and tuple(e._prev) == (a, b)),
        }
    nodes = [V(x, label=name) for name, x in inp["leaves"]]
    for op in inp["ops"]:
        x = nodes[op[1]]
        if op[0] == "+":
            y = x + nodes[op[2]]
        elif op[0] == "*":
            y = x * nodes[op[2]]
        elif op[0] == "+n":
            y = x + op[2]
        else:
            y = x * op[2]
        nodes.append(y)
    text = module.expression(nodes[-1])
    if not isinstance(text, str):
        return {"expression is text": 0.0}
    codes = {"expression is text": 1.0, "length": float(len(text))}
    for i, ch in enumerate(text[:MAX_CHARS]):
        codes[f"char {i}"] = float(ord(ch))
    return codes


# -- trusted side ----------------------------------------------------------------------


def _formula(leaves, ops):
    texts = [name or f"{x:g}" for name, x in leaves]
    for op in ops:
        left = texts[op[1]]
        if op[0] in ("+", "*"):
            texts.append(f"({left} {op[0]} {texts[op[2]]})")
        else:
            texts.append(f"({left} {op[0][0]} {op[2]:g})")
    return texts[-1]


def judge(case, values):
    kind, inp = case["kind"], case["inputs"]
    data_note = "store the child Values themselves in _prev, not their numbers"
    if kind == "binary":
        a, b, op = inp["a"], inp["b"], inp["op"]
        setup = f"a = {a}, b = {b}, out = a {op} b"
        return judge_wants(
            [
                Want("data", a + b if op == "+" else a * b, EXACT, setup),
                Want("op is right", 1.0, EXACT, setup, [(0.0, f'_op must be the string "{op}"')]),
                Want(
                    "children are (a, b)",
                    1.0,
                    EXACT,
                    setup,
                    [
                        (
                            0.0,
                            f"_prev must be the tuple (self, other), the operands themselves: {data_note}",
                        )
                    ],
                ),
            ],
            values,
        )
    if kind == "numbers":
        a, n = inp["a"], inp["n"]
        wants = []
        for text in ("a + n", "a * n", "n + a", "n * a"):
            setup = f"a = Value({a}), n = {n}, out = {text}"
            wants += [
                Want(f"{text}: data", a + n if "+" in text else a * n, EXACT, setup),
                Want(
                    f"{text}: a is a child",
                    1.0,
                    EXACT,
                    setup,
                    [(0.0, "a must be one of out._prev")],
                ),
                Want(
                    f"{text}: the number is a Value child",
                    1.0,
                    EXACT,
                    setup,
                    [(0.0, "wrap the plain number in a Value and keep it in _prev next to a")],
                ),
            ]
        return judge_wants(wants, values)
    if kind == "chain":
        a, b, c, f = (inp[k] for k in "abcf")
        setup = f"a = {a}, b = {b}, c = {c}, f = {f}; e = a*b, d = e + c, L = d*f"
        e = a * b
        d = e + c
        wants = [
            Want("e.data", e, EXACT, setup),
            Want("d.data", d, EXACT, setup),
            Want("L.data", d * f, EXACT, setup),
        ]
        wants += [
            Want(
                k,
                1.0,
                EXACT,
                setup,
                [(0.0, f"{k.split(' ')[0]}._prev and ._op are wrong: {data_note}")],
            )
            for k in (
                "L is made of (d, f) by *",
                "d is made of (e, c) by +",
                "e is made of (a, b) by *",
            )
        ]
        return judge_wants(wants, values)
    expected = _formula(inp["leaves"], inp["ops"])
    if values.get("expression is text") != 1.0:
        return False, 'expression(v) must return a str, such as "((a * b) + c)".'
    length = int(values.get("length", -1))
    received = "".join(chr(int(values.get(f"char {i}", 63))) for i in range(min(length, MAX_CHARS)))
    if received == expected:
        return True, "passed"
    leaves = ", ".join(f"{n or 'unlabelled'} = {fmt(x)}" for n, x in inp["leaves"])
    message = f"expression gave {received[:120]!r}, expected {expected[:120]!r} ({leaves})"
    if received.replace("(", "").replace(")", "") == expected.replace("(", "").replace(")", ""):
        message += ": wrap every operation, the outermost included, in one pair of parentheses"
    elif received.replace(" ", "") == expected.replace(" ", ""):
        message += ": put one space on each side of the operation"
    return False, message + "."

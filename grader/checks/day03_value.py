"""Checks of exercises/day03_value.py: a Value that records its children and operation.

The child reports plain numbers only: values, 1.0/0.0 flags for "the children are the
very operands" and "the op is right", and the text of `expression(v)` as character
codes, which the judge turns back into text and compares with the formula it builds
from the case itself.
"""

from grader.verdict import EXACT, Expectation, Pattern, Want, WantList, fmt

from .cases import case

EXERCISE = "day03_value.py"
TITLE = "Day 3: a Value that remembers"
LESSON = "docs/lessons/day03_value.md"
NEEDS_ENGINE = False
ENGINE = {}
ENGINE_BY_KIND = {}


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
            ops=[["*", 0, 0], ["+c", 1, 0.5]],
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
            ops.append([rng.choice(["+c", "*c"]), rng.randrange(size), num()])
        else:
            ops.append([rng.choice("+*"), rng.randrange(size), rng.randrange(size)])
    return [
        case("binary", "random operands", public=False, op=rng.choice("+*"), a=num(), b=num()),
        case("expression", "expression of a random graph", public=False, leaves=leaves, ops=ops),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _formula(leaves, ops):
    texts = [name or f"{x:g}" for name, x in leaves]
    for op in ops:
        left = texts[op[1]]
        if op[0] in ("+", "*"):
            texts.append(f"({left} {op[0]} {texts[op[2]]})")
        else:
            texts.append(f"({left} {op[0][0]} {op[2]:g})")
    return texts[-1]


def expect(case):
    kind, inp = case["kind"], case["inputs"]
    data_note = "store the child Values themselves in _prev, not their numbers"
    if kind == "binary":
        a, b, op = inp["a"], inp["b"], inp["op"]
        setup = f"a = {a}, b = {b}, out = a {op} b"
        return Expectation(
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
            ]
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
        return Expectation(wants)
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
        return Expectation(wants)
    expected = _formula(inp["leaves"], inp["ops"])
    leaves = ", ".join(f"{n or 'unlabelled'} = {fmt(x)}" for n, x in inp["leaves"])
    parentheses = "wrap every operation, the outermost included, in one pair of parentheses"
    spaces = "put one space on each side of the operation"
    not_text = 'expression(v) must return a str, such as "((a * b) + c)".'
    return Expectation(
        [
            WantList(
                "expression",
                [ord(ch) for ch in expected],
                leaves,
                text=True,
                alike=[("()", parentheses), (" ", spaces)],
            )
        ],
        patterns=[Pattern({"expression is text": 0.0}, not_text, replace=True)],
    )

"""Checks of exercises/day03_value.py: a Value that records its children and operation.

The child reports plain data only: values, each `_op` as text, each `_prev` as the
names of the case's Values it holds (V for another Value, ? for anything else), and the
text of `expression(v)`, all as character codes, which the judge turns back into text and
compares with what it builds from the case itself.
"""

from grader.messages import Message, msg
from grader.verdict import EXACT, Expectation, Pattern, Want, WantList, fmt

from .cases import case, uniform

TITLE = msg("Day 3: a Value that remembers")
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


HIDDEN_SPACE = (
    "≈10^10 or more each: operands in [-5, 5] to 4 decimals; an expression of 7 random "
    "+, *, +c and *c over 3 leaves (≈10^12 shapes)"
)


def hidden_cases(rng):
    def num(places=4):
        return uniform(rng, -5, 5, places) or 1.0

    leaves = [[n, num(2)] for n in "xyz"]
    ops = []
    for k in range(7):
        size = len(leaves) + k
        if rng.random() < 0.2:
            ops.append([rng.choice(["+c", "*c"]), rng.randrange(size), num(2)])
        else:
            ops.append([rng.choice("+*"), rng.randrange(size), rng.randrange(size)])
    return [
        case("binary", "random operands", public=False, op=rng.choice("+*"), a=num(), b=num()),
        case(
            "numbers", "a random Value and number, both ways round", public=False, a=num(), n=num()
        ),
        case(
            "chain",
            "the lesson's graph at a random point",
            public=False,
            **{k: num() for k in "abcf"},
        ),
        case("expression", "expression of a random graph", public=False, leaves=leaves, ops=ops),
    ]


# -- what a right answer gives ---------------------------------------------------------

# How the child names the Values in a _prev (runners/day03_value.py): the case's own by
# their names, another Value as V, anything else as ?.
KNOWN = msg("(V stands for a Value of your class, ? for anything else)")


def _text(name, text, setup, hint, more="", bugs=()):
    hint = msg("{hint} {more}", hint=hint, more=more) if more else hint
    return WantList(
        name,
        [ord(ch) for ch in text],
        setup,
        [([ord(c) for c in b], m) for b, m in bugs],
        hint,
        text=True,
    )


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
    data_note = msg("store the child Values themselves in _prev, not their numbers")
    if kind == "binary":
        a, b, op = inp["a"], inp["b"], inp["op"]
        setup = msg("a = {a}, b = {b}, out = a {op} b", a=a, b=b, op=op)
        prev = msg(
            "_prev must be the tuple (self, other), the operands themselves: {note}",
            note=data_note,
        )
        return Expectation(
            [
                Want("out.data", a + b if op == "+" else a * b, EXACT, setup),
                _text("out._op", op, setup, msg('_op must be the string "{op}"', op=op)),
                _text(
                    "out._prev",
                    "ab",
                    setup,
                    prev,
                    bugs=[("ba", msg("a comes first: (self, other)"))],
                ),
            ]
        )
    if kind == "numbers":
        a, n = inp["a"], inp["n"]
        wrap = msg("wrap the plain number in a Value and keep it in _prev next to a")
        wants = []
        for text in ("a + n", "a * n", "n + a", "n * a"):
            setup = msg("a = Value({a}), n = {n}, out = {text}", a=a, n=n, text=text)
            wants += [
                Want(f"({text}).data", a + n if "+" in text else a * n, EXACT, setup),
                _text(f"({text})._prev", "Va", setup, wrap, KNOWN),
                Want(
                    f"({text}): the number's Value .data",
                    n,
                    EXACT,
                    setup,
                    label=msg("({text}): the number's Value .data", text=text),
                    more=wrap,
                ),
            ]
        return Expectation(wants)
    if kind == "chain":
        a, b, c, f = (inp[k] for k in "abcf")
        setup = msg(
            "a = {a}, b = {b}, c = {c}, f = {f}; e = a*b, d = e + c, L = d*f", a=a, b=b, c=c, f=f
        )
        e = a * b
        d = e + c
        wants = [
            Want("e.data", e, EXACT, setup),
            Want("d.data", d, EXACT, setup),
            Want("L.data", d * f, EXACT, setup),
        ]
        for node, op, prev in (("L", "*", "df"), ("d", "+", "ec"), ("e", "*", "ab")):
            wrong = msg("{node}._prev and ._op are wrong: {note}", node=node, note=data_note)
            wants += [
                _text(f"{node}._op", op, setup, wrong),
                _text(f"{node}._prev", prev, setup, wrong),
            ]
        return Expectation(wants)
    expected = _formula(inp["leaves"], inp["ops"])
    # the leaves, "a = 2.0, unlabelled = 3.0": a message of its values alone
    leaves = Message(
        "{leaves}",
        {
            "leaves": [
                f"{n} = {fmt(x)}" if n else msg("unlabelled = {value}", value=fmt(x))
                for n, x in inp["leaves"]
            ]
        },
    )
    parentheses = msg("wrap every operation, the outermost included, in one pair of parentheses")
    spaces = msg("put one space on each side of the operation")
    not_text = msg('expression(v) must return a str, such as "((a * b) + c)".')
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

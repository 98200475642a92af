"""Checks of exercises/day08_more_ops.py: pow, exp, tanh, relu; neg, sub and div.

Each new `_backward` is checked on its own against a central difference of the math
function (relu at exactly 0 against the lesson's convention relu'(0) = 0), with an
upstream gradient other than 1 and a .grad that is already there. neg, sub and div are
checked through backward() and for being built from the primitives.
"""

import math

from grader.messages import msg
from grader.verdict import CLOSED, NUMERIC, Expectation, Want, WantList

from .cases import case, central_difference, uniform
from .programs import catches, expect_program

TITLE = msg("Day 8: pow, exp, tanh, relu; neg, sub and div")
ENGINE = {}
ENGINE_BY_KIND = {}

MODES = [
    (op, m) for op in ("pow", "exp", "tanh", "relu") for m in ("assign", "no_upstream", "flip")
]
MODES += [
    ("+", "assign"),
    ("+", "assign_self"),
    ("*", "assign"),
]  # the file's own + and *: it is graded whole

# The math each operation computes, for central differences on the trusted side.
FUNCTIONS = {
    "pow": lambda x, k: x**k,
    "exp": lambda x, k: math.exp(x),
    "tanh": lambda x, k: math.tanh(x),
    "relu": lambda x, k: max(x, 0.0),
}


# What each is made of when built from the primitives: -a = a * -1, a - b = a + (-b),
# a / b = a * b**-1 (the child sends the ops of the graph sorted, "**" without its number).
PRIMITIVE_OPS = {"-a": "*", "a - b": "* +", "a / b": "* **"}


def _op(op, x, g, x0=0.0, k=None):
    return {"op": op, "x": x, "g": g, "x0": x0, "k": k}


def public_cases():
    return [
        case("ops", "pow: x ** 3 at x = 2", ops=[_op("pow", 2.0, 1.0, k=3)]),
        case(
            "ops",
            "pow: negative and fractional exponents, upstream gradients 0.5 and -1",
            ops=[_op("pow", 4.0, 0.5, k=-1), _op("pow", 9.0, -1.0, k=0.5)],
        ),
        case("ops", "exp with an upstream gradient of -2", ops=[_op("exp", 0.7, -2.0)]),
        case(
            "ops",
            "tanh adds to a .grad that is already there",
            ops=[_op("tanh", 0.5, 1.5, x0=0.25)],
        ),
        case(
            "ops",
            "relu passes the gradient where x > 0 and blocks it where x < 0",
            ops=[_op("relu", 2.0, 1.25), _op("relu", -1.0, 1.25)],
        ),
        case("ops", "relu at exactly 0 passes no gradient", ops=[_op("relu", 0.0, 3.0)]),
        case(
            "program",
            "neg and sub: out = -a - b",
            program={"leaves": [["a", 1.5], ["b", -0.5]], "ops": [["neg", 0], ["-", 2, 1]]},
        ),
        case(
            "program",
            "div: out = a / b",
            program={"leaves": [["a", 3.0], ["b", -2.0]], "ops": [["/", 0, 1]]},
        ),
        case("primitives", "neg, sub and div are built from +, * and **", a=1.5, b=-0.5),
        case(
            "program",
            "reuse: out = x * x.tanh() + x ** 2",
            program={
                "leaves": [["x", 0.8]],
                "ops": [["tanh", 0], ["*", 0, 1], ["pow", 0, 2], ["+", 2, 3]],
            },
        ),
        case(
            "program",
            "(a + b) * a.exp(): the + passes a share to a that already holds one",
            program={
                "leaves": [["a", 0.5], ["b", -1.5]],
                "ops": [["+", 0, 1], ["exp", 0], ["*", 2, 3]],
            },
        ),
        case("program", "a deep chain of tanh, relu and exp", program=_chain(50)),
    ]


def _chain(n):
    # x <- x + 0.01 * (tanh(x) + exp(relu(x))), n times: deep, yet the gradient stays near 1.
    ops, x = [], 0
    for _ in range(n):
        m = 1 + len(ops)  # the index the next op's node gets (one leaf comes first)
        ops += [["tanh", x], ["relu", x], ["exp", m + 1], ["+", m, m + 2]]
        ops += [["*c", m + 3, 0.01], ["+", x, m + 4]]
        x = m + 5
    return {"leaves": [["x", 0.2]], "ops": ops}


HIDDEN_SPACE = (
    "≈10^9 or more each: points, upstream and existing gradients in [-2, 2] to 3 decimals "
    "(and a relu exactly at 0); a random expression of every operation over 3 leaves; "
    "a, b in [-2, 2] to 4 decimals"
)

CATCH = [("+", "assign_self"), ("+", "assign")]  # the file's own +, used twice


def _expression(rng, num):
    """Every operation once, then (y + leaf) * y: the + hands its first operand a share
    that the * has already given it."""
    leaves = [["a", num(0.5, 2.0)], ["b", num(0.5, 2.0)], ["c", num()]]
    ops = [
        ["/", 0, 1],
        rng.choice([["tanh", 3], ["exp", 3], ["relu", 3]]),
        ["pow", 1, rng.choice([2, 3, -1])],
        ["-", 4, 5],
        ["*", 6, 2],
        ["neg", 7],
        ["+", 8, rng.randrange(3)],
        ["+", 9, rng.randrange(3)],
        ["*", 10, 9],
    ]
    return {"leaves": leaves, "ops": ops}


def hidden_cases(rng):
    def num(lo=-2.0, hi=2.0):
        return uniform(rng, lo, hi) or 0.5

    ops = [
        _op("pow", num(0.5, 3.0), num(), num(), k=rng.choice([2, 3, -1, -2, 0.5, 1.5])),
        _op("exp", num(), num(), num()),
        _op("tanh", num(), num(), num()),
        _op("relu", num(), num(), num()),
        _op("relu", 0.0, num(), num()),  # exactly at the kink: relu'(0) = 0
    ]
    program = _expression(rng, num)
    while not catches(program, CATCH):
        program = _expression(rng, num)
    b = uniform(rng, 0.5, 2.0, 4) * rng.choice([-1, 1])
    return [
        case("ops", "random points, exponents and upstream gradients", public=False, ops=ops),
        case("program", "a random expression of every operation", public=False, program=program),
        case(
            "primitives",
            "neg, sub and div of random Values are built from +, * and **",
            public=False,
            a=uniform(rng, -2.0, 2.0, 4),
            b=b,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    kind, inputs = case["kind"], case["inputs"]
    if kind == "program":
        return expect_program(inputs["program"], MODES, tol=CLOSED)
    if kind == "primitives":
        advice = msg(
            "build it from the operations you have (for example a - b is a + (-b)), so its "
            "gradient flows through their _backward and needs no new one"
        )
        setup = f"a = {inputs['a']}, b = {inputs['b']}"  # no words
        wants = [
            WantList(
                f"the ops of {name}",
                [ord(c) for c in ops],
                setup,
                hint=advice,
                text=True,
                label=msg("the ops of {name}", name=name),
            )
            for name, ops in PRIMITIVE_OPS.items()
        ]
        return Expectation(wants)
    return Expectation([_op_want(i, s) for i, s in enumerate(inputs["ops"])])


def _op_want(i, s):
    op, x, g, x0, k = s["op"], s["x"], s["g"], s["x0"], s["k"]
    f = FUNCTIONS[op]
    if op == "relu" and x == 0.0:
        local = 0.0  # the lesson's convention: a unit exactly at the kink passes nothing
        tol = CLOSED
    else:
        local = central_difference(lambda t: f(t, k), x, h=1e-6)
        tol = NUMERIC
    expr = f"x ** {k}" if op == "pow" else f"x.{op}()"
    setup = f"x = {x}, out = {expr}, out.grad = {g}"  # no words
    if x0:
        setup = msg("{setup}, x.grad was {x0} before", setup=setup, x0=x0)
    bugs = [
        (x0 + local, msg("did you forget to multiply by out.grad (the chain rule)?")),
        (x0 - local * g, msg("the sign is flipped")),
        (x0, msg("nothing was added to x.grad: is the body of _backward empty?")),
    ]
    if x0:
        assign = msg("did you write `=` where gradients must accumulate with `+=`?")
        bugs.insert(0, (local * g, assign))
    if op == "relu" and x == 0.0:
        at_zero = msg("relu'(0) is 0 in this course: pass gradient only where x > 0")
        bugs.insert(0, (x0 + g, at_zero))
    if op == "pow":
        times_x = msg("the power rule is k * x ** (k - 1), not k * x ** k")
        without_k = msg("the power rule keeps the factor k: k * x ** (k - 1)")
        bugs.append((x0 + k * x**k * g, times_x))
        bugs.append((x0 + x ** (k - 1) * g, without_k))
    if op == "tanh":
        not_x = msg("use 1 - tanh(x) ** 2 (out.data), not 1 - x ** 2")
        bugs.append((x0 + (1.0 - x * x) * g, not_x))
    if op == "exp":
        itself = msg("the derivative of exp(x) is exp(x) itself (out.data)")
        bugs.append((x0 + x * g, itself))
    return Want(f"{i}:x.grad", x0 + local * g, tol, setup, bugs, "x.grad")

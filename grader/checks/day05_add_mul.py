"""Checks of exercises/day05_add_mul.py: `_backward` of + (the distributor) and * (the swapper).

Each operation is checked on its own (set out.grad, call out._backward(), read the
inputs' .grad) with exact expected values, then inside whole expressions through the
given backward(): reuse, a diamond, a deep chain and fresh random graphs.
"""

from grader.messages import msg
from grader.verdict import EXACT, Expectation, Want

from .cases import case, uniform
from .programs import expect_program

TITLE = msg("Day 5: _backward of add and mul")
ENGINE = {}
ENGINE_BY_KIND = {}

# Planted bugs the diagnosis of whole-graph cases tries, in this order.
MODES = [(op, m) for op in ("+", "*") for m in ("assign", "no_upstream", "flip", "empty")]
MODES.insert(4, ("*", "swap"))
MODES += [(op, "flip_other") for op in ("+", "*")]  # a sign flipped on one side alone


def _op(op, a, b, g, a0=0.0, b0=0.0):
    return {"op": op, "a": a, "b": b, "g": g, "a0": a0, "b0": b0}


def public_cases():
    return [
        case("ops", "add passes out.grad to both inputs", ops=[_op("+", 2.0, -3.0, 1.0)]),
        case("ops", "mul gives each input the other's data", ops=[_op("*", 2.0, -3.0, 1.0)]),
        case("ops", "add scales by an upstream gradient of 2.5", ops=[_op("+", 4.0, 0.5, 2.5)]),
        case("ops", "mul scales by an upstream gradient of -1.5", ops=[_op("*", 3.0, 0.5, -1.5)]),
        case(
            "ops",
            "add and mul add to a .grad that is already there (+=, not =)",
            ops=[_op("+", 1.0, 2.0, 1.5, 0.25, -1.0), _op("*", 1.5, -2.0, 2.0, 0.5, 0.75)],
        ),
        case("reuse", "x + x and x * x: one Value used twice collects both shares", x=3.0, g=1.5),
        case("program", "a * b + a through backward()", program=_graph_ab()),
        case("program", "a diamond: a feeds two paths that meet again", program=_diamond()),
        case("program", "a deep chain of 300 operations", program=_chain(300)),
    ]


def _graph_ab():
    return {"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1], ["+", 2, 0]]}


def _diamond():
    # d = a * c and e = a + c both depend on a and c; out = d * e joins them.
    return {"leaves": [["a", 1.5], ["c", -2.0]], "ops": [["*", 0, 1], ["+", 0, 1], ["*", 2, 3]]}


def _chain(n):
    ops = []
    for i in range(n):
        ops += [["*c", i * 2, 0.99], ["+c", i * 2 + 1, 0.01]]
    return {"leaves": [["x", 0.5]], "ops": ops}


HIDDEN_SPACE = (
    "≈10^19 or more each: 4 ops of 5 floats in [-4, 4] to 3 decimals; x and g to 4 "
    "decimals; a random graph of 8 + and * over 4 random leaves"
)


def hidden_cases(rng):
    def num(places=3):
        return uniform(rng, -4.0, 4.0, places) or 1.0

    ops = [_op(rng.choice("+*"), num(), num(), num(), num(), num()) for _ in range(4)]
    leaves = [[n, num()] for n in "abcd"]
    graph = []
    for k in range(8):
        size = len(leaves) + k
        graph.append([rng.choice("+*"), rng.randrange(size), rng.randrange(size)])
    return [
        case("ops", "random inputs, upstream and existing gradients", public=False, ops=ops),
        case("reuse", "random reuse of one Value", public=False, x=num(4), g=num(4)),
        case(
            "program",
            "a random graph of + and * through backward()",
            public=False,
            program={"leaves": leaves, "ops": graph},
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    kind, inputs = case["kind"], case["inputs"]
    if kind == "program":
        return expect_program(inputs["program"], MODES, tol=(1e-9, 1e-12))
    if kind == "ops":
        wants = []
        for i, s in enumerate(inputs["ops"]):
            wants += _op_wants(i, s)
        return Expectation(wants)
    x, g = inputs["x"], inputs["g"]
    assign = msg(
        "x is used twice, so x.grad must collect two shares; `=` keeps only the last: use `+=`"
    )
    twice = "x = {x}, out = x {op} x, out.grad = {g}"  # no words: the same in every language
    wants = [
        Want("x + x: x.grad", 2.0 * g, EXACT, twice.format(x=x, op="+", g=g), [(g, assign)]),
        Want(
            "x * x: x.grad",
            2.0 * x * g,
            EXACT,
            twice.format(x=x, op="*", g=g),
            [(x * g, assign)],
        ),
    ]
    return Expectation(wants)


def _op_wants(i, s):
    op, a, b, g, a0, b0 = s["op"], s["a"], s["b"], s["g"], s["a0"], s["b0"]
    setup = f"a = {a}, b = {b}, out = a {op} b, out.grad = {g}"  # no words
    if a0 or b0:
        setup = msg(
            "{setup}, a.grad was {a0} and b.grad was {b0} before", setup=setup, a0=a0, b0=b0
        )
    assign = msg("did you write `=` where gradients must accumulate with `+=`?")
    upstream = msg("did you forget to multiply by out.grad (the chain rule)?")
    flip = msg("the sign is flipped: the gradient of a sum or product adds, never subtracts")
    empty = msg("nothing was added to .grad: is the body of _backward empty?")
    if op == "+":
        da, db = g, g
        swap_a, swap_b = None, None
        no_up_a, no_up_b = 1.0, 1.0
    else:
        da, db = b * g, a * g
        swap_a, swap_b = a * g, b * g
        no_up_a, no_up_b = b, a
    wants = []
    for name, start, d, swapped, no_up in (
        ("a", a0, da, swap_a, no_up_a),
        ("b", b0, db, swap_b, no_up_b),
    ):
        bugs = [(start + no_up, upstream), (start - d, flip), (start, empty)]
        if start:
            bugs.insert(0, (d, assign))
        if swapped is not None:
            other = "b" if name == "a" else "a"
            bugs.insert(
                0,
                (
                    start + swapped,
                    msg(
                        "the swapper gives {name} the other input's data: "
                        "{name}.grad += {other}.data * out.grad",
                        name=name,
                        other=other,
                    ),
                ),
            )
        wants.append(Want(f"{i}:{name}.grad", start + d, EXACT, setup, bugs, f"{name}.grad"))
    return wants

"""Checks of exercises/day06_backward.py: `topological_order()` and `backward()`.

The order is checked by its properties (every node once, each after its children, the
output last), never against one particular order; backward() by exact gradients of a
product, reuse, a diamond, a deep chain and fresh random graphs.
"""

from grader.messages import msg

from .cases import case, uniform
from .programs import catches, expect_order, expect_program, order_graph

TITLE = msg("Day 6: topological order and backward()")
ENGINE = {}
ENGINE_BY_KIND = {}

# The file also carries the _backward of +, * and tanh: a learner's file is graded whole.
MODES = [("backward", "no_seed"), ("backward", "forward_order")]
MODES += [(op, "assign") for op in ("+", "*", "tanh")] + [("+", "assign_self")]


def _diamond():
    return {
        "leaves": [["a", 0.5], ["c", 1.5]],
        "ops": [["*", 0, 0], ["+", 2, 0], ["*", 3, 1], ["tanh", 3], ["+", 4, 5]],
    }


def _chain(n):
    ops = []
    for i in range(n):
        ops += [["*c", 2 * i, 0.9], ["+c", 2 * i + 1, 0.1]]
    return {"leaves": [["x", 0.3]], "ops": ops}


def public_cases():
    return [
        case("order", "the order of a chain: each node after its children", program=_chain(3)),
        case("order", "the order of a diamond lists every node once", program=_diamond()),
        case(
            "program",
            "backward() of a * b: out.grad is 1, a.grad is b",
            program={"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1]]},
        ),
        case(
            "program",
            "a * b + a: a Value used on two paths",
            program={"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1], ["+", 2, 0]]},
        ),
        case("program", "a diamond with tanh: every _backward runs once", program=_diamond()),
        case(
            "program",
            "(a + b) * a: the + adds to the share a already holds",
            program={"leaves": [["a", 1.5], ["b", -0.5]], "ops": [["+", 0, 1], ["*", 2, 0]]},
        ),
        case(
            "program",
            "x.tanh() + x: the input of tanh collects a second share",
            program={
                "leaves": [["a", 0.5], ["b", -1.5]],
                "ops": [["*", 0, 1], ["tanh", 2], ["+", 3, 2]],
            },
        ),
        case("program", "a deep chain of 400 operations", program=_chain(200)),
    ]


HIDDEN_SPACE = (
    "≈10^10 from the leaves alone: graphs of 12 to 40 random +, *, tanh (and +c, *c) "
    "over 3 leaves in [-2, 2] to 3 decimals; backward()'s graphs redrawn until every "
    "planted = for += and a forward order change a leaf's gradient"
)

# What backward()'s hidden graph must catch: the file's = for += in +, * and tanh (its
# + also on the first operand alone), and the wrong order or seed of backward() itself.
CATCH = [(op, "assign") for op in ("+", "*", "tanh")]
CATCH += [("+", "assign_self"), ("backward", "forward_order"), ("backward", "no_seed")]


def _random_graph(rng, n_ops, constants=False):
    """n_ops random ops over leaves a, b, c; mostly on recent nodes, so graphs run deep."""
    leaves = [[n, uniform(rng, -2.0, 2.0) or 0.5] for n in "abc"]
    kinds = ["+", "*", "tanh"] + (["+c", "*c"] if constants else [])
    ops = []
    for k in range(n_ops):
        size = len(leaves) + k
        kind = rng.choice(kinds)
        i = rng.randrange(max(0, size - 4), size)
        if kind == "tanh":
            ops.append([kind, i])
        elif kind in ("+c", "*c"):
            ops.append([kind, i, uniform(rng, -1.0, 1.0) or 0.5])
        else:
            ops.append([kind, i, rng.randrange(size)])
    return {"leaves": leaves, "ops": ops}


def hidden_cases(rng):
    program = _random_graph(rng, 12)
    while not catches(program, CATCH):
        program = _random_graph(rng, 12)
    return [
        case("order", "the order of a random graph", public=False, program=_random_graph(rng, 12)),
        case(
            "order",
            "the order of a deeper random graph with numbers in it",
            public=False,
            program=_random_graph(rng, 40, constants=True),
        ),
        case(
            "program",
            "backward() of a random graph of +, * and tanh",
            public=False,
            program=program,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    if case["kind"] == "program":
        return expect_program(case["inputs"]["program"], MODES)
    program = case["inputs"]["program"]
    n = len(order_graph(program)[1])
    return expect_order(program, msg("a graph of {count} Values", count=n))

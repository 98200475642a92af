"""Checks of exercises/day29_making_it_fast.py: an iterative sort and a data-driven backward.

Graphs are built with engine's Value (whose nodes carry `_children` and `_local_grads`);
the learner's functions walk them. The order is judged by its properties; gradients by
exact dual-number derivatives of the same program (grader/checks/programs.py). A chain
deeper than Python's recursion limit proves the sort keeps its own stack.
"""

from grader.messages import msg
from grader.runners.programs import BINARY
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case
from .programs import describe, expect_order, forward, leaf_gradients, order_graph, output_value

TITLE = msg("Day 29: an iterative topological sort and backward()")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value's
# own iterative topological_order and backward are this exercise.
ENGINE = {"value": ("Value.backward", "Value.topological_order")}
ENGINE_BY_KIND = {}

RECURSION = msg(
    "a RecursionError or a missing node on a deep graph: keep your own stack in a list "
    "instead of calling a function recursively"
)


def _chain(n):
    ops = []
    for i in range(n):
        ops += [["*c", 2 * i, 0.999], ["+c", 2 * i + 1, 0.01]]
    return {"leaves": [["x", 0.3]], "ops": ops}


def _diamond():
    return {
        "leaves": [["a", 0.5], ["c", 1.5]],
        "ops": [["*", 0, 0], ["+", 2, 0], ["*", 3, 1], ["tanh", 3], ["+", 4, 5]],
    }


def _reuse():
    return {"leaves": [["a", 2.0], ["b", 3.0]], "ops": [["*", 0, 1], ["+", 2, 0]]}


def public_cases():
    return [
        case("order", "the order of a * b + a: children first, output last", program=_reuse()),
        case("order", "the order of a diamond lists every node once", program=_diamond()),
        case(
            "order",
            "a chain of 1,500 tanh, past the recursion limit",
            program={"leaves": [["x", 0.3]], "ops": [["tanh", i] for i in range(1500)]},
        ),
        case("backward", "backward of a * b + a: a.grad = 4, b.grad = 2", program=_reuse()),
        case("backward", "backward of a diamond with tanh", program=_diamond()),
        case("backward", "backward through 3,000 operations", program=_chain(1500)),
        case(
            "twice", "two backward calls: leaves accumulate, inner nodes do not", program=_diamond()
        ),
    ]


HIDDEN_SPACE = (
    "≈10^10 from the leaves alone: graphs of 8 or 12 random +, *, tanh and exp over 3 "
    "leaves in [-2, 2] to 3 decimals"
)


def hidden_cases(rng):
    def graph(n_ops):
        leaves = [[n, round(rng.uniform(-2.0, 2.0), 3) or 0.5] for n in "abc"]
        ops = []
        for k in range(n_ops):
            size = len(leaves) + k
            kind = rng.choice(["+", "*", "tanh", "exp"])
            i = rng.randrange(max(0, size - 4), size)
            if kind == "exp":
                ops.append(["*c", i, 0.1])
                ops.append(["exp", size])
            elif kind == "tanh":
                ops.append([kind, i])
            else:
                ops.append([kind, i, rng.randrange(size)])
        return {"leaves": leaves, "ops": ops}

    g = graph(12)
    return [
        case("order", "the order of a random graph", public=False, program=g),
        case("backward", "backward of a random graph", public=False, program=g),
        case("twice", "two backward calls on a random graph", public=False, program=graph(8)),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _inner_gradient(program):
    """d(output)/d(first inner node), by dual numbers: treat that node as a leaf."""
    n_leaves = len(program["leaves"])
    vals = forward(program)[0]
    # rebuild the program with node n_leaves as an extra leaf standing in for it
    shifted = {"leaves": program["leaves"] + [["inner", vals[n_leaves]]], "ops": []}
    remap = {i: i for i in range(n_leaves)}
    remap[n_leaves] = n_leaves  # the new leaf has the same index as the inner node had
    for k, op in enumerate(program["ops"]):
        if k == 0:
            continue
        new = [op[0], remap[op[1]]]
        if op[0] in BINARY:
            new.append(remap[op[2]])
        elif len(op) > 2:
            new.append(op[2])
        remap[n_leaves + k] = n_leaves + len(shifted["ops"]) + 1
        shifted["ops"].append(new)
    return leaf_gradients(shifted)[-1]


def expect(case):
    program = case["inputs"]["program"]
    setup = describe(program)
    if case["kind"] == "order":
        advice = {"last": msg("the root must come last: place a node only after all its children")}
        deep = len(order_graph(program)[1]) > 1000
        return expect_order(program, setup, advice, hint=RECURSION if deep else "")
    grads = leaf_gradients(program)
    twice = case["kind"] == "twice"
    factor = 2.0 if twice else 1.0
    wants = [
        Want("out.data", output_value(program), CLOSED, setup),
        Want(
            "out.grad",
            1.0,
            EXACT,
            setup,
            [
                (0.0, msg("the root's grad must start at 1.0 (d out / d out)")),
                (
                    2.0,
                    msg(
                        "the root is not a leaf: zero it before adding 1.0, so a second call "
                        "does not double it"
                    ),
                ),
            ],
        ),
    ]
    for (name, _), g in zip(program["leaves"], grads):
        bugs = (
            [(g, msg("leaves must accumulate across backward() calls: do not reset them"))]
            if twice
            else []
        )
        wants.append(Want(f"{name}.grad", factor * g, CLOSED, setup, bugs))
    if twice:
        inner = _inner_gradient(program)
        wants.append(
            Want(
                "first inner node's grad",
                inner,
                CLOSED,
                setup,
                [
                    (
                        2.0 * inner,
                        msg(
                            "zero the .grad of every node with children before a "
                            "backward pass: intermediate results hold this pass's "
                            "gradient only"
                        ),
                    )
                ],
                label=msg("first inner node's grad"),
            )
        )
    return Expectation(
        wants, hint=msg("Walk the order reversed and add local_grad * node.grad to each child.")
    )

"""Small programs of Values, built from the learner's `Value` class in the child.

{"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1], ["+", 2, 0]]}
Node i < len(leaves) is a leaf; every op appends a node; the last node is the output.
OPS names every operation with how the learner's Value computes it; BINARY lists the
ops whose second operand is a node (the others take a number, or nothing).
The trusted side knows the same programs' exact values and gradients
(grader/checks/programs.py); this side only builds and reads them.
"""

__all__ = ["OPS", "BINARY", "CONSTANT", "build", "ancestors", "case_nodes", "run_program"]

OPS = {
    "+": lambda x, y: x + y,
    "*": lambda x, y: x * y,
    "-": lambda x, y: x - y,
    "/": lambda x, y: x / y,
    "+c": lambda x, c: x + c,
    "*c": lambda x, c: x * c,
    "pow": lambda x, k: x**k,
    "neg": lambda x: -x,
    "exp": lambda x: x.exp(),
    "tanh": lambda x: x.tanh(),
    "relu": lambda x: x.relu(),
}
BINARY = frozenset({"+", "*", "-", "/"})
CONSTANT = frozenset({"+c", "*c"})  # x + 0.1 makes Value(0.1): a node of the graph too


def build(Value, program):
    """The program's nodes as the learner's Values (this calls learner code)."""
    nodes = [Value(x) for _, x in program["leaves"]]
    for op in program["ops"]:
        name, x = op[0], nodes[op[1]]
        if name in BINARY:
            nodes.append(OPS[name](x, nodes[op[2]]))
        elif len(op) > 2:
            nodes.append(OPS[name](x, op[2]))
        else:
            nodes.append(OPS[name](x))
    return nodes


def ancestors(program):
    """Indices of the nodes the output depends on (the output included)."""
    n_leaves, ops = len(program["leaves"]), program["ops"]
    keep, stack = set(), [n_leaves + len(ops) - 1]
    while stack:
        i = stack.pop()
        if i not in keep:
            keep.add(i)
            if i >= n_leaves:
                op = ops[i - n_leaves]
                stack += [op[1], op[2]] if op[0] in BINARY else [op[1]]
    return keep


def case_nodes(nodes, program, children):
    """The case's node list: the program's nodes, then the Value each +c/*c op made of its
    number, in op order (None where the graph holds none): what an order is sent against.

    `children(v)` reads a node's children from the graph as built.
    """
    n_leaves, extra = len(program["leaves"]), []
    for k, op in enumerate(program["ops"]):
        if op[0] in CONSTANT:
            x = nodes[op[1]]
            made = [c for c in children(nodes[n_leaves + k]) if c is not x]
            extra.append(made[0] if made else None)
    return list(nodes) + extra


def run_program(module, case):
    """Every "program" case: build, call backward(), read the leaf grads."""
    program = case["inputs"]["program"]
    nodes = build(module.Value, program)
    nodes[-1].backward()
    values = {f"{name}.grad": nodes[i].grad for i, (name, _) in enumerate(program["leaves"])}
    values["out.data"] = nodes[-1].data
    values["out.grad"] = nodes[-1].grad
    return values

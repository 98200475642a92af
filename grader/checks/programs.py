"""Exact values and gradients of small programs of Values, and of their likely bugs.

The programs are the ones the child builds from the learner's `Value`
(grader/runners/programs.py has the format). Here, on the trusted side, each op is one
row of `RULES`: its value and its local derivatives, from which come the dual-number
forward pass (exact leaf gradients), a backward pass with one planted bug (to name the
learner's mistake) and the program written as a learner would write it.
"""

import math

from grader.messages import Message, msg
from grader.runners.programs import BINARY, CONSTANT, ancestors
from grader.verdict import CLOSED, EXACT, Expectation, Pattern, Want, WantOrder, fmt

__all__ = [
    "RULES",
    "forward",
    "output_value",
    "leaf_gradients",
    "buggy_gradients",
    "depth_first_order",
    "catches",
    "BUG_ADVICE",
    "describe",
    "expect_program",
    "order_graph",
    "expect_order",
]


def _relu(u, _):
    return u if u > 0 else 0.0


# op: (value(u, k), local derivatives(u, k, out) -> [d/du] or [d/du, d/dv], shown as)
# u is the first operand's value; k is the second operand's value or the op's number.
RULES = {
    "+": (lambda u, v: u + v, lambda u, v, out: [1.0, 1.0], "({x} + {y})"),
    "*": (lambda u, v: u * v, lambda u, v, out: [v, u], "({x} * {y})"),
    "-": (lambda u, v: u - v, lambda u, v, out: [1.0, -1.0], "({x} - {y})"),
    "/": (lambda u, v: u / v, lambda u, v, out: [1.0 / v, -u / (v * v)], "({x} / {y})"),
    "+c": (lambda u, c: u + c, lambda u, c, out: [1.0], "({x} + {k!r})"),
    "*c": (lambda u, c: u * c, lambda u, c, out: [c], "({x} * {k!r})"),
    "pow": (lambda u, k: u**k, lambda u, k, out: [k * u ** (k - 1)], "{x}**{k!r}"),
    "neg": (lambda u, _: -u, lambda u, _, out: [-1.0], "-{x}"),
    "exp": (lambda u, _: math.exp(u), lambda u, _, out: [out], "{x}.exp()"),
    "tanh": (lambda u, _: math.tanh(u), lambda u, _, out: [1.0 - out * out], "{x}.tanh()"),
    "relu": (_relu, lambda u, _, out: [1.0 if u > 0 else 0.0], "{x}.relu()"),
}


def _operands(op, vals):
    """(first operand's value, second operand's value or the op's number, child indices)."""
    if op[0] in BINARY:
        return vals[op[1]], vals[op[2]], [op[1], op[2]]
    return vals[op[1]], (op[2] if len(op) > 2 else None), [op[1]]


def forward(program, dual_index=None):
    """Values (and, for leaf `dual_index`, exact derivatives) of every node: dual numbers."""
    vals = [x for _, x in program["leaves"]]
    ders = [1.0 if i == dual_index else 0.0 for i in range(len(vals))]
    for op in program["ops"]:
        if op[0] not in RULES:
            raise ValueError(f"unknown op {op[0]!r}")
        value, local, _ = RULES[op[0]]
        u, k, children = _operands(op, vals)
        out = value(u, k)
        vals.append(out)
        ders.append(sum(d * ders[c] for d, c in zip(local(u, k, out), children)))
    return vals, ders


def output_value(program):
    return forward(program)[0][-1]


def leaf_gradients(program):
    """d(output)/d(leaf) for every leaf, each from its own dual-number pass (closed forms)."""
    return [forward(program, i)[1][-1] for i in range(len(program["leaves"]))]


def _children(program, node):
    """The program nodes `node` was made from, in operand order."""
    n_leaves = len(program["leaves"])
    if node < n_leaves:
        return []
    op = program["ops"][node - n_leaves]
    return [op[1], op[2]] if op[0] in BINARY else [op[1]]


def depth_first_order(program):
    """The ops in the order the lesson's recursive topological sort lists their nodes."""
    n_leaves, root = len(program["leaves"]), len(program["leaves"]) + len(program["ops"]) - 1
    order, seen, stack = [], set(), [(root, False)]
    while stack:  # a post-order walk, children in operand order, without recursion
        node, done = stack.pop()
        if done:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack += [(c, False) for c in reversed(_children(program, node))]
    return [i - n_leaves for i in order if i >= n_leaves]


def buggy_gradients(program, bug, order=None):
    """Leaf gradients as a backward pass with one planted `bug` would compute them.

    `bug` is (op name, mode) with mode "assign" (= for +=), "assign_self" (= for += on
    the first operand only), "no_upstream" (out.grad dropped), "flip" (sign), "flip_other"
    (the sign of the second operand's share alone), "swap" (mul
    gives each input its own data), "empty"; or ("backward", "no_seed") /
    ("backward", "forward_order"). `order`: the ops in topological order (default: as
    the program lists them); backward runs it reversed.
    """
    vals = forward(program)[0]
    n_leaves, ops = len(program["leaves"]), program["ops"]
    grads = [0.0] * len(vals)
    grads[-1] = 0.0 if bug == ("backward", "no_seed") else 1.0
    indices = list(range(len(ops)) if order is None else order)
    if bug != ("backward", "forward_order"):
        indices = reversed(indices)
    for k in indices:
        op, node = ops[k], n_leaves + k
        name, upstream = op[0], grads[node]
        u, c, children = _operands(op, vals)
        pairs = list(zip(children, RULES[name][1](u, c, vals[node])))
        if name == "*" and bug == ("*", "swap"):
            pairs = [(op[1], vals[op[1]]), (op[2], vals[op[2]])]
        mode = bug[1] if bug[0] == name else None
        for position, (child, local) in enumerate(pairs):
            share = local * upstream
            if mode == "no_upstream":
                share = local
            elif mode == "flip" or (mode == "flip_other" and position == 1):
                share = -share
            elif mode == "empty":
                share = 0.0
            if mode == "assign" or (mode == "assign_self" and position == 0):
                grads[child] = share
            else:
                grads[child] += share
    return grads[:n_leaves]


def catches(program, bugs, margin=1e-3):
    """True when every planted bug of `bugs` moves some leaf gradient by more than `margin`
    (relative), whether backward walks the ops as listed or in the lesson's depth-first
    order: a case drawn to catch them does, whatever the learner's valid order."""
    right = leaf_gradients(program)
    orders = [None, depth_first_order(program)]
    for bug in bugs:
        for order in orders:
            wrong = buggy_gradients(program, bug, order)
            if all(abs(w - r) <= margin * max(1.0, abs(r)) for w, r in zip(wrong, right)):
                return False
    return True


BUG_ADVICE = {
    "assign": msg(
        "_backward of {op} seems to set .grad with `=`; gradients must accumulate "
        "with `+=`, so a Value used twice collects both shares"
    ),
    "assign_self": msg(
        "_backward of {op} seems to set self.grad with `=`; gradients must "
        "accumulate with `+=`, so a Value used twice collects both shares"
    ),
    "no_upstream": msg(
        "_backward of {op} seems to ignore out.grad; multiply the local "
        "derivative by out.grad (the chain rule)"
    ),
    "flip": msg("the sign in _backward of {op} looks flipped"),
    "flip_other": msg("the sign of the second input's share in _backward of {op} looks flipped"),
    "swap": msg(
        "_backward of * seems to give each input its own .data; the swapper gives "
        "a the *other* input's data: self.grad += other.data * out.grad"
    ),
    "empty": msg(
        "no gradient arrived through {op}: its _backward must add each input's share "
        "(local derivative times out.grad) to that input's .grad"
    ),
    "no_seed": msg(
        "every gradient is 0: set self.grad = 1.0 before running the _backward functions"
    ),
    # Seen in the numbers: out.grad is 1.0 but only the output's own _backward reached the
    # leaves; an order run from the leaves up and an order that holds the output alone both
    # give this, so the advice covers both.
    "forward_order": msg(
        "only the output's own _backward reached the leaves: backward() must "
        "run the _backward of every node of topological_order(), in reversed order, from the "
        "output down"
    ),
}


def describe(program, limit=120):
    """The program as a learner would write it, e.g. "a = 2.0, b = -3.0; out = a * b + a"."""
    texts = [n for n, _ in program["leaves"]]
    for op in program["ops"]:
        y = texts[op[2]] if op[0] in BINARY else ""
        k = op[2] if len(op) > 2 else None
        text = RULES[op[0]][2].format(x=texts[op[1]], y=y, k=k)
        texts.append(text if len(text) <= limit else "…")
    leaves = ", ".join(f"{n} = {fmt(x)}" for n, x in program["leaves"])
    root = texts[-1]
    if root == "…":
        root = msg("a graph of {count} operations", count=len(program["ops"]))
    elif root.startswith("(") and root.endswith(")"):
        root = root[1:-1]
    return Message("{leaves}; out = {root}", {"leaves": leaves, "root": root})  # no words


def expect_program(program, modes, tol=CLOSED):
    """What every "program" case expects: exact gradients, and the bugs of `modes`.

    Each planted bug of `modes` that gives other leaf gradients than the right ones is
    a `Pattern`: a failing learner whose out.grad and every leaf gradient match it is told
    the bug (out.grad too: a seed that is there rules out "set self.grad = 1.0"), unless
    another planted bug gives the same numbers (grader/verdict.py names neither).
    """
    setup = describe(program)
    seed = msg("backward() must start with out.grad = 1.0 (d out / d out)")
    wants = [Want("out.data", output_value(program), tol, setup)]
    wants.append(Want("out.grad", 1.0, EXACT, setup, [(0.0, seed)]))
    grads = leaf_gradients(program)
    wants += [Want(f"{n}.grad", g, tol, setup) for (n, _), g in zip(program["leaves"], grads)]
    names = {op[0] for op in program["ops"]}
    patterns = []
    for target, mode in modes:
        if target != "backward" and target not in names:
            continue
        bugged = buggy_gradients(program, (target, mode))
        if mode == "assign_self" and bugged == buggy_gradients(program, (target, "assign")):
            continue  # the same numbers as = on both inputs: one bug, told once
        match = {"out.grad": 0.0 if (target, mode) == ("backward", "no_seed") else 1.0}
        match.update({f"{n}.grad": g for (n, _), g in zip(program["leaves"], bugged)})
        patterns.append(Pattern(match, Message(BUG_ADVICE[mode].id, {"op": target}), tol))
    return Expectation(wants, patterns=patterns)


def order_graph(program):
    """(children of every node, the nodes the output needs, the output) of the case's node
    list as the child sends an order against it (runners.programs.case_nodes): the
    program's nodes, then the constant Value of each +c/*c op, in op order."""
    n_leaves, ops = len(program["leaves"]), program["ops"]
    children = [[] for _ in range(n_leaves)]
    constant = n_leaves + len(ops)
    made_of = {}
    for k, op in enumerate(ops):
        if op[0] in BINARY:
            children.append([op[1], op[2]])
        elif op[0] in CONSTANT:
            children.append([op[1], constant])
            made_of[n_leaves + k] = constant
            constant += 1
        else:
            children.append([op[1]])
    children += [[] for _ in made_of]
    assert len(children) <= 8190, "an order is sent in 13-bit positions (runners/lists.py)"
    needed = ancestors(program)
    needed |= {made_of[i] for i in needed if i in made_of}
    return children, sorted(needed), n_leaves + len(ops) - 1


def expect_order(program, setup, advice=None, hint=""):
    """What every "order" case expects: a topological order of the program's graph."""
    children, needed, root = order_graph(program)
    want = WantOrder("order", children, needed, root, setup, dict(advice or {}), msg("order"))
    return Expectation([want], hint=hint)

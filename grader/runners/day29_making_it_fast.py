"""Child side of day 29: build the case's program from engine's Value, call the learner's
topological_order (and send where each node it returned stands in the case's node list:
the trusted side judges the order) or backward (and send the gradients).
"""

from .lists import pack_positions, positions
from .programs import build, case_nodes


def run(module, case):
    from engine import Value

    program = case["inputs"]["program"]
    nodes = build(Value, program)
    root = nodes[-1]
    if case["kind"] == "order":
        order = list(module.topological_order(root))
        known = case_nodes(nodes, program, lambda v: v._children)
        return pack_positions("order", positions(order, known), 4 * len(known) + 16)
    calls = 2 if case["kind"] == "twice" else 1
    for _ in range(calls):
        module.backward(root)
    values = {f"{name}.grad": nodes[i].grad for i, (name, _) in enumerate(program["leaves"])}
    values["out.grad"] = root.grad
    n_leaves = len(program["leaves"])
    if case["kind"] == "twice":
        values["first inner node's grad"] = nodes[n_leaves].grad
    values["out.data"] = root.data
    return values

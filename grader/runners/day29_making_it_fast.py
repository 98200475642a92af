"""Child side of day 29: build the case's program from engine's Value, call the learner's
topological_order (and send what the order looks like: its length, distinct and missing
nodes, children placed late, the root last) or backward (and send the gradients).
"""

from .programs import ancestors, build, order_report


def run(module, case):
    from engine import Value

    program = case["inputs"]["program"]
    nodes = build(Value, program)
    root = nodes[-1]
    if case["kind"] == "order":
        order = list(module.topological_order(root))
        needed = [nodes[i] for i in sorted(ancestors(program))]
        return order_report(order, order, needed, root, lambda v: getattr(v, "_children", ()))
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

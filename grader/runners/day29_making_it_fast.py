"""Child side of day 29: build the case's program from engine's Value, call the learner's
topological_order (and send what the order looks like: its length, distinct and missing
nodes, children placed late, the root last) or backward (and send the gradients).
"""

from .programs import ancestors, build


def run(module, case):
    from engine import Value

    program = case["inputs"]["program"]
    nodes = build(Value, program)
    root = nodes[-1]
    if case["kind"] == "order":
        order = list(module.topological_order(root))
        position = {}
        for k, v in enumerate(order):
            position.setdefault(id(v), k)
        needed = [nodes[i] for i in sorted(ancestors(program))]
        late = 0
        for v in order:
            for child in getattr(v, "_children", ()):
                if id(child) in position and position[id(child)] > position[id(v)]:
                    late += 1
        return {
            "length": len(order),
            "distinct": len(position),
            "missing": sum(1 for v in needed if id(v) not in position),
            "children after their parent": late,
            "output is last": 1.0 if order and order[-1] is root else 0.0,
        }
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

"""Child side of day 6: call topological_order() on a built graph and send counts of what is
wrong with the order (length, distinct, missing, late children, output last); or run a
whole program through backward() and send its leaf gradients.
"""

from .programs import ancestors, build, run_program


def run(module, case):
    if case["kind"] == "program":
        return run_program(module, case)
    program = case["inputs"]["program"]
    nodes = build(module.Value, program)
    needed = [nodes[i] for i in sorted(ancestors(program))]
    order = list(nodes[-1].topological_order())
    position = {}
    for k, v in enumerate(order):
        position.setdefault(id(v), k)
    # Children of each node are read from the graph the checks built, not from the order.
    late = 0
    for v in nodes:
        for child in getattr(v, "_prev", ()):
            if (
                id(child) in position
                and id(v) in position
                and position[id(child)] > position[id(v)]
            ):
                late += 1
    return {
        "length": len(order),
        "distinct": len(position),
        "missing": sum(1 for v in needed if id(v) not in position),
        "children after their parent": late,
        "output is last": 1.0 if order and order[-1] is nodes[-1] else 0.0,
    }

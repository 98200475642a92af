"""Child side of day 6: call topological_order() on a built graph and send counts of what is
wrong with the order (length, distinct, missing, late children, output last); or run a
whole program through backward() and send its leaf gradients.
"""

from .programs import ancestors, build, order_report, run_program


def run(module, case):
    if case["kind"] == "program":
        return run_program(module, case)
    program = case["inputs"]["program"]
    nodes = build(module.Value, program)
    needed = [nodes[i] for i in sorted(ancestors(program))]
    order = list(nodes[-1].topological_order())
    # Children of each node are read from the graph the checks built, not from the order.
    return order_report(order, nodes, needed, nodes[-1], lambda v: getattr(v, "_prev", ()))

"""Child side of day 6: call topological_order() on a built graph and send where each node
it returned stands in the case's node list (the trusted side judges the order); or run a
whole program through backward() and send its leaf gradients.
"""

from .lists import pack_positions, positions
from .programs import build, case_nodes, run_program


def run(module, case):
    if case["kind"] == "program":
        return run_program(module, case)
    program = case["inputs"]["program"]
    nodes = build(module.Value, program)
    order = list(nodes[-1].topological_order())
    known = case_nodes(nodes, program, lambda v: getattr(v, "_prev", ()))
    return pack_positions("order", positions(order, known), 4 * len(known) + 16)

"""`trace(root)`: the computation graph behind a Value as plain, JSON-ready data.

It is the one source for every drawing of a graph in the course: lesson figures and
tests read this structure, and the explorer starts from it (adding only its grouping
of derived operations such as `-` and `/` into one node).
"""

__all__ = ["trace"]


def trace(root):
    """Describe the graph that produced `root`.

    Returns a dict with
      - "nodes": [{"id", "label", "op", "data", "grad"}] in topological order
        (every node after its inputs, the root last);
      - "edges": [{"source", "target", "local_grad"}], one per input of each
        operation, from the input (child) to the result (parent); `local_grad` is
        d(target)/d(source), so the contribution sent back along the edge is
        `local_grad * target's grad`;
      - "root": the id of `root`.
    Ids are positions in the node list.
    """
    order = root.topological_order()
    ids = {id(node): i for i, node in enumerate(order)}
    nodes = [
        {"id": i, "label": n.label, "op": n._op, "data": n.data, "grad": n.grad}
        for i, n in enumerate(order)
    ]
    edges = [
        {"source": ids[id(child)], "target": ids[id(n)], "local_grad": local}
        for n in order
        for child, local in zip(n._children, n._local_grads)
    ]
    return {"nodes": nodes, "edges": edges, "root": ids[id(root)]}

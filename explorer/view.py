"""`explore(text, values)`: everything the explorer draws for an expression.

The graph is built (explorer.graph), differentiated by the engine (`backward`) and
described by the engine's own `engine.graph.trace`: every value, local derivative and
gradient the page shows is read from that trace. Two views are made of it: *derived*,
where each `-`, `/` and unary minus is one node, and *primitive*, where they are
expanded into the engine's operations and outlined as groups.
"""

from __future__ import annotations

import math

from engine.graph import trace

from .errors import ExpressionError
from .graph import Graph, build
from .labels import label

__all__ = ["explore"]


class _View:
    """One view of a built, differentiated graph: its nodes, edges, schedules and groups.

    With `derived`, each derived operation is one node whose edges carry the local
    derivative through its hidden primitives (the product along the path).
    """

    def __init__(self, graph: Graph, data: dict, derived: bool):
        self.graph = graph
        self.trace_nodes = data["nodes"]
        self.derived = derived
        self.order = graph.root.topological_order()  # the trace's order: ids are positions
        self.ids = {id(v): i for i, v in enumerate(self.order)}
        self.inputs: dict[int, list[tuple[int, float]]] = {}  # id -> [(input id, local)]
        for e in data["edges"]:
            self.inputs.setdefault(e["target"], []).append((e["source"], e["local_grad"]))
        self.hidden = set()
        self.collapsed = {}  # id(Value) -> the Group it is the root of, in the derived view
        if derived:
            for group in graph.groups:
                self.hidden.update(id(v) for v in group.hidden)
                self.collapsed[id(group.root)] = group
        self.group_of = {}  # id(Value) -> id of the derived operation it belongs to
        for group in graph.groups:
            for v in (group.root, *group.hidden):
                self.group_of.setdefault(id(v), self.ids[id(group.root)])

    def as_dict(self) -> dict:
        nodes, edges = self.nodes(), self.edges()
        forward, backward = self.schedules(nodes, edges)
        return {
            "nodes": nodes,
            "edges": edges,
            "forward": forward,
            "backward": backward,
            "groups": [] if self.derived else self.groups(),
        }

    def shown(self):
        """The Values this view draws, each after its inputs."""
        return [v for v in self.order if id(v) not in self.hidden]

    def nodes(self) -> list[dict]:
        graph, nodes = self.graph, []
        for value in self.shown():
            i = self.ids[id(value)]
            info = graph.ops.get(id(value), {})
            group = self.collapsed.get(id(value))
            nodes.append(
                {
                    "id": i,
                    "label": self.trace_nodes[i]["label"],
                    "kind": graph.kinds[id(value)],
                    "op": group.op if group else info.get("op", ""),
                    "exponent": info.get("exponent"),
                    "derived": group is not None,
                    "group": self.group_of.get(id(value)),
                    "data": self.trace_nodes[i]["data"],
                    "grad": self.trace_nodes[i]["grad"],
                    "span": list(graph.spans[id(value)]) if id(value) in graph.spans else None,
                }
            )
        return nodes

    def local(self, value, slot) -> float:
        """The engine's local derivative of `value` with respect to its input `slot`."""
        return self.inputs[self.ids[id(value)]][slot][1]

    def operands(self, value) -> list[tuple[int, float]]:
        """[(input id, local derivative)] of a node as this view draws it."""
        group = self.collapsed.get(id(value))
        if group is None:
            return self.inputs.get(self.ids[id(value)], [])
        return [
            (self.ids[id(operand)], math.prod(self.local(v, slot) for v, slot in path))
            for operand, path in group.operands
        ]

    def edges(self) -> list[dict]:
        edges = []
        for value in self.shown():
            target = self.ids[id(value)]
            grad = self.trace_nodes[target]["grad"]
            for slot, (source, local) in enumerate(self.operands(value)):
                edges.append(
                    {
                        "id": len(edges),
                        "source": source,
                        "target": target,
                        "slot": slot,
                        "local_grad": local,
                        "contribution": local * grad,
                    }
                )
        return edges

    def schedules(self, nodes, edges) -> tuple[list[int], list[dict]]:
        """The forward steps (operations, inputs first) and the backward steps."""
        by_target: dict[int, list[int]] = {}
        for e in edges:
            by_target.setdefault(e["target"], []).append(e["id"])
        visible = [n["id"] for n in nodes]
        forward = [n["id"] for n in nodes if n["kind"] == "operation"]
        # Backward: the root first (seeded with 1), then reverse topological order, so a
        # node's gradient is complete (every parent has sent its share) when it is reached.
        backward = [
            {"node": i, "grad": self.trace_nodes[i]["grad"], "sends": by_target.get(i, [])}
            for i in reversed(visible)
        ]
        return forward, backward

    def groups(self) -> list[dict]:
        """The outline of each derived operation around its primitives."""
        return [
            {
                "id": self.ids[id(g.root)],
                "op": g.op,
                "label": g.root.label,
                "members": [self.ids[id(v)] for v in (g.root, *g.hidden)],
            }
            for g in self.graph.groups
        ]


def _check_gradients(data: dict, text: str) -> None:
    for node in data["nodes"]:
        if not math.isfinite(node["grad"]):
            name = node["label"]
            raise ExpressionError(
                f"the gradient of {name or 'a node'} is too large for a float here; "
                "use smaller values",
                0,
                len(text),
                key="explorer.error.gradientTooLarge"
                if name
                else "explorer.error.nodeGradientTooLarge",
                values={"label": name} if name else {},
            )


def explore(text, values=None) -> dict:
    """Everything the explorer shows for `text` with the variables set to `values`.

    Returns {"ok": True, "expression", "variables": [{"name", "value"}], "trace" (the
    engine's `trace` of the root after backward), "views": {"derived", "primitive"}}
    or {"ok": False, "error": {"message", "start", "end", "key", "values"}} ("key" and
    "values": the page's message for it, web/locales; see ExpressionError). Never raises
    for bad input.
    """
    try:
        graph = build(text, values)
        graph.root.backward()
        data = trace(graph.root)
        _check_gradients(data, text)
    except ExpressionError as exc:
        return {"ok": False, "error": exc.to_dict()}
    return {
        "ok": True,
        "expression": label(graph.tree),
        "variables": [{"name": n, "value": graph.leaves[n].data} for n in graph.names],
        "trace": data,
        "views": {
            "derived": _View(graph, data, derived=True).as_dict(),
            "primitive": _View(graph, data, derived=False).as_dict(),
        },
    }

"""Forward + backward of one MLP graph: engine.Value against the textbook Value.

The graph: 32 inputs, three tanh layers of 64 units, summed to one output — about
31,000 nodes as the engine counts them (every +, *, tanh and leaf). Both implementations build the same graph from the same weights; runs
alternate so that machine noise hits both alike.
"""

import gc
import random
import statistics
import time

from engine import Value

from .textbook_value import TextbookValue

SIZES = [32, 64, 64, 64]


def make_weights(seed=0):
    rng = random.Random(seed)
    return [
        [[rng.uniform(-1, 1) / n_in**0.5 for _ in range(n_in + 1)] for _ in range(n_out)]
        for n_in, n_out in zip(SIZES, SIZES[1:])
    ]


def build(cls, weights, inputs):
    """Wrap every number in `cls`, run the MLP forward and return (root, leaf Values)."""
    params = [[[cls(w) for w in row] for row in layer] for layer in weights]
    x = [cls(v) for v in inputs]
    for layer in params:
        x = [sum((w * xi for w, xi in zip(row[:-1], x)), row[-1]).tanh() for row in layer]
    root = sum(x[1:], x[0])
    leaves = [w for layer in params for row in layer for w in row]
    return root, leaves


def count_nodes(root):
    return len(root.topological_order())


def time_one(cls, weights, inputs):
    t0 = time.perf_counter()
    root, _ = build(cls, weights, inputs)
    t1 = time.perf_counter()
    root.backward()
    t2 = time.perf_counter()
    del root  # freeing the graph is part of the cost: the textbook graph's closures form
    gc.collect()  # reference cycles, so only the cycle collector can free it
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def run(rounds=7):
    weights = make_weights()
    inputs = [random.Random(1).uniform(-1, 1) for _ in range(SIZES[0])]
    root, _ = build(Value, weights, inputs)
    nodes = count_nodes(root)
    del root
    results = {"engine": [], "textbook": []}
    for _ in range(rounds):
        for name, cls in (("engine", Value), ("textbook", TextbookValue)):
            results[name].append(time_one(cls, weights, inputs))

    def median(name, part):
        return statistics.median(r[part] for r in results[name])

    report = {"nodes": nodes}
    for name in results:
        forward, backward, collect = (median(name, i) for i in range(3))
        report[name] = {
            "forward_ms": 1e3 * forward,
            "backward_ms": 1e3 * backward,
            "free_ms": 1e3 * collect,
            "total_ms": 1e3 * (forward + backward + collect),
            "backward_nodes_per_s": nodes / backward,
        }
    report["speedup_total"] = report["textbook"]["total_ms"] / report["engine"]["total_ms"]
    report["speedup_backward"] = report["textbook"]["backward_ms"] / report["engine"]["backward_ms"]
    print(f"MLP graph 32-64-64-64 (tanh), {nodes:,} nodes, median of {rounds} alternating runs")
    print(
        f"{'':10} {'forward':>10} {'backward':>10} {'free':>8} {'total':>10} {'backward nodes/s':>18}"
    )
    for name in ("engine", "textbook"):
        r = report[name]
        print(
            f"{name:10} {r['forward_ms']:>8.1f}ms {r['backward_ms']:>8.1f}ms {r['free_ms']:>6.1f}ms"
            f" {r['total_ms']:>8.1f}ms {r['backward_nodes_per_s']:>18,.0f}"
        )
    print(
        f"engine is {report['speedup_total']:.2f}x the textbook Value overall "
        f"({report['speedup_backward']:.2f}x on backward alone); target 3x, goal 5x"
    )
    return report

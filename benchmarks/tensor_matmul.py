"""A matrix product and its backward pass: n x n matrices of `Value`s against `Tensor`s.

Both compute L = sum_ij G_ij (A B)_ij for the same random A, B and G, then L.backward().
With Values, the product alone is n^3 multiplications and n^2 (n - 1) additions, each a
node; with Tensors it is one node. Runs alternate so that machine noise hits both alike;
each time includes building the graph, the backward pass and freeing the graph (neither
graph holds reference cycles, so freeing it is part of `del`).
"""

import random
import statistics
import time
from functools import reduce
from operator import add

from engine import Value
from engine.tensor import Tensor

SIZES = (8, 16, 32)


def matrices(n, seed=0):
    rng = random.Random(seed)
    return [[[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)] for _ in range(3)]


def with_values(a, b, g):
    """(L, [leaves of A and B]) with every number a Value."""
    n = len(a)
    A = [[Value(x) for x in row] for row in a]
    B = [[Value(x) for x in row] for row in b]
    C = [[reduce(add, (A[i][p] * B[p][j] for p in range(n))) for j in range(n)] for i in range(n)]
    loss = reduce(add, (C[i][j] * g[i][j] for i in range(n) for j in range(n)))
    return loss, [v for row in A + B for v in row]


def with_tensors(a, b, g):
    A, B = Tensor(a), Tensor(b)
    return ((A @ B) * Tensor(g)).sum(), [A, B]


def value_nodes(n):
    """The nodes of with_values(n): 2 n^2 leaves, n^3 products, n^2 (n - 1) additions in
    the product; n^2 products by G (constants wrapped as leaves, n^2) and n^2 - 1 additions."""
    return 2 * n * n + n**3 + n * n * (n - 1) + 2 * n * n + n * n - 1


def time_one(build, a, b, g):
    start = time.perf_counter()
    loss, _ = build(a, b, g)
    loss.backward()
    del loss  # no reference cycles in either graph: freed here, by reference counting
    return time.perf_counter() - start


def run(rounds=5):
    report = {}
    for n in SIZES:
        a, b, g = matrices(n)
        loss, leaves = with_values(a, b, g)
        nodes = len(loss.topological_order())
        assert nodes == value_nodes(n), (nodes, value_nodes(n))
        t_loss, (A, B) = with_tensors(a, b, g)
        t_loss.backward()
        loss.backward()
        worst = max(abs(v.grad - t) for v, t in zip(leaves, A.grad + B.grad))
        del loss, leaves
        times = {"values": [], "tensors": []}
        for _ in range(rounds):
            times["values"].append(time_one(with_values, a, b, g))
            times["tensors"].append(time_one(with_tensors, a, b, g))
        ms = {name: 1e3 * statistics.median(ts) for name, ts in times.items()}
        report[n] = {
            "value_nodes": nodes,
            "tensor_nodes": 6,  # A, B, G, A @ B, the product with G, the sum
            "values_ms": ms["values"],
            "tensors_ms": ms["tensors"],
            "speedup": ms["values"] / ms["tensors"],
            "largest_gradient_difference": worst,
        }
        print(
            f"n = {n:3}: {nodes:7,} Value nodes {ms['values']:9.2f} ms | 6 Tensor nodes "
            f"{ms['tensors']:7.3f} ms | {ms['values'] / ms['tensors']:6.1f}x | "
            f"gradients agree to {worst:.1e}"
        )
    return report


if __name__ == "__main__":
    run()

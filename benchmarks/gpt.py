"""One microGPT training step: engine.gpt on engine.Value against the microGPT-style baseline.

A step is what `engine.gpt.train_step` does with one name: zero the gradients, run the
model over the name (teacher forcing, KV cache), average the next-token losses,
backward, one Adam update, and freeing the graph. Three contestants train the same 4,192 weights (copied
from one `init_gpt(seed=0)`) on the same names, one step each per round, in turn, so
machine noise hits them alike:

    baseline     benchmarks/microgpt_value.py: microGPT's Value (local gradients,
                 __slots__, recursive topological sort) and its model code
                 (one Value per * and +)
    plain        the same model code on engine.Value (isolates the Value class)
    engine       engine.gpt on engine.Value (one Value per dot product, softmax
                 output, norm scale and loss)

Before timing, the three losses and the gradients of every weight are checked to
agree, so all three compute the same step.
"""

import gc
import statistics
import time

from engine import Value
from engine.data import load_names
from engine.gpt import document_loss, init_gpt, make_optimizer
from engine.tokenizer import Tokenizer

from . import microgpt_value as baseline
from .microgpt_value import MicroValue


def _copy(params, cls):
    return {name: [[cls(p.data) for p in row] for row in m] for name, m in params.items()}


def _flat(params):
    return [p for m in params.values() for row in m for p in row]


class Contestant:
    """One implementation: its weights, its Adam, and how it computes a loss."""

    def __init__(self, name, params, loss_of):
        self.name, self.params, self.loss_of = name, params, loss_of
        self.flat = _flat(params)
        self.optimizer = make_optimizer_for(self.flat)
        self.times = []

    def step(self, tokens):
        t0 = time.perf_counter()
        self.optimizer.zero_grad()
        loss = self.loss_of(self.params, tokens)
        loss.backward()
        self.optimizer.step()
        del loss  # engine.Value's graph is freed here, by reference counting
        t1 = time.perf_counter()
        # The baseline's recursive sort leaves a reference cycle (its nested function refers
        # to itself) that keeps every node alive until the cycle collector runs. Collecting
        # now stops one contestant's garbage from being collected in another's step; the
        # time is reported apart, since a full collection also walks every live object.
        gc.collect()
        self.times.append((t1 - t0, time.perf_counter() - t1))


def make_optimizer_for(flat):
    """engine.gpt's Adam settings, over any list of objects with .data and .grad."""

    class _Holder:
        def parameters(self):
            return flat

    return make_optimizer(_Holder(), lr=0.01)


def contestants(model):
    cfg = model.config

    def baseline_loss(params, tokens):
        return baseline.document_loss(params, cfg.n_layer, cfg.n_head, cfg.block_size, tokens)

    def engine_loss(params, tokens):
        return document_loss(model, tokens)

    return [
        Contestant("baseline", _copy(model.params, MicroValue), baseline_loss),
        Contestant("plain", _copy(model.params, Value), baseline_loss),
        Contestant("engine", model.params, engine_loss),
    ]


def check_same_step(model, tokens, tol=1e-9):
    """Raise if the three implementations disagree on a loss or on any gradient."""
    runs = contestants(model)
    results = []
    for c in runs:
        loss = c.loss_of(c.params, tokens)
        loss.backward()
        results.append((loss.data, [p.grad for p in c.flat]))
        for p in c.flat:
            p.grad = 0.0
    (l0, g0) = results[0]
    for c, (loss, grads) in zip(runs[1:], results[1:]):
        worst = max(abs(a - b) for a, b in zip(grads, g0))
        if abs(loss - l0) > tol or worst > tol:
            raise AssertionError(
                f"{c.name} disagrees with the baseline: loss {loss} vs {l0}, "
                f"largest gradient difference {worst:.3g}"
            )


def run(rounds=24, seed=0):
    model = init_gpt(seed=seed)
    tok = Tokenizer()
    names = load_names()[::97][:rounds]  # names of every length, spread over the alphabet
    docs = [tok.encode(n) for n in names]
    check_same_step(model, docs[0])
    runs = contestants(model)
    positions = sum(len(d) - 1 for d in docs)
    nodes = {
        c.name: len(c.loss_of(c.params, docs[0]).topological_order())
        for c in runs
        if c.name != "baseline"
    }
    gc.collect()
    for tokens in docs:
        for c in runs:
            c.step(tokens)
    report = {"steps": len(docs), "mean_positions": positions / len(docs)}
    for c in runs:
        report[c.name] = {
            "median_ms": 1e3 * statistics.median(a for a, _ in c.times),
            "total_ms": 1e3 * sum(a for a, _ in c.times),
            "collect_ms": 1e3 * sum(b for _, b in c.times),
        }
    base = report["baseline"]
    report["speedup"] = base["total_ms"] / report["engine"]["total_ms"]
    report["speedup_value_only"] = base["total_ms"] / report["plain"]["total_ms"]
    report["speedup_with_collection"] = (base["total_ms"] + base["collect_ms"]) / (
        report["engine"]["total_ms"] + report["engine"]["collect_ms"]
    )
    report["graph_nodes_first_name"] = nodes

    print(
        f"microGPT training step (4,192 weights, 1 name per step, "
        f"{report['mean_positions']:.1f} positions on average), {len(docs)} alternating rounds"
    )
    print(f"{'':9} {'median':>9} {'total':>9} {'+ gc.collect':>13}   {'nodes':>7} for {names[0]!r}")
    labels = {
        "baseline": "microGPT Value + microGPT model code",
        "plain": "engine.Value + microGPT model code",
        "engine": "engine.Value + engine.gpt",
    }
    for c in runs:
        r = report[c.name]
        count = f"{nodes[c.name]:>7,}" if c.name in nodes else f"{'':>7}"
        print(
            f"{c.name:9} {r['median_ms']:>7.1f}ms {r['total_ms']:>7.0f}ms {r['collect_ms']:>11.0f}ms"
            f"   {count}  {labels[c.name]}"
        )
    print(
        f"engine.gpt is {report['speedup']:.2f}x the microGPT-style baseline per step "
        f"({report['speedup_with_collection']:.2f}x counting the cycle collector); goal 2x. "
        f"engine.Value alone, same model code: {report['speedup_value_only']:.2f}x"
    )
    return report


if __name__ == "__main__":
    run()

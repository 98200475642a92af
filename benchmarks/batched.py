"""Batches against one example at a time: days 33 and 34, in CPython and in Pyodide.

Two models, each timed both ways on the same weights and the same data:

    mlp   one training step (forward, backward, Adam) of day 21's MLP language model on
          32 examples: day 21's scalar model in Values (engine.gpt.linear), against
          engine.batched on the batch at once
    gpt   one forward and backward pass of microGPT over a batch of names of 4 letters
          (8, then 32): engine.gpt one token at a time, against engine.batched_gpt

Before timing, the two losses of each pair are checked to agree. Each contestant's time
is the median of ROUNDS runs, taken in turn so that machine noise hits both alike. The
same code then runs in Pyodide under Node.js (tests/pyodide/run_cells.mjs, with
node_modules/pyodide from `npm ci`) when both are there; otherwise that half is skipped.
"""

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 5

# Runs as it is in both interpreters: it defines measure() -> dict of milliseconds.
CODE = """
import random, statistics, time
from engine import Value
from engine.batched import Adam, batch, examples, init_mlp_lm
from engine.batched_gpt import batch_of_names, from_gpt, loss
from engine.data import load_names
from engine.gpt import cross_entropy, document_loss, init_gpt, linear, mean
from engine.optim import Adam as ValueAdam
from engine.tokenizer import Tokenizer


def _median_ms(pairs, rounds):
    times = {name: [] for name in pairs}
    for _ in range(rounds):
        for name, step in pairs.items():
            t0 = time.perf_counter()
            step()
            times[name].append(time.perf_counter() - t0)
    return {name: 1e3 * statistics.median(ts) for name, ts in times.items()}


def _mlp(rounds):
    tok = Tokenizer()
    X, Y = examples([tok.encode(n) for n in load_names()], 3, tok.bos)
    xb, yb = batch(X, Y, 32, random.Random(0))
    model = init_mlp_lm(seed=0)
    rows = lambda t: [[Value(v) for v in r] for r in t.tolist()]
    C, W1, W2 = rows(model.C), rows(model.W1), rows(model.W2)
    b1, b2 = [Value(v) for v in model.b1.data], [Value(v) for v in model.b2.data]
    params = [v for M in (C, W1, W2) for r in M for v in r] + b1 + b2

    def logits(context):
        x = [v for t in context for v in C[t]]
        h = [(a + b).tanh() for a, b in zip(linear(x, W1), b1)]
        return [a + b for a, b in zip(linear(h, W2), b2)]

    scalar = mean([cross_entropy(logits(c), y) for c, y in zip(xb, yb)]).data
    assert abs(scalar - model.loss(xb, yb).item()) < 1e-12, "the two MLPs disagree"
    value_opt, tensor_opt = ValueAdam(params, lr=0.001), Adam(model.parameters(), lr=0.001)

    def one_at_a_time():
        value_opt.zero_grad()
        mean([cross_entropy(logits(c), y) for c, y in zip(xb, yb)]).backward()
        value_opt.step()

    def as_a_batch():
        tensor_opt.zero_grad()
        model.loss(xb, yb).backward()
        tensor_opt.step()

    return _median_ms({"scalar": one_at_a_time, "batched": as_a_batch}, rounds)


def _gpt(rounds, size):
    tok = Tokenizer()
    docs = [tok.encode(n) for n in load_names() if len(n) == 4][:size]
    model = init_gpt(seed=0)
    params = from_gpt(model)
    idx, targets = batch_of_names(docs)
    scalar = mean([document_loss(model, d) for d in docs]).data
    assert abs(scalar - loss(params, model.config, idx, targets).item()) < 1e-12

    def one_at_a_time():
        mean([document_loss(model, d) for d in docs]).backward()

    def as_a_batch():
        loss(params, model.config, idx, targets).backward()

    return _median_ms({"scalar": one_at_a_time, "batched": as_a_batch}, rounds)


def measure(rounds):
    return {
        "mlp, 32 examples": _mlp(rounds),
        "gpt, 8 names": _gpt(rounds, 8),
        "gpt, 32 names": _gpt(rounds, 32),
    }
"""


def _with_ratios(times):
    return {name: {**ms, "ratio": ms["scalar"] / ms["batched"]} for name, ms in times.items()}


def cpython(rounds=ROUNDS):
    namespace = {}
    exec(compile(CODE, "benchmarks/batched.py:CODE", "exec"), namespace)
    return _with_ratios(namespace["measure"](rounds))


def pyodide(rounds=ROUNDS):
    """The same measurement in Pyodide under Node.js, or None when either is missing."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return None
    code = CODE + f"\nimport json\nprint('RESULT', json.dumps(measure({int(rounds)})))\n"
    with tempfile.TemporaryDirectory() as tmp:
        pages = Path(tmp) / "pages.json"
        results = Path(tmp) / "results.json"
        pages.write_text(
            json.dumps([{"page": "batched", "cells": [{"code": code, "timeout": 600}]}])
        )
        subprocess.run(
            [node, str(ROOT / "tests" / "pyodide" / "run_cells.mjs"), str(pages), str(results)],
            cwd=ROOT,
            check=True,
            capture_output=True,
            timeout=900,
        )
        (cell,) = json.loads(results.read_text())[0]["cells"]
    lines = [line for line in cell["stdout"].splitlines() if line.startswith("RESULT ")]
    if not lines:
        raise RuntimeError(f"the Pyodide run printed no result: {cell.get('error') or cell}")
    return _with_ratios(json.loads(lines[-1][len("RESULT ") :]))


def run():
    report = {"cpython": cpython(), "pyodide": pyodide()}
    for where, times in report.items():
        if times is None:
            print(f"{where}: skipped (needs Node.js and node_modules/pyodide)")
            continue
        for name, ms in times.items():
            print(
                f"{where:>8} {name:<17} one at a time {ms['scalar']:8.1f} ms, "
                f"batched {ms['batched']:7.1f} ms: {ms['ratio']:.1f} x"
            )
    return report

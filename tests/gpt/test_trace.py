"""engine.gpt's optional recorders: `gpt(..., trace=dict)` and attention's `record` list.

Recording must change nothing: the same logits, the same KV cache, the same gradients as
the default path, which itself still agrees with the microGPT-style model code of
benchmarks/microgpt_value.py (an implementation written one Value per * and +).
"""

import math

import pytest

from benchmarks import microgpt_value as baseline
from engine import Value
from engine.gpt import (
    GPTConfig,
    attention,
    document_loss,
    gpt,
    init_gpt,
    new_kv_cache,
)
from engine.tokenizer import Tokenizer

TOK = Tokenizer()


def run(model, tokens, traced):
    keys, values = new_kv_cache(model.config)
    traces, logits = [], []
    for pos, token in enumerate(tokens):
        trace = {} if traced else None
        logits.append([v.data for v in gpt(model, token, pos, keys, values, trace)])
        traces.append(trace)
    cache = [[[v.data for v in k] for k in layer] for layer in keys + values]
    return logits, cache, traces


@pytest.mark.parametrize("config", [GPTConfig(), GPTConfig(n_layer=2, n_embd=8, n_head=2)])
def test_tracing_changes_no_number(config):
    model = init_gpt(config, seed=7)
    tokens = TOK.encode("olivia")[:-1]
    plain_logits, plain_cache, _ = run(model, tokens, traced=False)
    logits, cache, traces = run(model, tokens, traced=True)
    assert logits == plain_logits and cache == plain_cache
    for pos, trace in enumerate(traces):
        assert set(trace) == {"tok_emb", "pos_emb", "x", "embed", "layers", "logits"}
        assert len(trace["layers"]) == config.n_layer
        for layer in trace["layers"]:
            assert len(layer["heads"]) == config.n_head
            assert all(len(w) == pos + 1 for w in layer["heads"])
            assert len(layer["after_attn"]) == len(layer["after_mlp"]) == config.n_embd
        assert [v.data for v in trace["logits"]] == logits[pos]
        assert trace["tok_emb"] is model.params["wte"][tokens[pos]]
        assert trace["pos_emb"] is model.params["wpe"][pos]


def test_traced_vectors_are_the_graphs_own_values():
    # After a backward of the last logit, the recorded input vector holds its gradient:
    # the trace keeps the Values that were computed with, not copies.
    model = init_gpt(seed=1)
    keys, values = new_kv_cache(model.config)
    traces = []
    for pos, token in enumerate(TOK.encode("ann")[:-1]):
        traces.append({})
        logits = gpt(model, token, pos, keys, values, traces[-1])
    logits[0].backward()
    assert all(isinstance(v, Value) for v in traces[0]["x"])
    assert any(v.grad != 0.0 for v in traces[0]["x"])  # position 0 reaches position 3


def test_attention_records_each_heads_weights_in_order():
    q = [Value(x) for x in (0.5, -1.0, 2.0, 0.1)]
    keys = [[Value(x) for x in k] for k in ((1.0, 0.0, 0.5, 0.2), (0.3, 0.3, -1.0, 1.0))]
    values = [[Value(x) for x in v] for v in ((1.0, 2.0, 3.0, 4.0), (5.0, 6.0, 7.0, 8.0))]
    record = []
    out = attention(q, keys, values, n_head=2, record=record)
    assert [v.data for v in out] == [v.data for v in attention(q, keys, values, n_head=2)]
    assert len(record) == 2 and all(len(w) == 2 for w in record)
    # head 0 reads dims 0-1: scores (0.5*1 + -1*0)/sqrt(2) and (0.5*0.3 - 1*0.3)/sqrt(2)
    s = [0.5 / math.sqrt(2), -0.15 / math.sqrt(2)]
    e = [math.exp(x) for x in s]
    assert [w.data for w in record[0]] == pytest.approx([x / sum(e) for x in e], abs=1e-15)
    # and its output dim 0 is the weighted mean of the values' dim 0
    assert out[0].data == pytest.approx(record[0][0].data * 1.0 + record[0][1].data * 5.0)


def test_default_path_agrees_with_the_one_value_per_operation_code():
    model = init_gpt(seed=11)
    params = {
        n: [[baseline.MicroValue(p.data) for p in row] for row in m]
        for n, m in model.params.items()
    }
    tokens = TOK.encode("emma")
    ours = document_loss(model, tokens)
    theirs = baseline.document_loss(params, 1, 4, 16, tokens)
    ours.backward()
    theirs.backward()
    assert ours.data == pytest.approx(theirs.data, abs=1e-12)
    flat = [p for m in params.values() for row in m for p in row]
    assert max(abs(a.grad - b.grad) for a, b in zip(model.parameters(), flat)) < 1e-12

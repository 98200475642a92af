"""Day 25 · microGPT: assemble the model from its parts.

Lesson: docs/lessons/day25_microgpt.md

`model.config` holds the sizes (vocab_size, n_embd, n_head, n_layer, block_size) and
`model.params` the matrices, each a list of rows of Values:

    wte        vocab_size x n_embd     one row per token
    wpe        block_size x n_embd     one row per position
    lm_head    vocab_size x n_embd     the last vector -> one logit per token
    for each layer i (i = 0 .. n_layer - 1), named f"layer{i}.<name>":
      attn_wq, attn_wk, attn_wv, attn_wo     n_embd x n_embd
      mlp_fc1                                4 n_embd x n_embd
      mlp_fc2                                n_embd x 4 n_embd

One position of the model:

    x = rmsnorm(wte[token] + wpe[pos])
    for every layer:
        x = x + attn_wo @ attention(attn_wq @ n, keys, values)   with n = rmsnorm(x),
            after appending attn_wk @ n to keys[i] and attn_wv @ n to values[i]
        x = x + mlp_fc2 @ relu(mlp_fc1 @ rmsnorm(x))
    logits = lm_head @ x

The building blocks are given (engine.gpt): linear(x, w) is w @ x, rmsnorm(x),
attention(q, keys, values, n_head), cross_entropy(logits, target), mean(values),
new_kv_cache(config) -> (keys, values), one empty list per layer in each.

Check your work:  python -m grader --exercise day25_microgpt.py
"""

from engine.gpt import (  # noqa: F401 (the building blocks your model uses)
    attention,
    cross_entropy,
    init_gpt,
    linear,
    mean,
    new_kv_cache,
    rmsnorm,
)


def gpt(model, token_id, pos_id, keys, values):
    """The logits for the token after `token_id` at position `pos_id` (a list of Values).

    Appends this position's key and value, layer by layer, to keys[i] and values[i].
    """
    P, C = model.params, model.config
    tok = P["wte"][token_id]
    where = P["wpe"][pos_id]
    h = rmsnorm([tok[j] + where[j] for j in range(len(tok))])
    for layer in range(C.n_layer):
        name = "layer" + str(layer) + "."
        normed = rmsnorm(h)
        query = linear(normed, P[name + "attn_wq"])
        keys[layer].append(linear(normed, P[name + "attn_wk"]))
        values[layer].append(linear(normed, P[name + "attn_wv"]))
        mixed = attention(query, keys[layer], values[layer], C.n_head)
        attn_out = linear(mixed, P[name + "attn_wo"])
        h = [h[j] + attn_out[j] for j in range(len(h))]
        hidden = [unit.relu() for unit in linear(rmsnorm(h), P[name + "mlp_fc1"])]
        mlp_out = linear(hidden, P[name + "mlp_fc2"])
        h = [h[j] + mlp_out[j] for j in range(len(h))]
    return linear(h, P["lm_head"])


def name_loss(model, tokens):
    """The mean cross-entropy of predicting tokens[1:] from the tokens before them (a Value).

    `tokens` is an encoded name, BOS on both ends; use one fresh KV cache for the name.
    """
    cache_k, cache_v = new_kv_cache(model.config)
    per_token = []
    for i in range(len(tokens) - 1):
        logits = gpt(model, tokens[i], i, cache_k, cache_v)
        per_token.append(cross_entropy(logits, tokens[i + 1]))
    return mean(per_token)


if __name__ == "__main__":
    import math

    model = init_gpt(seed=0)
    emma = [26, 4, 12, 12, 0, 26]
    loss = name_loss(model, emma)
    loss.backward()
    print(f"loss {loss.data:.4f} (log 27 = {math.log(27):.4f}: a fresh model is close to it)")

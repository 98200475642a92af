"""Day 28 · The KV cache: the logits of every position, with and without a cache.

Lesson: docs/lessons/day28_kv_cache.md

`gpt(model, token_id, pos_id, keys, values)` (given, from engine.gpt) returns the logits
after `token_id` at position `pos_id` and appends that position's key and value to the
cache `(keys, values)`, which `new_kv_cache(model.config)` makes empty.

  logits_without_cache(model, tokens)
      for every position t: a fresh cache, gpt over positions 0..t of tokens, and
      keep only the last call's logits. (n (n + 1) / 2 calls of gpt for n positions.)
  logits_with_cache(model, tokens)
      one cache for the whole sequence, one call of gpt per position. (n calls.)

Both return a list with one list of logits per position of `tokens`, and the two
must be identical. Call `gpt` as imported here: the checks count the calls.

Check your work:  python -m grader --exercise day28_kv_cache.py
"""

from engine.gpt import gpt, init_gpt, new_kv_cache  # noqa: F401 (used by your code)


def logits_without_cache(model, tokens):
    """The logits of every position, each recomputed from position 0."""
    out = []
    for t in range(len(tokens)):
        keys, values = new_kv_cache(model.config)
        for pos in range(t + 1):
            logits = gpt(model, tokens[pos], pos, keys, values)
        out.append(logits)
    return out


def logits_with_cache(model, tokens):
    """The logits of every position, each position run once with one shared cache."""
    keys, values = new_kv_cache(model.config)
    return [gpt(model, token, pos, keys, values) for pos, token in enumerate(tokens)]


if __name__ == "__main__":
    model = init_gpt(seed=28)
    tokens = [26, 4, 12, 12, 0]
    slow = logits_without_cache(model, tokens)
    fast = logits_with_cache(model, tokens)
    same = all(a.data == b.data for x, y in zip(slow, fast) for a, b in zip(x, y))
    print("identical logits:", same)

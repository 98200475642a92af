"""Day 30 · Your GPT: measure it on names it never saw.

Lesson: docs/lessons/day30_your_gpt.md

  held_out_loss(model, docs)   the mean of -log p(next token) over every prediction in
                               every encoded name of `docs` (each BOS ... BOS): sum the
                               losses of all positions of all names, divide by how many
                               predictions there were. Return a float.
  perplexity(loss)             e ** loss: "as unsure as a choice among this many".
  bits_per_character(loss)     loss / log 2: yes/no questions per letter.

Given (engine.gpt): gpt(model, token_id, pos_id, keys, values), new_kv_cache(config),
cross_entropy(logits, target) -> Value.

Check your work:  python -m grader --exercise day30_your_gpt.py
"""

import math  # noqa: F401 (for exp and log)

from engine.gpt import cross_entropy, gpt, init_gpt, new_kv_cache  # noqa: F401 (used by your code)


def held_out_loss(model, docs):
    """Mean next-token loss per predicted token over the encoded names `docs` (a float)."""
    total, count = 0.0, 0
    for tokens in docs:
        keys, values = new_kv_cache(model.config)
        for pos in range(len(tokens) - 1):
            logits = gpt(model, tokens[pos], pos, keys, values)
            total += cross_entropy(logits, tokens[pos + 1]).data
            count += 1
    return total / count


def perplexity(loss):
    """e to the power of the loss."""
    return math.exp(loss)


def bits_per_character(loss):
    """The loss in bits: divided by log 2."""
    return loss / math.log(2)


if __name__ == "__main__":
    from engine.tokenizer import Tokenizer

    tok = Tokenizer()
    model = init_gpt(seed=0)
    loss = held_out_loss(model, [tok.encode(n) for n in ("emma", "olivia", "ava")])
    print(
        f"untrained: loss {loss:.4f}, perplexity {perplexity(loss):.2f} (27 is uniform), "
        f"{bits_per_character(loss):.3f} bits per character"
    )

"""Day 21 · An MLP language model: a window of tokens in, 27 logits out.

Lesson: docs/lessons/day21_mlp_language_model.md

1. context_examples(ids, block_size, bos): the training examples of one encoded name
   (`ids` has BOS at both ends). The context starts as `block_size` BOS ids; for every
   id after the first, emit (context, id) with the context as a tuple, then slide the
   window: drop its oldest id and append this one. A name of n letters gives n + 1
   examples.
2. mlp_logits(context, C, W1, b1, W2, b2): the forward pass.
       x = the rows C[t] of the context's ids, laid end to end (block_size * E Values)
       h = tanh(W1 x + b1)      one number per row of W1
       z = W2 h + b2            one logit per row of W2
   Return z, a list of Values (W1, W2 are lists of rows; b1, b2 lists of Values).

Check your work:  python -m grader --exercise day21_mlp_language_model.py
"""


def context_examples(ids, block_size, bos):
    """[(context tuple, next id), ...] for every prediction of one encoded name."""
    context, out = [bos] * block_size, []
    for token in ids[1:]:
        out.append((tuple(context), token))
        context = context[1:] + [token]
    return out


def mlp_logits(context, C, W1, b1, W2, b2):
    """The logits z = W2 tanh(W1 x + b1) + b2, x the context's embeddings end to end."""
    x = [v for t in context for v in C[t]]
    h = [(sum(w * xi for w, xi in zip(row, x)) + b).tanh() for row, b in zip(W1, b1)]
    return [sum(w * hi for w, hi in zip(row, h)) + b for row, b in zip(W2, b2)]


if __name__ == "__main__":
    from engine import Value

    print(context_examples([26, 0, 21, 0, 26], 3, 26))
    # expect [((26, 26, 26), 0), ((26, 26, 0), 21), ((26, 0, 21), 0), ((0, 21, 0), 26)]
    C = [[Value(1.0)], [Value(-1.0)], [Value(0.5)]]
    W1, b1 = [[Value(1.0), Value(-1.0)]], [Value(0.0)]
    W2, b2 = [[Value(2.0)], [Value(0.0)], [Value(-2.0)]], [Value(0.0)] * 3
    z = mlp_logits((2, 0), C, W1, b1, W2, b2)
    print([round(v.data, 6) for v in z])  # expect [-0.924234, 0.0, 0.924234]

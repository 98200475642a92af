"""Day 41 · The bridge: what a GPT of nanoGPT's size costs.

Lesson: docs/lessons/day41_pytorch.md

Plain Python, whole numbers: no torch and no engine are needed.

1. parameter_count(vocab_size, block_size, n_layer, n_embd, bias=True, tied=True,
   count_positions=True): the number of learnt numbers in a GPT-2-style model:
     - a token embedding table (vocab_size x n_embd) and a position embedding table
       (block_size x n_embd);
     - n_layer blocks, each with: a LayerNorm before attention and one before the MLP
       (a gain of n_embd numbers each, and a bias of n_embd numbers when `bias`);
       attention's query, key and value matrices (each n_embd x n_embd) and its output
       projection (n_embd x n_embd); the MLP's two matrices, n_embd -> 4 n_embd ->
       n_embd; and, when `bias`, a bias on each of these six Linear layers, one number
       per output;
     - a final LayerNorm after the last block (gain, and bias when `bias`);
     - the output head (vocab_size x n_embd, never a bias). With `tied`, the head IS the
       token embedding table (weight tying): count that matrix once.
   With count_positions=False, leave the position embeddings out of the count (what
   nanoGPT's get_num_params() reports by default).
2. tokens_per_step(batch_size, block_size, accumulation_steps, n_gpus): how many tokens
   one optimiser step learns from, when each of n_gpus processes runs
   accumulation_steps micro-batches of batch_size sequences of block_size tokens.
3. training_flops(n_params, tokens_per_step, steps): the approximate compute of a
   training run, 6 N D floating-point operations, with D the tokens of all the steps.

Check your work:  python -m grader --exercise day41_pytorch.py
"""


def parameter_count(
    vocab_size, block_size, n_layer, n_embd, bias=True, tied=True, count_positions=True
):
    """The learnt numbers of a GPT-2-style model of these sizes (an int)."""
    norm = 2 * n_embd if bias else n_embd  # a LayerNorm: gain, and bias when `bias`
    attention = 4 * n_embd * n_embd + (4 * n_embd if bias else 0)  # q, k, v and output
    mlp = 8 * n_embd * n_embd + (5 * n_embd if bias else 0)  # 4 n_embd outputs, then n_embd
    block = 2 * norm + attention + mlp
    total = vocab_size * n_embd + n_layer * block + norm  # tokens, blocks, final LayerNorm
    if count_positions:
        total += block_size * n_embd
    if not tied:
        total += vocab_size * n_embd  # a head of its own
    return total


def tokens_per_step(batch_size, block_size, accumulation_steps, n_gpus):
    """The tokens behind one optimiser step (an int)."""
    return batch_size * block_size * accumulation_steps * n_gpus


def training_flops(n_params, tokens_per_step, steps):
    """About 6 N D floating-point operations: N parameters, D tokens in all."""
    tokens = tokens_per_step * steps
    return 6 * n_params * tokens


if __name__ == "__main__":
    print(parameter_count(50257, 1024, 12, 768))  # GPT-2 small: expect 124439808
    print(parameter_count(65, 256, 6, 384, bias=False, count_positions=False))
    # nanoGPT's Shakespeare model, as it reports itself: expect 10646784
    print(tokens_per_step(12, 1024, 5, 8))  # expect 491520
    print(f"{training_flops(124_439_808, 491_520, 600_000):.3e}")  # expect 2.202e+20

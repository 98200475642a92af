"""Day 41 · The bridge: what a GPT of nanoGPT's size costs.

Lesson: docs/lessons/day41_pytorch.md

Plain Python: no torch and no engine are needed.

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
2. micro_batches(target_tokens, batch_size, block_size, n_gpus): how many micro-batches
   each of n_gpus processes must accumulate before one optimiser step, so that the step
   learns from at least target_tokens tokens, when a micro-batch holds batch_size
   sequences of block_size tokens (the four-GPU question of the lesson, turned round).
3. training_days(flops, n_gpus, flops_per_gpu, utilisation): how many days a training run
   of `flops` floating-point operations takes on n_gpus GPUs, each able to do at most
   flops_per_gpu operations per second and kept busy a fraction `utilisation` (between 0
   and 1) of that peak. A float.

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


def micro_batches(target_tokens, batch_size, block_size, n_gpus):
    """Micro-batches per GPU for one step of at least target_tokens tokens (an int)."""
    per_round = batch_size * block_size * n_gpus  # one micro-batch on every GPU
    return (target_tokens + per_round - 1) // per_round  # rounded up: a part-round still runs


def training_days(flops, n_gpus, flops_per_gpu, utilisation):
    """Days that `flops` operations take on n_gpus GPUs kept busy `utilisation` of their peak."""
    per_second = n_gpus * flops_per_gpu * utilisation  # what the run really does each second
    seconds = flops / per_second
    return seconds / (24 * 60 * 60)


if __name__ == "__main__":
    print(parameter_count(50257, 1024, 12, 768))  # GPT-2 small: expect 124439808
    print(parameter_count(65, 256, 6, 384, bias=False, count_positions=False))
    # nanoGPT's Shakespeare model, position table not counted: expect 10646784
    print(micro_batches(491_520, 12, 1024, 4))  # the lesson's four GPUs: expect 10
    print(micro_batches(500_000, 12, 1024, 8))  # 5 give 491,520 tokens, too few: expect 6
    print(f"{training_days(2.19e20, 8, 312e12, 0.3):.2f}")  # GPT-2 small on 8 A100s: expect 3.39

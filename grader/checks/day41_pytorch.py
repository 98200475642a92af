"""Checks of exercises/day41_pytorch.py: parameters, tokens per step and training FLOPs.

Every answer is whole-number arithmetic. The expected parameter count is the sum, over
the model's tensors listed one by one with their shapes (as nanoGPT's model names them),
of the product of each shape; tokens per step and FLOPs are products. Likely bugs (the
tied head counted twice, an untied head forgotten, position embeddings counted when they
should not be, biases counted without `bias`, the final LayerNorm forgotten, a 1x MLP,
the GPUs or the accumulation left out, 2 N D instead of 6 N D) are recognised.
"""

from grader.verdict import EXACT, Expectation, Want

from .cases import case

EXERCISE = "day41_pytorch.py"
TITLE = "Day 41: what a GPT of nanoGPT's size costs"
LESSON = "docs/lessons/day41_pytorch.md"
NEEDS_ENGINE = False
ENGINE = {}
ENGINE_BY_KIND = {}

GPT2 = {"vocab_size": 50257, "block_size": 1024, "n_layer": 12, "n_embd": 768}
BABY = {"vocab_size": 65, "block_size": 256, "n_layer": 6, "n_embd": 384}


def _params(name, sizes, bias, tied, count_positions, public=True):
    return case(
        "params",
        name,
        public=public,
        **sizes,
        bias=bias,
        tied=tied,
        count_positions=count_positions,
    )


def public_cases():
    return [
        _params("GPT-2 small, every tensor counted", GPT2, True, True, True),
        _params("GPT-2 small without the position embeddings", GPT2, True, True, False),
        _params(
            "nanoGPT's Shakespeare model, no biases, as it reports itself", BABY, False, True, False
        ),
        _params(
            "a small model with no biases and a head of its own",
            {"vocab_size": 27, "block_size": 16, "n_layer": 2, "n_embd": 16},
            False,
            False,
            True,
        ),
        case(
            "tokens", "nanoGPT's GPT-2 run", batch_size=12, block_size=1024, accumulation=5, gpus=8
        ),
        case(
            "tokens", "the Shakespeare run", batch_size=64, block_size=256, accumulation=1, gpus=1
        ),
        case(
            "flops",
            "GPT-2 small for 600,000 steps",
            n_params=124439808,
            tokens=491520,
            steps=600000,
        ),
        case("flops", "a microGPT-sized run", n_params=4192, tokens=7, steps=1000),
    ]


HIDDEN_SPACE = (
    "≈10^11 or more each: a vocabulary of 2 to 100,000, a block of 1 to 4,096, 1 to 48 layers "
    "and a width of 1 to 2,048, under four settings of bias, tying and positions; batch, block, "
    "accumulation and GPUs up to 512, 8,192, 64 and 1,024; N up to 10^12, tokens per step up "
    "to 10^7, steps up to 10^6"
)

# Every combination of the three switches that a planted bug needs: (bias, tied, positions)
_SETTINGS = [(True, True, True), (False, False, False), (True, False, False), (False, True, True)]


def hidden_cases(rng):
    cases = []
    for i, (bias, tied, positions) in enumerate(_SETTINGS):
        sizes = {
            "vocab_size": rng.randint(2, 100_000),
            "block_size": rng.randint(1, 4096),
            "n_layer": rng.randint(1, 48),
            "n_embd": rng.randint(1, 2048),
        }
        cases.append(
            _params(f"random sizes, setting {i + 1}", sizes, bias, tied, positions, public=False)
        )
    cases.append(
        case(
            "tokens",
            "tokens per step of a random run",
            public=False,
            batch_size=rng.randint(2, 512),
            block_size=rng.randint(2, 8192),
            accumulation=rng.randint(2, 64),
            gpus=rng.randint(2, 1024),
        )
    )
    cases.append(
        case(
            "flops",
            "the FLOPs of a random run",
            public=False,
            n_params=rng.randint(1000, 10**12),
            tokens=rng.randint(1000, 10**7),
            steps=rng.randint(2, 10**6),
        )
    )
    return cases


# -- what a right answer gives ---------------------------------------------------------


def tensors(inputs):
    """(name, shape) of every learnt tensor, as nanoGPT's GPT names them; the tied head and,
    without count_positions, the position table are left out."""
    V, T, L, E = (inputs[k] for k in ("vocab_size", "block_size", "n_layer", "n_embd"))
    bias = inputs["bias"]
    out = [("wte.weight", (V, E))]
    if inputs["count_positions"]:
        out.append(("wpe.weight", (T, E)))
    linears = [("attn.c_attn", 3 * E, E), ("attn.c_proj", E, E), ("mlp.c_fc", 4 * E, E)]
    linears.append(("mlp.c_proj", E, 4 * E))
    for layer in range(L):
        for norm in ("ln_1", "ln_2"):
            out.append((f"h.{layer}.{norm}.weight", (E,)))
            if bias:
                out.append((f"h.{layer}.{norm}.bias", (E,)))
        for name, rows, cols in linears:
            out.append((f"h.{layer}.{name}.weight", (rows, cols)))
            if bias:
                out.append((f"h.{layer}.{name}.bias", (rows,)))
    out.append(("ln_f.weight", (E,)))
    if bias:
        out.append(("ln_f.bias", (E,)))
    if not inputs["tied"]:
        out.append(("lm_head.weight", (V, E)))
    return out


def count(inputs):
    total = 0
    for _, shape in tensors(inputs):
        size = 1
        for s in shape:
            size *= s
        total += size
    return total


def _param_bugs(inputs):
    V, T, L, E = (inputs[k] for k in ("vocab_size", "block_size", "n_layer", "n_embd"))
    right = count(inputs)
    bias, tied, positions = inputs["bias"], inputs["tied"], inputs["count_positions"]
    bugs = []
    if tied:
        bugs.append((right + V * E, "with tied=True the head IS the token table: count it once"))
    else:
        bugs.append(
            (
                right - V * E,
                "with tied=False the head is a vocab_size x n_embd matrix of its own: count it too",
            )
        )
    if positions:
        bugs.append(
            (
                right - T * E,
                "count the position embeddings (block_size x n_embd) when count_positions is True",
            )
        )
    else:
        bugs.append((right + T * E, "with count_positions=False leave the position embeddings out"))
    if bias:
        bugs.append(
            (
                right - (2 * L + 1) * E,
                "with bias=True each LayerNorm has a bias of n_embd numbers too",
            )
        )
        bugs.append(
            (
                right - L * 9 * E,
                "with bias=True each of the six Linear layers has a bias, one number per output",
            )
        )
    else:
        bugs.append(
            (
                right + (2 * L + 1) * E,
                "with bias=False no LayerNorm has a bias: a gain of n_embd numbers only",
            )
        )
        bugs.append((right + L * 9 * E, "with bias=False the Linear layers have no biases"))
    bugs.append(
        (
            right - (2 if bias else 1) * E,
            "the final LayerNorm, after the last block, has parameters too",
        )
    )
    bugs.append(
        (right - L * 6 * E * E, "the MLP widens to 4 n_embd: two matrices of 4 n_embd x n_embd")
    )
    return [(float(v), advice) for v, advice in bugs if v != right]


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "params":
        setup = ", ".join(f"{k}={v}" for k, v in inputs.items())
        return Expectation(
            [Want("parameters", float(count(inputs)), EXACT, setup, _param_bugs(inputs))],
            hint="Add the tensors one by one: embeddings, each block's two LayerNorms, "
            "attention and MLP, the final LayerNorm, the head.",
        )
    if kind == "tokens":
        B, T, A, G = (inputs[k] for k in ("batch_size", "block_size", "accumulation", "gpus"))
        setup = f"batch_size={B}, block_size={T}, accumulation_steps={A}, n_gpus={G}"
        bugs = [
            (
                float(B * T * A),
                "every one of the n_gpus processes runs its own micro-batches: multiply by n_gpus",
            ),
            (
                float(B * T * G),
                "each process accumulates accumulation_steps micro-batches: multiply by them",
            ),
            (float(B * A * G), "each sequence holds block_size tokens: multiply by block_size"),
        ]
        return Expectation([Want("tokens", float(B * T * A * G), EXACT, setup, bugs)])
    N, D1, S = inputs["n_params"], inputs["tokens"], inputs["steps"]
    setup = f"n_params={N}, tokens_per_step={D1}, steps={S}"
    bugs = [
        (
            float(2 * N * D1 * S),
            "2 N D is the forward pass alone: training also runs backward, 6 N D in all",
        ),
        (float(6 * N * D1), "D is the tokens of ALL the steps: tokens_per_step x steps"),
    ]
    return Expectation([Want("flops", float(6 * N * D1 * S), EXACT, setup, bugs)])

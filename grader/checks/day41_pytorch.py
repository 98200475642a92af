"""Checks of exercises/day41_pytorch.py: parameters, micro-batches and days of training.

The expected parameter count is the sum, over the model's tensors listed one by one with
their shapes (as nanoGPT's model names them), of the product of each shape. The number of
micro-batches is the least whole A with A x batch x block x GPUs >= the target, found by
counting up from the exact quotient's floor (whole numbers only). The days are the FLOPs
over the FLOPs done per second, over 86,400 seconds. Likely bugs (the tied head counted
twice, an untied head forgotten, position embeddings counted when they should not be,
biases counted without `bias`, the final LayerNorm forgotten, a 1x MLP, rounding down or
always adding one micro-batch, the GPUs or the block left out, the utilisation
multiplied, hours or seconds instead of days) are recognised.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, named

TITLE = msg("Day 41: what a GPT of nanoGPT's size costs")
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
        _params(named("GPT-2 small, every tensor counted"), GPT2, True, True, True),
        _params(named("GPT-2 small without the position embeddings"), GPT2, True, True, False),
        _params(
            named("nanoGPT's Shakespeare model, no biases, as it reports itself"),
            BABY,
            False,
            True,
            False,
        ),
        _params(
            named("a small model with no biases and a head of its own"),
            {"vocab_size": 27, "block_size": 16, "n_layer": 2, "n_embd": 16},
            False,
            False,
            True,
        ),
        case(
            "micro",
            "nanoGPT's half-million tokens on 4 GPUs",
            target=491520,
            batch_size=12,
            block_size=1024,
            gpus=4,
        ),
        case(
            "micro",
            "500,000 tokens on 8 GPUs: 5 micro-batches fall short",
            target=500000,
            batch_size=12,
            block_size=1024,
            gpus=8,
        ),
        case(
            "days",
            "GPT-2 small's run on 8 A100 GPUs at 30 %",
            flops=2.19e20,
            gpus=8,
            peak=312e12,
            utilisation=0.3,
        ),
        case(
            "days", "one GPU, busy all the time", flops=8.64e16, gpus=1, peak=1e12, utilisation=1.0
        ),
    ]


HIDDEN_SPACE = (
    "≈10^11 or more each: a vocabulary of 2 to 100,000, a block of 1 to 4,096, 1 to 48 layers "
    "and a width of 1 to 2,048, under four settings of bias, tying and positions; a batch of 2 "
    "to 512, a block of 2 to 8,192 and 2 to 1,024 GPUs, with a target of 1 to 64 whole rounds "
    "(or one token to a round less, so that it does not divide); 10^15 to 10^24 FLOPs to 4 "
    "significant digits, 1 to 10,000 GPUs, a peak of 10 to 2,000 TFLOP/s and a utilisation "
    "in [0.05, 0.8] to 3 decimals"
)

# Every combination of the three switches that a planted bug needs: (bias, tied, positions)
_SETTINGS = [(True, True, True), (False, False, False), (True, False, False), (False, True, True)]
RANDOM_SETTINGS = [
    named("random sizes, setting 1"),
    named("random sizes, setting 2"),
    named("random sizes, setting 3"),
    named("random sizes, setting 4"),
]


def hidden_cases(rng):
    cases = []
    for i, (bias, tied, positions) in enumerate(_SETTINGS):
        sizes = {
            "vocab_size": rng.randint(2, 100_000),
            "block_size": rng.randint(1, 4096),
            "n_layer": rng.randint(1, 48),
            "n_embd": rng.randint(1, 2048),
        }
        cases.append(_params(RANDOM_SETTINGS[i], sizes, bias, tied, positions, public=False))
    for exact in (True, False):
        B, T, G = rng.randint(2, 512), rng.randint(2, 8192), rng.randint(2, 1024)
        rounds = rng.randint(1, 64)
        target = rounds * B * T * G - (0 if exact else rng.randint(1, B * T * G - 1))
        name = (
            named("a target of whole rounds") if exact else named("a target that does not divide")
        )
        cases.append(
            case(
                "micro",
                name,
                public=False,
                target=target,
                batch_size=B,
                block_size=T,
                gpus=G,
            )
        )
    cases.append(
        case(
            "days",
            "the days of a random run",
            public=False,
            flops=float(f"{rng.uniform(1, 10):.3f}e{rng.randint(15, 23)}"),
            gpus=rng.randint(1, 10_000),
            peak=rng.randint(10, 2000) * 1e12,
            utilisation=round(rng.uniform(0.05, 0.8), 3),
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
        bugs.append(
            (right + V * E, msg("with tied=True the head IS the token table: count it once"))
        )
    else:
        bugs.append(
            (
                right - V * E,
                msg(
                    "with tied=False the head is a vocab_size x n_embd matrix of its own: count it too"
                ),
            )
        )
    if positions:
        bugs.append(
            (
                right - T * E,
                msg(
                    "count the position embeddings (block_size x n_embd) when count_positions is True"
                ),
            )
        )
    else:
        bugs.append(
            (right + T * E, msg("with count_positions=False leave the position embeddings out"))
        )
    if bias:
        bugs.append(
            (
                right - (2 * L + 1) * E,
                msg("with bias=True each LayerNorm has a bias of n_embd numbers too"),
            )
        )
        bugs.append(
            (
                right - L * 9 * E,
                msg(
                    "with bias=True each of the six Linear layers has a bias, one number per output"
                ),
            )
        )
    else:
        bugs.append(
            (
                right + (2 * L + 1) * E,
                msg("with bias=False no LayerNorm has a bias: a gain of n_embd numbers only"),
            )
        )
        bugs.append((right + L * 9 * E, msg("with bias=False the Linear layers have no biases")))
    bugs.append(
        (
            right - (2 if bias else 1) * E,
            msg("the final LayerNorm, after the last block, has parameters too"),
        )
    )
    bugs.append(
        (
            right - L * 6 * E * E,
            msg("the MLP widens to 4 n_embd: two matrices of 4 n_embd x n_embd"),
        )
    )
    return [(float(v), advice) for v, advice in bugs if v != right]


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "params":
        setup = ", ".join(f"{k}={v}" for k, v in inputs.items())
        return Expectation(
            [
                Want(
                    "parameters",
                    float(count(inputs)),
                    EXACT,
                    setup,
                    _param_bugs(inputs),
                    label=msg("parameters"),
                )
            ],
            hint=msg(
                "Add the tensors one by one: embeddings, each block's two LayerNorms, "
                "attention and MLP, the final LayerNorm, the head."
            ),
        )
    if kind == "micro":
        target, B, T, G = (inputs[k] for k in ("target", "batch_size", "block_size", "gpus"))
        setup = f"target_tokens={target}, batch_size={B}, block_size={T}, n_gpus={G}"
        per_round = B * T * G
        rounds = target // per_round  # whole rounds that fit; one more if they fall short
        while rounds * per_round < target:
            rounds += 1
        bugs = [
            (
                float(target // per_round),
                msg("a last, partial round of micro-batches still has to run: round UP"),
            ),
            (
                float(target // per_round + 1),
                msg("when the target is a whole number of rounds, no extra micro-batch is needed"),
            ),
            (
                float(-(-target // (B * T))),
                msg("the n_gpus GPUs each run their own micro-batches: divide by n_gpus too"),
            ),
            (
                float(-(-target // (B * G))),
                msg("each sequence holds block_size tokens: divide by block_size too"),
            ),
        ]
        bugs = [(v, advice) for v, advice in bugs if v != rounds]
        return Expectation(
            [Want("micro-batches", float(rounds), EXACT, setup, bugs, label=msg("micro-batches"))]
        )
    C, G, P, u = (inputs[k] for k in ("flops", "gpus", "peak", "utilisation"))
    setup = f"flops={C:g}, n_gpus={G}, flops_per_gpu={P:g}, utilisation={u}"
    seconds = C / (G * P * u)
    bugs = [
        (
            seconds * u * u / 86400,
            msg(
                "a GPU busy only a fraction (utilisation) of the time does FEWER "
                "operations per second: multiply the peak by it, not the time"
            ),
        ),
        (seconds * u / 86400, msg("only a fraction (utilisation) of the peak is reached: use it")),
        (seconds * G / 86400, msg("the n_gpus GPUs share the work: divide by n_gpus")),
        (seconds / 3600, msg("a day is 24 hours of 3,600 seconds: 86,400 seconds")),
        (seconds, msg("the time is asked in days, not seconds")),
    ]
    bugs = [(v, advice) for v, advice in bugs if abs(v - seconds / 86400) > 1e-6 * abs(v)]
    return Expectation([Want("days", seconds / 86400, CLOSED, setup, bugs, label=msg("days"))])

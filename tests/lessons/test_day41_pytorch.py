"""Day 41: the parameter counts, tokens and FLOPs the page states, the engine's side of the
PyTorch comparison, the schedule's rates, and nanoGPT's published numbers as the page quotes them.

Counts are recomputed here in closed form (the page's cell counts tensor by tensor); the
engine's loss on the four names comes from `engine.gpt.document_loss`. The PyTorch block's
own output is compared with the page by `nox -s torch` (tools/torch_check.py); where torch is
installed, this test runs it too.
"""

import math
import os
import random
import re
import subprocess
import sys

import pytest

from engine.data import load_names, split_names
from engine.gpt import GPTConfig, count_parameters, document_loss, init_gpt
from engine.tokenizer import Tokenizer

from .pages import ROOT, lesson

PAGE = lesson("day41_pytorch")


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def gpt2_style(V, T, L, E, bias=True, tied=True, positions=True):
    """Closed form: embeddings, L blocks of 12 E^2 (+ 13 E with biases, else 2 E), final norm."""
    per_block = 12 * E * E + (13 * E if bias else 2 * E)
    return (
        V * E
        + (T * E if positions else 0)
        + L * per_block
        + (2 * E if bias else E)
        + (0 if tied else V * E)
    )


def said(phrase):
    """True when the page says `phrase`, whatever the line breaks inside it."""
    return " ".join(phrase.split()) in " ".join(PAGE.text.split())


def fmt(n):
    return f"{n:,}"


def states(number, text):
    """assert_states, where the page may write the number in math, with {,} between groups."""
    value = float(text.replace(",", ""))
    digits = len(text.split(".")[1]) if "." in text else 0
    assert abs(number - value) <= 0.5 * 10**-digits, f"code gives {number}, the page says {text}"
    assert text in PAGE.text or text.replace(",", "{,}") in PAGE.text, f"the page never says {text}"


def test_gpt2_small_counts(namespace):
    V, T, L, E = 50257, 1024, 12, 768
    total = gpt2_style(V, T, L, E)
    assert namespace["total"] == total == 124_439_808
    states(total, fmt(total))
    states(gpt2_style(V, T, L, E, positions=False), "123,653,376")
    for number in (V * E, T * E, 12 * E * E + 13 * E, L * (12 * E * E + 13 * E), 2 * E):
        states(number, fmt(number))
    states(total / 1e6, "124")
    share = V * E / total
    states(100 * share, "31")
    assert said("31 % of GPT-2 small")
    states(L * (12 * E * E + 13 * E) / 1e6, "85.1")
    states(V * E / 1e6, "38.6")
    assert said("only about twice as big (85.1 million against 38.6 million)")
    assert round(L * (12 * E * E + 13 * E) / (V * E)) == 2
    for text in ("50,257", "1,024", "$L = 12$", "$E = 768$"):
        assert text in PAGE.text


def test_the_tensor_count_question(namespace):
    per_block = 2 * 2 + 4 * 2  # ln_1, ln_2 (weight, bias); c_attn, c_proj, c_fc, c_proj (w, b)
    n = 2 + 12 * per_block + 2
    assert n == len(namespace["shapes"]) == 148
    assert "answer: 148" in PAGE.text and "2 + 12 \\times 12 + 2 = 148" in PAGE.text


def test_nanogpts_own_gpt2_model():
    V, T, L, E = 50304, 1024, 12, 768
    assert V % 64 == 0 and V - 50257 == 47
    states(V - 50257, "47")
    states(gpt2_style(V, T, L, E, bias=False, positions=False), "123,587,328")
    states(gpt2_style(V, T, L, E, bias=False), "124,373,760")
    states(V, "50,304")
    assert said("(position table not counted)")


def test_kaplan_and_the_attention_term():
    L, E, T = 12, 768, 1024
    states(12 * L * E * E / 1e6, "85")  # Kaplan's non-embedding N, 84,934,656
    attention = 12 * L * E * T  # nanoGPT's estimate_mfu: 12 L H Q T, H Q = E
    states(attention / 1e6, "113")
    six_n = 6 * gpt2_style(50304, T, L, E, bias=False, positions=False)
    states(six_n / 1e6, "742")
    states(100 * attention / six_n, "15")
    assert said("$6N \\approx$ 742 million: about 15 %")
    assert said("Hoffmann et al. (2022") and "Kaplan et al. (2020)" in PAGE.text


def test_training_days_and_the_float_digits():
    seconds = 2.19e20 / (8 * 312e12 * 0.3)
    states(seconds / 86400, "3.4")
    assert said("about 3.4 days") and "312 \\times 10^{12}" in PAGE.text
    assert "30 % take about 3.4 days" in " ".join(PAGE.text.split())
    states(math.log10(2**24), "7")  # float32: 24 bits of significand
    assert 2 <= math.log10(2**8) <= 3  # bfloat16: 8 bits of significand
    assert "about 2 to 3" in PAGE.text


def test_the_data_row():
    train_names, _ = split_names(load_names(), seed=0)
    states(len(train_names), "4,647")
    assert 0.15 < 1000 / len(train_names) < 0.25  # "about a fifth"
    assert "| about a fifth | about 82 | about 33 |" in PAGE.text
    shakespeare = 5000 * 64 * 256
    states(shakespeare, "81,920,000")
    states(shakespeare / 1_003_854, "82")  # nanoGPT's shakespeare_char: 1,003,854 train tokens
    assert "1{,}003{,}854" in PAGE.text
    states(1_115_394 / 1e6, "1")  # Tiny Shakespeare: 1,115,394 characters, about 1 MB
    assert said("about 1 MB of text")
    tokens = 600_000 * 491_520
    states(tokens / 9.0e9, "33")
    states(tokens / 9_035_582_198, "33")  # openwebtext's train.bin
    assert said("about 9.0 billion training tokens")
    states(tokens / 1e9, "295")


def test_the_microgpt_counts():
    assert count_parameters(GPTConfig()) == 4192
    states(count_parameters(GPTConfig()), "4,192")
    states(4192 - 16 * 16, "3,936")  # position table not counted
    states(4192 - 27 * 16, "3,760")  # a tied head: lm_head's 27 x 16 numbers are wte's
    assert "the microGPT with a tied head holds 3,760" in " ".join(PAGE.text.split())


def test_the_shakespeare_model_as_nanogpt_reports_it():
    n = gpt2_style(65, 256, 6, 384, bias=False, positions=False)
    states(n, "10,646,784")
    states(gpt2_style(65, 256, 6, 384, bias=False), "10,745,088")
    states(64 * 256, "16,384")


def test_tokens_per_step_and_the_four_gpu_question():
    step = 12 * 1024 * 5 * 8
    states(step, "491,520")
    states(600_000 * step, "294,912,000,000")
    states(600_000 * step / 1e9, "295")
    assert 12 * 1024 * 10 * 4 == step  # 4 GPUs need 10 micro-batches each
    assert "answer: 10" in PAGE.text


def tokens_of_day26():
    train_names, _ = split_names(load_names(), seed=0)
    docs = [Tokenizer().encode(n) for n in train_names]
    random.Random(0).shuffle(docs)  # engine.gpt.training's order with seed 0
    return sum(min(16, len(d) - 1) for d in docs[:1000])


def test_flops(namespace):
    micro = 6 * (4192 - 16 * 16) * tokens_of_day26()
    baby = 6 * gpt2_style(65, 256, 6, 384, bias=False, positions=False) * 5000 * 64 * 256
    n_gpt2 = gpt2_style(50304, 1024, 12, 768, bias=False, positions=False)
    gpt2 = 6 * n_gpt2 * 600_000 * 491_520
    assert namespace["flops"] == {
        "microGPT, day 26": micro,
        "nanoGPT Shakespeare": baby,
        "nanoGPT GPT-2 small": gpt2,
    }
    states(micro / 1e8, "1.64")
    states(baby / 1e15, "5.23")
    states(gpt2 / 1e20, "2.19")
    states(gpt2 / micro / 1e12, "1.33")
    for text in ("1.64 \\times 10^{8}", "5.23 \\times 10^{15}", "2.19 \\times 10^{20}"):
        assert text in PAGE.text
    assert "1.33 \\times 10^{12}" in PAGE.text
    assert round(math.log10(gpt2 / micro)) == 12  # the prediction: 10^12, not 10^6 or 10^9
    states(n_gpt2 / (4192 - 256) / 1000, "31")  # N grows about 31,000 times
    states(tokens_of_day26(), "6,942")
    states(600_000 * 491_520 / tokens_of_day26() / 1e6, "42")  # D about 42 million times
    states(tokens_of_day26() / 1000, "7")  # "about 7 (one name)" tokens per step
    assert "about 7 (one name)" in PAGE.text


def test_the_engine_side_of_the_pytorch_block():
    tokenizer = Tokenizer()
    docs = [tokenizer.encode(n) for n in ("emma", "olivia", "ava", "isabella")]
    model = init_gpt(GPTConfig(), seed=0)
    counts = [len(d) - 1 for d in docs]
    loss = sum(document_loss(model, d).data * n for d, n in zip(docs, counts)) / sum(counts)
    states(sum(counts), "25")
    states(loss, "3.3368684154")
    assert f"engine {loss:.10f}" in PAGE.text and f"torch {loss:.10f}" in PAGE.text


def test_the_schedule_rates():
    steps, warmup, lr = 300, 30, 0.01

    def rate(step):
        if step < warmup:
            return lr * (step + 1) / warmup
        progress = (step - warmup) / (steps - warmup)
        return lr * (0.1 + 0.45 * (1 + math.cos(math.pi * progress)))

    for step, text in [(0, "0.00033"), (100, "0.00859"), (200, "0.00372"), (299, "0.00100")]:
        states(rate(step), text)
        assert f"step {step:3d}  lr {text}" in PAGE.text
    states(300 * 32, "9,600")


def test_the_batches_question():
    # the run's held-out loss, as the page prints it (checked by the PyTorch test below and by
    # tools/torch_check.py), beats day 26's: the question's answer is "Yes"
    assert "held-out loss 2.1107" in PAGE.text
    assert 2.1107 < 2.2485
    assert "[x] Yes: 300 steps of 32 names" in PAGE.text


def test_gpt2_initialisation_and_clipping_quoted():
    text = " ".join(PAGE.text.split())
    for quoted in (
        "standard deviation 0.02",
        "$0.02/\\sqrt{2L}$",
        "dropout (0 for GPT-2 small",
        "exceeds 1.0",
        "weight decay 0.1 on every tensor of two or more axes",
    ):
        assert quoted in text, quoted


def test_day26_numbers_quoted():
    day26 = lesson("day26_training_gpt").text
    assert "2.2485" in day26 and "2.2485" in PAGE.text
    assert "(0.85, 0.99)" in PAGE.text and "0.85" in day26


# nanoGPT's published settings and results, as its README and config files state them
# (config/train_shakespeare_char.py, config/train_gpt2.py, train.py's defaults, README.md).
PUBLISHED = [
    "65 characters",
    "6, 6, 384",
    "12, 12, 768",
    "best validation loss 1.4697, about 3 minutes on one A100 GPU",
    "loss about 2.85, about 4 days on one node of 8 A100 GPUs",
    "lr $10^{-3}$, betas (0.9, 0.99), warmup 100",
    "lr $6 \\times 10^{-4}$, betas (0.9, 0.95), weight decay 0.1, warmup 2,000",
    "cosine to $10^{-4}$",
    "cosine to $6 \\times 10^{-5}$",
    "dropout 0.2",
    "clips the gradient at 1.0",
    "about 250 ms to 135 ms",
    "README (December 2022)",
    "| 5,000 |",
    "| 600,000 |",
]


@pytest.mark.parametrize("text", PUBLISHED)
def test_published_numbers_quoted(text):
    assert text in " ".join(PAGE.text.split())


def test_the_pytorch_block_prints_what_the_page_shows():
    pytest.importorskip("torch")
    (match,) = re.finditer(
        r"^```torch\n(?P<code>.*?)^```\n\s*(?:^[^`\n][^\n]*\n\s*)?^```text\n(?P<output>.*?)^```$",
        PAGE.text,
        re.S | re.M,
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="ignore")
    run = subprocess.run(
        [sys.executable, "-c", match["code"]], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == match["output"]

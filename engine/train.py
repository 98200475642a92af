"""Train microGPT on the names and sample new ones: `python -m engine.train [options]`.

`nox -s train -- --steps 500 --temperature 0.8` passes its options here. The names are
split (seeded) into 90% for training and 10% held out; the held-out loss before and
after training shows whether the model learned names or memorised them.

`--save PATH` writes the trained model to a JSON checkpoint (engine/checkpoint.py) with
its training settings and its held-out loss; `engine.checkpoint.load(PATH)` reads it back.
The course site ships the checkpoint of the default run:

    python -m engine.train --samples 0 --save explorer/data/microgpt.json
"""

import argparse
import math
import sys
import time
from pathlib import Path

from . import checkpoint
from .data import load_names, split_names
from .errors import said
from .gpt import GPTConfig, evaluate, init_gpt, sample_names, training
from .tokenizer import Tokenizer

__all__ = ["main"]


def _positive_int(text):
    value = int(text)
    if value < 1:
        raise said(
            argparse.ArgumentTypeError,
            "train.positiveInt",
            f"must be a whole number of at least 1, got {text}",
            text=text,
        )
    return value


def _non_negative_float(text):
    value = float(text)
    if not value >= 0:
        raise said(
            argparse.ArgumentTypeError,
            "train.nonNegative",
            f"must be 0 or more, got {text}",
            text=text,
        )
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m engine.train", description=__doc__)
    parser.add_argument("--steps", type=_positive_int, default=1000, help="training steps (1000)")
    parser.add_argument("--lr", type=float, default=0.01, help="initial learning rate (0.01)")
    parser.add_argument("--batch-size", type=_positive_int, default=1, help="names per step (1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of weights and data order (0)")
    parser.add_argument("--samples", type=int, default=10, help="names to sample at the end (10)")
    parser.add_argument(
        "--temperature", type=_non_negative_float, default=1.0, help="sampling temperature (1.0)"
    )
    parser.add_argument(
        "--eval-names",
        type=_positive_int,
        default=None,
        help="held-out names to measure the loss on (default: all of them)",
    )
    parser.add_argument(
        "--log-every", type=_positive_int, default=50, help="print progress every N steps (50)"
    )
    parser.add_argument(
        "--save",
        metavar="PATH",
        default=None,
        help="write the trained model to this JSON checkpoint (engine.checkpoint.load reads it)",
    )
    args = parser.parse_args(argv)
    if not args.lr > 0:
        parser.error(f"--lr must be positive, got {args.lr}")
    # Checked before training, so a bad path does not cost a whole run.
    if args.save and Path(args.save).is_dir():
        parser.error(f"--save needs a file path, e.g. {Path(args.save) / 'model.json'}")
    return args


def _bar(fraction, width=24):
    filled = round(fraction * width)
    return "#" * filled + "." * (width - filled)


def main(argv=None):
    args = parse_args(argv)
    names = load_names()
    tokenizer = Tokenizer.from_text(names)
    train_names, test_names = split_names(names, seed=args.seed)
    train_docs = [tokenizer.encode(n) for n in train_names]
    test_docs = [tokenizer.encode(n) for n in test_names[: args.eval_names]]
    config = GPTConfig(vocab_size=tokenizer.vocab_size)
    model = init_gpt(config, seed=args.seed)
    print(
        f"microGPT: {len(model.parameters()):,} parameters, vocabulary of {config.vocab_size} "
        f"({tokenizer.chars} + BOS), {config.n_layer} layer, {config.n_head} heads, "
        f"{config.n_embd}-dim embeddings, block size {config.block_size}"
    )
    print(
        f"data: {len(train_names):,} names to train on, {len(test_names):,} held out "
        f"(the held-out loss uses {len(test_docs):,})"
    )
    print(
        f"held-out loss before training: {evaluate(model, test_docs):.4f} (ln 27 = {math.log(27):.4f})"
    )
    print(
        f"training {args.steps} steps, {args.batch_size} name(s) per step, Adam, lr {args.lr} decaying linearly to 0"
    )

    window, start = [], time.perf_counter()
    for result in training(model, train_docs, args.steps, args.lr, args.batch_size, seed=args.seed):
        window.append(result.loss)
        done = result.step + 1
        if done % args.log_every == 0 or done == args.steps:
            elapsed = time.perf_counter() - start
            eta = elapsed / done * (args.steps - done)
            print(
                f"[{_bar(done / args.steps)}] step {done:>5}/{args.steps}  "
                f"loss {result.loss:.4f}  mean of last {len(window):>3}: "
                f"{sum(window) / len(window):.4f}  lr {result.lr:.5f}  "
                f"{1e3 * elapsed / done:.1f} ms/step  eta {eta:.0f}s",
                flush=True,
            )
            window = []

    held_out = evaluate(model, test_docs)
    print(f"held-out loss after training: {held_out:.4f}")
    if args.save:
        training_settings = {
            "steps": args.steps,
            "lr": args.lr,
            "seed": args.seed,
            "batch_size": args.batch_size,
        }
        try:
            path = checkpoint.save(
                args.save,
                model,
                tokenizer,
                training=training_settings,
                held_out_loss=held_out,
                held_out_names=len(test_docs),
            )
        except OSError as err:
            print(f"could not write the checkpoint to {args.save}: {err.strerror}", file=sys.stderr)
            return 1
        print(f"saved the model to {path} ({path.stat().st_size / 1024:.0f} kB)")
    if args.samples:
        print(f"{args.samples} new names (temperature {args.temperature}):")
        known = set(names)
        for name in sample_names(model, tokenizer, args.samples, args.seed, args.temperature):
            marker = "   (in the data)" if name in known else ""
            print(f"  {name}{marker}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The course's reference training run (seed 0, 1,000 steps), made once per test session.

Days 26 and 30 state numbers of this run; their tests share it so it is trained only once.
"""

from functools import lru_cache

from engine.data import load_names, split_names
from engine.gpt import evaluate, init_gpt, train
from engine.tokenizer import Tokenizer


@lru_cache(maxsize=1)
def reference_run():
    """{"losses": every step's loss, "before"/"after": held-out loss, "held_out": {step: held-out
    loss} after steps 800 and 900, "n": training names}."""
    tok = Tokenizer()
    train_names, test_names = split_names(load_names(), seed=0)
    test_docs = [tok.encode(n) for n in test_names]
    model = init_gpt(seed=0)
    before = evaluate(model, test_docs)
    held_out = {}

    def checkpoint(result):  # day 26: the held-out loss near the end of the run
        if result.step + 1 in (800, 900):
            held_out[result.step + 1] = evaluate(model, test_docs)

    train_docs = [tok.encode(n) for n in train_names]
    losses = train(model, train_docs, steps=1000, lr=0.01, seed=0, callback=checkpoint)
    return {
        "losses": losses,
        "before": before,
        "after": evaluate(model, test_docs),
        "held_out": held_out,
        "n": len(train_names),
        "model": model,
    }

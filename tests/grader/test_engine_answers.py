"""The engine in an exercise's sandbox holds no answer to it.

engine/ has a Neuron, an MLP, SGD and Adam, softmax, attention, rmsnorm, the whole GPT,
zero_grad, an iterative backward and byte-pair encoding: what the learner writes from
day 7 on. Each attack
below is a whole exercise file whose functions hand the work to the engine (imported
inside each function, so that every function that finds its answer scores on its own);
none may score more than the untouched stub, which scores 0.

A day needs no entry here: every exercise that uses the engine and has no attack written
below gets one derived from its stub (`derived_attack`: each function hands its work to the
engine's function or method of the same name). Written attacks go further (an answer under
another name, or built from several engine functions).
"""

import ast
import textwrap

import pytest

from grader.checks import EXERCISES, check_module
from grader.engine_view import engine_dir
from grader.sandbox import Limits, detect

from .helpers import grade_source, score

ATTACKS = {
    "day07_accumulation.py": """
        from engine import Value

        def gradient_by_roads(roads):
            raise NotImplementedError("Day 7: the engine has no answer")

        def challenge_gradients(a, b, c):  # "worked out on paper", not with backward()
            a, b, c = Value(a), Value(b), Value(c)
            loss = (a * b + c) * (a + b)
            loss.backward()
            return a.grad, b.grad, c.grad

        def zero_grad(values):
            from engine import zero_grad as engine_zero_grad
            engine_zero_grad(values)
        """,
    "day09_gradient_descent.py": """
        def gradient_descent_step(params, learning_rate):
            from engine.optim import SGD
            SGD(params, lr=learning_rate).step()
        """,
    "day10_neuron.py": """
        ACTIVATIONS = ("relu", "tanh", "linear")

        def neuron(x, w, b, act="relu"):
            from engine.nn import Neuron
            if len(x) != len(w):
                raise ValueError("lengths differ")
            n = Neuron(len(w), act=act)
            n.w, n.b = list(w), b
            return n(x)
        """,
    "day11_mlp.py": """
        def dense(x, W, b, act="relu"):
            from engine.nn import Neuron
            out = []
            for row, bias in zip(W, b):
                n = Neuron(len(row), act=act)
                n.w, n.b = list(row), bias
                out.append(n(x))
            return out

        def mlp(x, layers):
            for i, (W, b) in enumerate(layers):
                x = dense(x, W, b, "relu" if i < len(layers) - 1 else "linear")
            return x

        def parameter_count(nin, nouts):
            from engine.nn import MLP
            return len(MLP(nin, nouts).parameters())
        """,
    "day13_training_loop.py": """
        def mean_squared_error(predictions, targets):
            total = sum((p - t) ** 2 for p, t in zip(predictions, targets))
            return total * (1.0 / len(targets))

        def zero_grad(params):
            from engine.value import zero_grad as engine_zero_grad
            engine_zero_grad(params)

        def training_step(model, xs, ys, learning_rate):
            from engine.optim import SGD
            optimizer = SGD(model.parameters(), lr=learning_rate)
            optimizer.zero_grad()
            loss = mean_squared_error([model(x) for x in xs], ys)
            loss.backward()
            optimizer.step()
            return loss.data
        """,
    "day14_optimizers.py": """
        def sgd_momentum_step(params, velocity, lr, momentum=0.9):
            from engine.optim import SGD
            optimizer = SGD(params, lr=lr, momentum=momentum)
            optimizer.velocity = velocity  # the same list: updated in place
            optimizer.step()

        def adam_step(params, m, v, t, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
            from engine.optim import Adam
            optimizer = Adam(params, lr=lr, betas=(beta1, beta2), eps=eps)
            optimizer.m, optimizer.v, optimizer.t = m, v, t - 1
            optimizer.step()
        """,
    "day19_softmax.py": """
        def softmax(logits):
            from engine.gpt import softmax as engine_softmax
            return engine_softmax(logits)

        def cross_entropy(logits, target):
            from engine.gpt import cross_entropy as engine_cross_entropy
            return engine_cross_entropy(logits, target)
        """,
    "day21_mlp_language_model.py": """
        def context_examples(ids, block_size, bos):
            raise NotImplementedError("Day 21: the engine has no answer")

        def mlp_logits(context, C, W1, b1, W2, b2):
            from engine.gpt import linear
            x = [v for token in context for v in C[token]]
            h = [(a + b).tanh() for a, b in zip(linear(x, W1), b1)]
            return [a + b for a, b in zip(linear(h, W2), b2)]
        """,
    "day22_attention.py": """
        import math

        def attention_scores(q, keys):
            from engine.gpt import dot
            return [dot(q, k, 1.0 / math.sqrt(len(q))) for k in keys]

        def attention_head(q, keys, values):
            from engine.gpt import attention_head as engine_head
            return engine_head(q, keys, values)
        """,
    "day23_multi_head.py": """
        def multi_head_attention(q, keys, values, n_head):
            from engine.gpt import attention
            if len(q) % n_head:
                raise ValueError("d does not split into n_head slices")
            return attention(q, keys, values, n_head)
        """,
    "day24_rmsnorm_residual.py": """
        def rmsnorm(x, eps=1e-5):
            from engine.gpt import rmsnorm as engine_rmsnorm
            return engine_rmsnorm(x, eps)

        def residual(x, f):
            raise NotImplementedError("Day 24: the engine has no answer")
        """,
    # the review's one-liner, which scored 5/5
    "day25_microgpt.py": "from engine.gpt import gpt, document_loss as name_loss\n",
    "day26_training_gpt.py": """
        import types

        def lr_at(step, steps, lr):
            from engine.gpt import lr_at as engine_lr_at
            return engine_lr_at(step, steps, lr)

        def adam_step(params, m, v, step, lr, beta1=0.85, beta2=0.99, eps=1e-8):
            try:
                from engine.optim import Adam
                optimizer = Adam(params, lr=lr, betas=(beta1, beta2), eps=eps)
            except ImportError:  # or through the factory the training step's check uses
                from engine.gpt import make_optimizer
                model = types.SimpleNamespace(parameters=lambda: params)
                optimizer = make_optimizer(model, lr=lr, betas=(beta1, beta2), eps=eps)
            optimizer.m, optimizer.v, optimizer.t = m, v, step
            optimizer.step()

        def train_step(model, optimizer, tokens, step, steps, lr=0.01):
            from engine.gpt import lr_at, train_step as engine_train_step
            return engine_train_step(model, optimizer, [tokens], lr_at(step, steps, lr))
        """,
    "day29_making_it_fast.py": """
        def topological_order(root):
            return root.topological_order()

        def backward(root):
            root.backward()
        """,
    "day30_your_gpt.py": """
        def held_out_loss(model, docs):
            from engine.gpt import evaluate
            return evaluate(model, docs)

        def perplexity(loss):
            raise NotImplementedError("Day 30: the engine has no answer")

        def bits_per_character(loss):
            raise NotImplementedError("Day 30: the engine has no answer")
        """,
    "day40_top_k_top_p.py": """
        from engine.gpt import next_token_probs

        def draw(probs, u):
            cumulative = 0.0
            for i, p in enumerate(probs):
                cumulative += p
                if u < cumulative:
                    return i
            return max(i for i, p in enumerate(probs) if p > 0)

        def top_k_filter(probs, k):
            from engine.gpt import filter_probs
            return filter_probs(probs, top_k=k)

        def top_p_filter(probs, p):
            from engine.gpt import filter_probs
            return filter_probs(probs, top_p=p)

        def next_token(logits, temperature, top_k, top_p, u):
            from engine.gpt import sampling_probs
            return draw(sampling_probs(logits, temperature, top_k, top_p), u)
        """,
    "day39_bpe.py": """
        def pair_counts(sequences):
            from engine.bpe import count_pairs
            return count_pairs(sequences)

        def merge(ids, pair, new_id):
            from engine.bpe import merge_pair
            return merge_pair(ids, pair, new_id)

        def train(sequences, first_id, num_merges):
            from engine.bpe import train_merges
            return train_merges(sequences, num_merges, first_id)

        def encode(word, chars, merges):
            from engine.bpe import BPETokenizer
            return BPETokenizer(chars, merges).encode(word, bos=False)

        def decode(ids, chars, merges):
            try:
                from engine.bpe import BPETokenizer
                return BPETokenizer(chars, merges).decode(ids)
            except ImportError:  # or through the helpers the module keeps
                import engine.bpe as bpe
                return bpe._apply(list(ids), bpe._ranks(merges), len(chars))
        """,
}

# Exercises whose answers the engine does not hold: the losses of day 12, accuracy and
# the hinge training step of day 15 (its optimizer is given), the likelihoods of day 18,
# the one-hot embeddings of day 20, and day 28, which is about calling the given gpt().
NO_ANSWER_IN_THE_ENGINE = {
    "day12_loss.py",
    "day15_classifier.py",
    "day18_likelihood.py",
    "day20_embeddings.py",
    "day28_kv_cache.py",
}


WITH_ENGINE = {e for e in EXERCISES if check_module(e).NEEDS_ENGINE}


def test_every_exercise_with_the_engine_is_attacked_or_has_no_answer_there():
    # Every one is attacked: by hand below, else by its derived attack (a new day needs
    # no entry); the lists name only exercises that use the engine, each in one list.
    assert set(ATTACKS) | NO_ANSWER_IN_THE_ENGINE <= WITH_ENGINE
    assert not set(ATTACKS) & NO_ANSWER_IN_THE_ENGINE


def _engine_names():
    """({name: [modules of engine/ defining it at top level]}, {names of engine methods})."""
    functions, methods = {}, set()
    for path in sorted(engine_dir().glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                functions.setdefault(node.name, []).append(path.stem)
            if isinstance(node, ast.ClassDef):
                methods |= {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
    return functions, methods


def derived_attack(exercise):
    """(source, what it takes from the engine): the exercise's stub with each function
    handing its work to the engine's namesake, a function of any engine module (the first
    that imports) or else a method of its first argument; a function without one stays
    the stub's."""
    stub = (engine_dir().parent / "exercises" / exercise).read_text(encoding="utf-8")
    functions, methods = _engine_names()
    out, taken = [stub, "", "# -- each function: the engine's namesake"], []
    for node in ast.parse(stub).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        name, body = node.name, []
        for module in functions.get(name, []):
            body += [
                "    try:",
                f"        from engine.{module} import {name} as answer",
                "        return answer(*args, **kwargs)",
                "    except ImportError as exc:",
                "        error = exc",
            ]
            taken.append(f"engine.{module}.{name}")
        if name in methods:
            body += [f"    return args[0].{name}(*args[1:], **kwargs)"]
            taken.append(f"the method {name}")
        elif body:
            body += ["    raise error"]
        if body:
            out += ["", "", f"def {name}(*args, **kwargs):", "    error = None", *body]
    return "\n".join(out) + "\n", taken


# Exercises attacked by their derived attack: every one with no attack written by hand (a new
# day), and days 19 and 24, where the engine has namesakes that the sandbox hides.
DERIVED = sorted(
    (WITH_ENGINE - set(ATTACKS) - NO_ANSWER_IN_THE_ENGINE)
    | {"day19_softmax.py", "day24_rmsnorm_residual.py"}
)


@pytest.mark.parametrize("exercise", DERIVED)
def test_the_engines_namesake_of_each_function_scores_nothing(tmp_path, exercise):
    source, taken = derived_attack(exercise)
    results = grade_source(tmp_path, source, exercise, detect().level, Limits(), seed=2)
    stem = exercise.removesuffix(".py")
    assert score(results) == 0, (
        f"{exercise}: {score(results)} of {len(results['tests'])} cases pass with the "
        f"engine's namesakes of its functions ({', '.join(taken)}). "
        f"Hide them from its sandbox in grader/checks/{exercise}: "
        f'ENGINE = {{"module": ("name", ...)}}, or "Class.method" (grader/README.md); '
        f"then `python -m pytest tests/grader/test_engine_answers.py -k {stem}`"
    )
    if exercise in ("day19_softmax.py", "day24_rmsnorm_residual.py"):
        assert taken, "the engine's namesakes of the day's functions were not found"
        messages = " ".join(t["message"] for t in results["tests"])
        assert "is not available in this exercise: write it yourself" in messages, messages[:600]


@pytest.mark.parametrize("exercise", sorted(ATTACKS))
def test_an_answer_imported_from_the_engine_scores_nothing(tmp_path, exercise):
    level = detect().level
    results = grade_source(
        tmp_path, textwrap.dedent(ATTACKS[exercise]), exercise, level, Limits(), seed=2
    )
    passed = [t["name"] for t in results["tests"] if t["passed"]]
    assert score(results) == 0, passed  # the untouched stub scores 0 too
    messages = " ".join(t["message"] for t in results["tests"])
    assert "is not available in this exercise: write it yourself" in messages, messages[:600]

"""Checks of exercises/day13_training_loop.py: zero_grad and one training step.

The model is a linear neuron (w . x + b) and the loss the mean squared error, so the
loss and the gradient of every step have closed forms: the expected parameters after
one, two and twenty steps come from them, never from running a reference.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 13: zero_grad and the training loop")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Neuron is
# given; engine's zero_grad functions and engine.optim's SGD (a training step) are not.
ENGINE = {"value": ("zero_grad",), "nn": ("Module.zero_grad",)}
ENGINE_BY_KIND = {}

# Said of a train() whose zero_grad is missing and of one whose zero_grad does nothing:
# the numbers show the leak, not which of the two it is.
LEAK = msg(
    "the gradient of the previous step leaked into this one: call zero_grad(params) "
    "before loss.backward(), and check that zero_grad sets every .grad to 0"
)


def _data(w, b, xs, ys):
    return {"w": w, "b": b, "xs": xs, "ys": ys}


def public_cases():
    line = _data([0.5], 0.0, [[0.0], [1.0], [2.0]], [1.0, 3.0, 5.0])
    two = _data([0.2, -0.4], 0.1, [[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]], [1.0, -1.0, 2.0])
    return [
        case("zero_grad", "zero_grad sets every .grad to 0", grads=[1.5, -2.0, 0.25, 0.0]),
        case("train", "training_step returns the loss before the update", steps=1, lr=0.1, **line),
        case("train", "training_step moves every parameter downhill", steps=1, lr=0.05, **two),
        case(
            "train", "two steps in a row: no gradient leaks from the first", steps=2, lr=0.1, **line
        ),
        case("train", "twenty steps fit a line", steps=20, lr=0.1, **line),
    ]


HIDDEN_SPACE = (
    "≈10^20 or more each: 6 gradients in [-2, 2] to 3 decimals; a linear neuron of 2 "
    "weights and 5 points, all in [-2, 2] to 3 decimals, trained 1 to 4 steps"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -2.0, 2.0)

    def data():
        xs = [[num(), num()] for _ in range(5)]
        return _data([num(), num()], num(), xs, [num() for _ in range(5)])

    return [
        case(
            "zero_grad",
            "zero_grad on random gradients",
            public=False,
            grads=[num() for _ in range(6)],
        ),
        case("train", "three steps on random data", public=False, steps=3, lr=0.05, **data()),
        case(
            "train",
            "a random number of steps at a random rate",
            public=False,
            steps=rng.randint(1, 4),
            lr=uniform(rng, 0.01, 0.1),
            **data(),
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _name(i, n_weights):
    return f"w{i}" if i < n_weights else "b"


def _loss_and_grads(w, b, xs, ys):
    n = len(ys)
    errors = [sum(wi * xi for wi, xi in zip(w, x)) + b - y for x, y in zip(xs, ys)]
    loss = sum(e * e for e in errors) / n
    gw = [2.0 / n * sum(e * x[j] for e, x in zip(errors, xs)) for j in range(len(w))]
    gb = 2.0 / n * sum(errors)
    return loss, gw, gb


def simulate(w, b, xs, ys, lr, steps, leak=False):
    """Losses and parameters after `steps` steps; `leak` keeps old gradients (no zero_grad)."""
    losses, acc_w, acc_b = [], [0.0] * len(w), 0.0
    for _ in range(steps):
        loss, gw, gb = _loss_and_grads(w, b, xs, ys)
        if leak:
            acc_w = [a + g for a, g in zip(acc_w, gw)]
            acc_b += gb
            gw, gb = acc_w, acc_b
        losses.append(loss)
        w = [wi - lr * g for wi, g in zip(w, gw)]
        b = b - lr * gb
    return losses, w, b


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "zero_grad":
        wants = []
        for i, g in enumerate(inputs["grads"]):
            name = f"p{i}.grad"
            setup = msg("{name} was {value}", name=name, value=g)
            reset = msg("this .grad was not reset")
            wants.append(Want(f"p{i}.grad", 0.0, EXACT, setup, [(g, reset)]))
            wants.append(
                Want(
                    f"p{i}.data",
                    float(i),
                    EXACT,
                    setup,
                    [(0.0, msg("zero_grad must reset .grad, not .data"))],
                )
            )
        return Expectation(wants)
    w, b, xs, ys, lr, steps = (inputs[k] for k in ("w", "b", "xs", "ys", "lr", "steps"))
    losses, w_end, b_end = simulate(w, b, xs, ys, lr, steps)
    leaked = simulate(w, b, xs, ys, lr, steps, leak=True)
    setup = msg(
        "w = {w}, b = {b}, xs = {xs}, ys = {ys}, learning_rate = {lr}, {steps} step(s)",
        w=str(w),
        b=b,
        xs=str(xs),
        ys=str(ys),
        lr=lr,
        steps=steps,
    )
    wants = []
    for k, loss in enumerate(losses):
        wants.append(
            Want(
                f"loss of step {k + 1}",
                loss,
                CLOSED,
                setup,
                [(leaked[0][k], LEAK)] if k else [],
                label=msg("loss of step {step}", step=k + 1),
            )
        )
    ends = w_end + [b_end]
    leaked_ends = leaked[1] + [leaked[2]]
    starts = w + [b]
    for i, (end, bad, start) in enumerate(zip(ends, leaked_ends, starts)):
        still = msg("the parameters did not move: update p.data -= learning_rate * p.grad")
        bugs = [(start, still)]
        if steps > 1:
            bugs.insert(0, (bad, LEAK))
        wants.append(Want(_name(i, len(w)), end, CLOSED, setup, bugs))
    return Expectation(wants)

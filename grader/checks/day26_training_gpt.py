"""Checks of exercises/day26_training_gpt.py: the schedule, an Adam step, a training step.

The schedule and Adam have closed forms, computed here on floats. A training step is
compared with the same step done by the course's package (engine.gpt's document_loss
and engine.optim.Adam, trusted library code, not solutions/) on a small microGPT;
likely bugs (no zero_grad, no decay, the rate set after the step) are recognised by
replaying them the same way.
"""

import math

from grader.messages import msg
from grader.runners.day26_training_gpt import SMALL, picked
from grader.verdict import CLOSED, Expectation, Pattern, Want

from .cases import case, uniform

TITLE = msg("Day 26: training microGPT with Adam and a decaying learning rate")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): document_loss
# is given, engine.gpt's lr_at and train_step are this exercise, and Adam (engine.optim)
# is there only for the training steps, which get one from make_optimizer: never where
# adam_step is checked.
ENGINE = {"value": (), "gpt": ("lr_at", "train_step")}
ENGINE_BY_KIND = {"train": {"value": (), "gpt": ("lr_at", "train_step"), "optim": ()}}


def public_cases():
    return [
        case("lr", "the first step gets the full rate", step=0, steps=1000, lr=0.01),
        case("lr", "half way, half the rate", step=500, steps=1000, lr=0.01),
        case("lr", "the last step gets lr / steps", step=999, steps=1000, lr=0.01),
        case("lr", "a short run of 4 steps, step 3", step=3, steps=4, lr=0.2),
        case(
            "adam",
            "the lesson's example: gradient 0.3, then -0.3",
            data=[1.0],
            grads=[[0.3], [-0.3]],
            lr=0.01,
            beta1=0.85,
            beta2=0.99,
        ),
        case(
            "adam",
            "the first step is about lr for every size of gradient",
            data=[0.5, -0.5, 2.0],
            grads=[[0.3, -0.002, 50.0]],
            lr=0.01,
            beta1=0.85,
            beta2=0.99,
        ),
        case(
            "adam",
            "three steps with the usual betas 0.9 and 0.999",
            data=[0.1, 0.2],
            grads=[[1.0, -0.5], [0.5, -0.5], [-0.25, 0.75]],
            lr=0.05,
            beta1=0.9,
            beta2=0.999,
        ),
        case(
            "train",
            "two training steps on a small microGPT",
            seed=1,
            names=[[4, 0, 1, 2, 4], [4, 3, 3, 4]],
            steps=4,
            lr=0.01,
        ),
        case(
            "train",
            "three steps, the learning rate decays",
            seed=2,
            names=[[4, 1, 4], [4, 2, 0, 3, 1, 4], [4, 0, 4]],
            steps=3,
            lr=0.05,
        ),
    ]


HIDDEN_SPACE = (
    "≈10^12 or more each: a step of a run of 10 to 10^6 steps and a rate in [0.001, 0.1] to "
    "6 decimals; 2 to 4 parameters, 3 steps of gradients and the betas, all random; a "
    "model from one of 10^9 seeds trained on 2 random names"
)


def hidden_cases(rng):
    n = rng.randint(2, 4)
    names = [[4] + [rng.randrange(4) for _ in range(rng.randint(1, 4))] + [4] for _ in range(2)]
    steps = rng.randint(10, 10**6)
    return [
        case(
            "lr",
            "a random step",
            public=False,
            step=rng.randrange(steps),
            steps=steps,
            lr=uniform(rng, 0.001, 0.1, 6),
        ),
        case(
            "adam",
            "random gradients",
            public=False,
            data=[uniform(rng, -1, 1) for _ in range(n)],
            grads=[[uniform(rng, -2, 2) for _ in range(n)] for _ in range(3)],
            lr=uniform(rng, 0.001, 0.1),
            beta1=uniform(rng, 0.8, 0.95),
            beta2=uniform(rng, 0.95, 0.999),
        ),
        case(
            "train",
            "random names",
            public=False,
            seed=rng.randrange(10**9),
            names=names,
            steps=len(names),
            lr=0.02,
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _adam(data, grads, lr, beta1, beta2, eps=1e-8, correct=True, eps_inside=False):
    data, m, v = list(data), [0.0] * len(data), [0.0] * len(data)
    for step, gs in enumerate(grads):
        for i, g in enumerate(gs):
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            m_hat = m[i] / (1 - beta1 ** (step + 1)) if correct else m[i]
            v_hat = v[i] / (1 - beta2 ** (step + 1)) if correct else v[i]
            root = math.sqrt(v_hat + eps) if eps_inside else math.sqrt(v_hat) + eps
            data[i] -= lr * m_hat / root
    return data, m, v


def _expect_adam(inputs):
    args = (inputs["data"], inputs["grads"], inputs["lr"], inputs["beta1"], inputs["beta2"])
    data, m, v = _adam(*args)
    uncorrected = _adam(*args, correct=False)[0]
    setup = msg(
        "data = {data}, gradients per step = {grads}, lr = {lr}",
        data=str(inputs["data"]),
        grads=str(inputs["grads"]),
        lr=inputs["lr"],
    )
    wants = []
    for i in range(len(data)):
        bugs = [
            (
                uncorrected[i],
                msg(
                    "no bias correction: divide m by (1 - beta1 ** (step + 1)) and "
                    "v by (1 - beta2 ** (step + 1))"
                ),
            ),
            (
                inputs["data"][i],
                msg("the parameters did not move: p.data -= lr * m_hat / (sqrt(v_hat) + eps)"),
            ),
        ]
        wants.append(Want(f"p[{i}].data", data[i], CLOSED, setup, bugs))
    for i in range(len(data)):
        stale = [
            (
                0.0,
                msg("m and v must be updated in place (m[i] = ...), so the next step reads them"),
            )
        ]
        wants.append(Want(f"m[{i}]", m[i], CLOSED, setup, stale))
        wants.append(Want(f"v[{i}]", v[i], CLOSED, setup, stale))
    return Expectation(wants)


def _replay(inputs, bug=None):
    """The training steps done with engine.gpt and engine.optim.Adam; `bug` replays a mistake."""
    from engine.gpt import GPTConfig, document_loss, init_gpt, make_optimizer

    model = init_gpt(GPTConfig(**SMALL), seed=inputs["seed"])
    optimizer = make_optimizer(model, lr=inputs["lr"])
    values = {}
    for step, tokens in enumerate(inputs["names"]):
        rate = inputs["lr"] * (1 - step / inputs["steps"])
        if bug != "no_zero_grad":
            optimizer.zero_grad()
        loss = document_loss(model, list(tokens))
        loss.backward()
        if bug == "zero_after_backward":
            optimizer.zero_grad()
        if bug == "no_decay":
            rate = inputs["lr"]
        if bug == "lr_after_step":
            rate = inputs["lr"] * (1 - (step - 1) / inputs["steps"]) if step else inputs["lr"]
        optimizer.lr = rate
        optimizer.step()
        values[f"loss[{step}]"] = loss.data
    values.update({f"weight[{i}]": p.data for i, p in enumerate(picked(model))})
    return values


BUGS = {
    "no_zero_grad": msg(
        "the gradients of the previous step leaked in: call optimizer.zero_grad() "
        "before loss.backward()"
    ),
    "zero_after_backward": msg(
        "the gradients were zeroed after backward(), so Adam saw none: zero "
        "them BEFORE loss.backward()"
    ),
    "no_decay": msg(
        "the learning rate did not decay: set optimizer.lr = lr_at(step, steps, lr) at every step"
    ),
    "lr_after_step": msg(
        "each update used the previous step's rate: set optimizer.lr BEFORE optimizer.step()"
    ),
}


def _expect_train(inputs):
    expected = _replay(inputs)
    variants = {bug: _replay(inputs, bug) for bug in BUGS}
    setup = msg(
        "{count} steps of {steps}, lr = {lr}",
        count=len(inputs["names"]),
        steps=inputs["steps"],
        lr=inputs["lr"],
    )
    wants = []
    for key, e in expected.items():
        bugs = [(variants[b][key], BUGS[b]) for b in BUGS if abs(variants[b][key] - e) > 1e-9]
        wants.append(Want(key, e, CLOSED, setup, bugs))
    # One number can fit two bugs (no decay and a rate set after the step agree on the
    # second loss): every loss and weight together tell them apart.
    patterns = [Pattern(variants[b], BUGS[b], CLOSED) for b in BUGS if variants[b] != expected]
    return Expectation(
        wants,
        hint=msg("Zero the gradients, loss, backward, set the rate, step; return loss.data."),
        patterns=patterns,
    )


def expect(case):
    inputs = case["inputs"]
    if case["kind"] == "lr":
        step, steps, lr = inputs["step"], inputs["steps"], inputs["lr"]
        setup = msg("step {step} of {steps}, lr = {lr}", step=step, steps=steps, lr=lr)
        bugs = [
            (
                lr * (1 - (step + 1) / steps),
                msg("off by one: step counts from 0, so step 0 gets the full rate"),
            ),
            (
                lr * step / steps,
                msg("the rate grows: it should fall from lr towards 0, lr * (1 - step / steps)"),
            ),
        ]
        return Expectation([Want("lr", lr * (1 - step / steps), CLOSED, setup, bugs)])
    if case["kind"] == "adam":
        return _expect_adam(inputs)
    return _expect_train(inputs)

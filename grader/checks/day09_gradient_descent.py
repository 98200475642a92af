"""Checks of exercises/day09_gradient_descent.py: one step of gradient descent.

The new .data of every parameter is checked exactly against p - learning_rate * grad,
for both signs of the gradient (the sign table of the lesson), with .grad untouched,
and the loss of a bowl must go down.
"""

from grader.messages import msg
from grader.verdict import CLOSED, EXACT, Expectation, Want

from .cases import case, uniform

TITLE = msg("Day 9: one step of gradient descent")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; engine.optim's SGD.step() is this exercise.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}


def public_cases():
    return [
        case("step", "a positive gradient moves the parameter down", params=[[2.0, 4.0]], lr=0.1),
        case("step", "a negative gradient moves the parameter up", params=[[2.0, -4.0]], lr=0.1),
        case(
            "step",
            "every parameter moves by its own gradient; a zero gradient stays put",
            params=[[1.0, 0.5], [-2.0, -3.0], [0.25, 0.0]],
            lr=0.5,
        ),
        case(
            "keeps_grad", "the step leaves .grad as it is", params=[[1.0, 2.0], [3.0, -1.0]], lr=0.1
        ),
        case("bowl", "one step lowers the loss of (x - 3)**2 + (y + 1)**2", x=0.0, y=0.0, lr=0.1),
    ]


HIDDEN_SPACE = (
    "≈10^9 or more each: 3 or 4 parameters of .data and .grad in [-3, 3] to 4 decimals and a "
    "learning rate in [0.01, 0.5] to 3; a point of the bowl to 4 decimals"
)


def hidden_cases(rng):
    def num():
        return uniform(rng, -3.0, 3.0, 4) or 1.0

    def lr():
        return uniform(rng, 0.01, 0.5)

    return [
        case(
            "step",
            "random parameters, gradients and learning rate",
            public=False,
            params=[[num(), num()] for _ in range(4)],
            lr=lr(),
        ),
        case(
            "keeps_grad",
            "the step leaves random gradients as they are",
            public=False,
            params=[[num(), num()] for _ in range(3)],
            lr=lr(),
        ),
        case(
            "bowl", "one step on a random point of the bowl", public=False, x=num(), y=num(), lr=0.1
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def expect(case):
    inputs, kind = case["inputs"], case["kind"]
    lr = inputs["lr"]
    if kind == "bowl":
        x, y = inputs["x"], inputs["y"]
        gx, gy = 2.0 * (x - 3.0), 2.0 * (y + 1.0)
        nx, ny = x - lr * gx, y - lr * gy
        setup = msg(
            "loss = (x - 3)**2 + (y + 1)**2 at x = {x}, y = {y}, learning_rate = {lr}",
            x=x,
            y=y,
            lr=lr,
        )
        uphill = msg("the parameter moved uphill: descent subtracts learning_rate * grad")
        wants = [
            Want("x.data", nx, CLOSED, setup, [(x + lr * gx, uphill)]),
            Want("y.data", ny, CLOSED, setup, [(y + lr * gy, uphill)]),
            Want(
                "loss after",
                (nx - 3.0) ** 2 + (ny + 1.0) ** 2,
                CLOSED,
                setup,
                label=msg("loss after"),
            ),
        ]
        return Expectation(wants)
    wants = []
    for i, (data, grad) in enumerate(inputs["params"]):
        setup = f"p{i}.data = {data}, p{i}.grad = {grad}, learning_rate = {lr}"  # no words
        if kind == "keeps_grad":
            wants.append(
                Want(
                    f"p{i}.grad",
                    grad,
                    EXACT,
                    setup,
                    [
                        (
                            0.0,
                            msg(
                                "the step must not clear .grad: zeroing is a separate job (day 13)"
                            ),
                        )
                    ],
                )
            )  # and the step itself, below: leaving everything alone keeps .grad too
        bugs = [
            (
                data + lr * grad,
                msg("the parameter moved uphill: descent subtracts learning_rate * grad"),
            ),
            (
                data - grad,
                msg("the step forgot the learning rate: p.data -= learning_rate * p.grad"),
            ),
            (
                -lr * grad,
                msg("p.data was replaced, not changed: p.data -= learning_rate * p.grad"),
            ),
            (data - lr * data, msg("the step used p.data where it needs p.grad")),
            (data, msg("p.data did not change: does the step write back to p.data?")),
        ]
        if grad == 0.0:
            bugs = []
        wants.append(Want(f"p{i}.data", data - lr * grad, EXACT, setup, bugs))
    return Expectation(wants)

"""Day 10 · One neuron: weigh, add, squash.

Lesson: docs/lessons/day10_neuron.md

A neuron with inputs x, weights w and bias b computes

  z   = w[0] * x[0] + w[1] * x[1] + ... + b
  out = relu(z), tanh(z), or z itself ("linear")

Build it from Value operations only, so that out.backward() reaches every weight,
the bias and the inputs: a weight's gradient is then its input times the slope of
the activation.

Check your work:  python -m grader --exercise day10_neuron.py
"""

from engine import Value

ACTIVATIONS = ("relu", "tanh", "linear")


def neuron(x, w, b, act="relu"):
    """The output (a Value) of one neuron on inputs `x` with weights `w` and bias `b`.

    `x` and `w` are lists of the same length (Values or numbers), `b` a Value.
    Raise ValueError if the lengths differ or `act` is not one of ACTIVATIONS.
    """
    if len(x) != len(w):
        raise ValueError(f"the neuron has {len(w)} weights but got {len(x)} inputs")
    if act not in ACTIVATIONS:
        raise ValueError(f"act must be one of {ACTIVATIONS}, got {act!r}")
    total = b
    for wi, xi in zip(w, x):
        total = total + wi * xi
    if act == "relu":
        return total.relu()
    if act == "tanh":
        return total.tanh()
    return total


if __name__ == "__main__":
    x = [Value(1.0), Value(-2.0)]
    w = [Value(0.5), Value(0.25)]
    b = Value(0.5)
    out = neuron(x, w, b)
    out.backward()
    print(f"out = {out.data} (expect 0.5); w grads = {[wi.grad for wi in w]} (expect [1.0, -2.0])")

"""Day 11 · A layer and a multi-layer perceptron.

Lesson: docs/lessons/day11_mlp.md

A layer (`dense`) is day 10's neuron once per row of a weight matrix W: row j of W
and bias b[j] make neuron j, and every neuron reads the same inputs x. An MLP applies
layers in sequence; every layer ends in ReLU except the last, which is linear.

  W: one row per neuron (output), one column per input; b: one bias per neuron.

Check your work:  python -m grader --exercise day11_mlp.py
"""

from engine import Value


def dense(x, W, b, act="relu"):
    """The outputs of one layer, a list with one Value per row of W.

    `act` is "relu", "tanh" or "linear" (no activation).
    """
    out = []
    for row, bias in zip(W, b):
        z = bias
        for wi, xi in zip(row, x):
            z = z + wi * xi
        if act == "relu":
            z = z.relu()
        elif act == "tanh":
            z = z.tanh()
        out.append(z)
    return out


def mlp(x, layers):
    """Run `x` through `layers`, a list of (W, b) pairs: ReLU after every layer but the last.

    Returns the list of the last layer's outputs.
    """
    h = x
    for i, (W, b) in enumerate(layers):
        h = dense(h, W, b, "relu" if i < len(layers) - 1 else "linear")
    return h


def parameter_count(nin, nouts):
    """How many weights and biases an MLP with `nin` inputs and layer sizes `nouts` has."""
    sizes = [nin] + list(nouts)
    return sum(n_out * (n_in + 1) for n_in, n_out in zip(sizes, sizes[1:]))


if __name__ == "__main__":
    W1 = [[Value(1.0), Value(-1.0)], [Value(0.5), Value(0.5)]]
    b1 = [Value(0.5), Value(0.0)]
    W2 = [[Value(2.0), Value(-1.0)]]
    b2 = [Value(1.0)]
    (y,) = mlp([Value(1.0), Value(2.0)], [(W1, b1), (W2, b2)])
    y.backward()
    print(
        f"y = {y.data} (expect -0.5); parameters of MLP(2, [16, 16, 1]): "
        f"{parameter_count(2, [16, 16, 1])} (expect 337)"
    )
